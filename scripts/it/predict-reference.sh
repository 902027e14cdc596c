#!/usr/bin/env bash
# Predict rules (SPEC §10) under `simulate --json` against an independent reference: exact
# rational least squares and the §5 state machine in Python, over 25 random scenarios and
# rule sets (lib/predict_reference.py says what it draws).
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
need python3 python3
work=$(mktemp -d /tmp/sw-it-predict.XXXXXX)
trap 'rm -rf "$work"' EXIT
for seed in $(seq 1 25); do
    python3 "$ROOT/scripts/it/lib/predict_reference.py" "$SENSORWATCH" "$seed" "$work" >"$work/out" 2>&1 \
        || fail "$(cat "$work/out")"
done
note "simulate agrees with the reference on 25 random scenarios"
