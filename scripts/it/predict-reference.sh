#!/usr/bin/env bash
# Predict rules (SPEC §10) under `simulate --json` against an independent reference: exact
# rational least squares and the §5 state machine in Python, over 25 random scenarios and
# rule sets (lib/predict_reference.py says what it draws).
set -u
. "$(dirname "$0")/../testlib.sh"
command -v python3 >/dev/null || { echo "python3 missing"; exit 77; }
work=$(mktemp -d /tmp/sw-it-predict.XXXXXX)
trap 'rm -rf "$work"' EXIT
for seed in $(seq 1 25); do
    python3 "$(dirname "$0")/lib/predict_reference.py" "$SENSORWATCH" "$seed" "$work" >"$work/out" 2>&1 \
        || fail "$(cat "$work/out")"
done
finish
