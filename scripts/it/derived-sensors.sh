#!/usr/bin/env bash
# Derived sensors (SPEC §11) end to end: `check` accepts them, `sensors` shows them (value or
# the reason it has none), and `run` and `simulate` raise the same alerts on a dew point,
# a difference, and a derived sensor whose inputs do not exist (it goes stale).
set -u
. "$(dirname "$0")/lib/common.sh"
require_binary
dir=$(mktemp -d /tmp/sw-it-derived.XXXXXX)
# The daemon keeps its state here, not in the host's /var/lib/sensorwatch (where a later run
# would find this run's alerts firing and log no firing).
export STATE_DIRECTORY="$dir/state"
pid=
cleanup() { [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT

cat >"$dir/scenario.json5" <<'J'
{ duration: "3s", step: "500ms", loop: false,
  sensors: [
    { id: "room", quantity: "temperature", label: "Room", start: 25 },
    { id: "rh", quantity: "humidity", start: 40, segments: [ { hold: "1s" }, { step: 60 } ] },
    { id: "inlet", quantity: "temperature", start: 20 },
    { id: "outlet", quantity: "temperature", start: 20, segments: [ { hold: "1s" }, { ramp: 35, over: "1s" } ] },
  ] }
J
cat >"$dir/config.json5" <<'J'
{ sources: [ { type: "simulated", scenario: "scenario.json5", interval: "500ms" } ],
  derived: [
    { id: "room-dew", label: "Room dew point", dewpoint: { temperature: "sim:room", humidity: "sim:rh" } },
    { id: "rack-rise", difference: { of: "sim:outlet", minus: "sim:inlet" }, maxAge: "30s" },
    { id: "gone", difference: { of: "sim:nothing", minus: "sim:inlet" } },
  ],
  rules: [
    { name: "condensation", sensor: "derived:room-dew", above: 16 },
    { name: "rack-hot", sensor: "derived:rack-rise", above: 10, severity: "critical" },
    { name: "silent", sensor: "derived:gone", stale: "1s" },
  ] }
J

expect_out_contains "OK" "$SENSORWATCH" check --config "$dir/config.json5"
expect_out_contains '{"id":"derived:room-dew","label":"Room dew point","quantity":"temperature","unit":"°C","value":10.' \
    "$SENSORWATCH" sensors --config "$dir/config.json5" --json
expect_out_contains '"id":"derived:gone","label":"","quantity":"temperature","unit":"°C","value":null,"error":"no reading of sim:nothing yet"' \
    "$SENSORWATCH" sensors --config "$dir/config.json5" --json

sim=$("$SENSORWATCH" simulate --config "$dir/config.json5")
echo "$sim"
for want in "condensation firing: derived:room-dew (Room dew point) 16.693 °C above 16 °C" \
            "rack-hot firing: derived:rack-rise" "silent firing: derived:gone no reading for 1s"; do
    grep -qF -- "$want" <<<"$sim" || fail "simulate lacks '$want'"
done

# run: no journald in a private /run, so events go to stderr.
unshare -m --propagation private sh -c 'mount -t tmpfs none /run && exec "$0" run --config "$1"' \
    "$SENSORWATCH" "$dir/config.json5" 2>"$dir/err" &
pid=$!
on_fail() { cat "$dir/err"; }
for alert in "rack-hot firing" "condensation firing" "silent firing"; do wait_for_line "$dir/err" "$alert" 100; done
kill -TERM "$pid"; wait "$pid"; pid=
cat "$dir/err"
grep -qF "<4>condensation firing: derived:room-dew (Room dew point) 16.693 °C above 16 °C" "$dir/err" || fail "run: no condensation alert"
grep -qF "<2>rack-hot firing: derived:rack-rise" "$dir/err" || fail "run: no rack-hot alert"
grep -qF "<4>silent firing: derived:gone no reading for 1s" "$dir/err" || fail "run: no stale alert for derived:gone"
echo "ok: derived sensors check, read, simulate and alert in run"
