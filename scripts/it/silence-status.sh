#!/usr/bin/env bash
# `status` and `history` with silences (SPEC §21) against a real daemon and a private
# journald: `status --check` is CRITICAL, then WARNING with the critical alert silenced (named
# "(silenced)"), OK with both silenced, CRITICAL again after the expiry; `status` marks the
# silenced alert "silenced until TIME", `status --json` gives it silencedUntil; `history` lists
# the silences among the events, as lines and as JSON. A forged silence changes nothing.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/notify.sh"
setup_journal_test
need logger bsdutils
need setpriv util-linux
DAEMON_PID=
trap 'if [ -n "$DAEMON_PID" ]; then kill "$DAEMON_PID" 2>/dev/null || true; wait "$DAEMON_PID" 2>/dev/null || true; fi; stop_journald' EXIT
start_journald
cd "$WORK"

cat >"$WORK/hot.json5" <<'J'
{ duration: "1h", step: "1s", loop: false, sensors: [ { id: "cpu", quantity: "temperature", label: "CPU package", start: 97 } ] }
J
cat >"$WORK/c.json5" <<J
{ sources: [ { type: "simulated", scenario: "hot.json5", interval: "200ms" } ],
  statusFile: "$WORK/status.json",
  rules: [
    { name: "cpu-hot", sensor: "sim:cpu", above: 85, severity: "warning" },
    { name: "cpu-crit", sensor: "sim:cpu", above: 95, severity: "critical" } ] }
J
# Its state in the test's own directory: kept in /var/lib/sensorwatch, a second run of the test
# would find both alerts firing already and log no firing (SPEC §8).
STATE_DIRECTORY="$WORK/state" "$BIN" run --config "$WORK/c.json5" 2>"$WORK/run.log" &
DAEMON_PID=$!
both_firing() { [ -f "$WORK/status.json" ] && jq -e '[.alerts[] | select(.state == "firing")] | length == 2' "$WORK/status.json" >/dev/null 2>&1; }
wait_for "both alerts firing in status.json" 100 both_firing
on_fail() { cat "$WORK/check.out" 2>/dev/null; cat "$WORK/run.log"; }

check() { # EXPECTED-EXIT
    local got=0
    "$BIN" status --file "$WORK/status.json" --check >"$WORK/check.out" 2>&1 || got=$?
    [ "$got" = "$1" ] || fail "status --check exited $got, expected $1: $(cat "$WORK/check.out")"
}
check 2
grep -q "^SENSORWATCH CRITICAL - 1 critical: cpu-crit on sim:cpu (97 °C); 1 warning: cpu-hot" "$WORK/check.out" || fail "$(cat "$WORK/check.out")"

# A forged silence (another user's entry) changes nothing.
forged_silence 00000000-0000-0000-0000-00000000dead
wait_for "the forged entry" 100 journal_has SILENCE_ID=00000000-0000-0000-0000-00000000dead
check 2

crit=$("$BIN" silence add --rule cpu-crit --for 1h --comment "BIOS update" 2>/dev/null)
check 1
grep -q "^SENSORWATCH WARNING - 1 warning: cpu-hot on sim:cpu (97 °C); 1 silenced: cpu-crit on sim:cpu (97 °C) (silenced); 1 sensor |" \
    "$WORK/check.out" || fail "one silenced: $(cat "$WORK/check.out")"
"$BIN" status --file "$WORK/status.json" >"$WORK/person.out"
grep -q "CRITICAL  cpu-crit .* since .*, silenced until " "$WORK/person.out" || fail "status: $(cat "$WORK/person.out")"
! grep -q "cpu-hot .*silenced" "$WORK/person.out" || fail "cpu-hot marked: $(cat "$WORK/person.out")"
"$BIN" status --file "$WORK/status.json" --json >"$WORK/status.out"
jq -e '(.alerts[] | select(.rule == "cpu-crit") | .silencedUntil | test("Z$")) and
       (.alerts[] | select(.rule == "cpu-hot") | has("silencedUntil") | not)' "$WORK/status.out" >/dev/null \
    || fail "status --json: $(cat "$WORK/status.out")"

all=$("$BIN" silence add --sensor 'sim:*' --for 1h 2>/dev/null)
check 0
grep -q "^SENSORWATCH OK - 2 silenced: " "$WORK/check.out" || fail "both silenced: $(cat "$WORK/check.out")"

"$BIN" silence expire "$crit" >/dev/null
"$BIN" silence expire "$all" >/dev/null
check 2

# history: the three silence entries among the events, in time order; as JSON too.
"$BIN" history >"$WORK/history.out"
grep -q " silence $crit rule=cpu-crit sensor=\* host=\* by root until .*: BIOS update$" "$WORK/history.out" \
    || fail "history: $(cat "$WORK/history.out")"
grep -q " silence $crit rule=cpu-crit sensor=\* host=\* expired by root: BIOS update$" "$WORK/history.out" \
    || fail "history has no expiry: $(cat "$WORK/history.out")"
[ "$(grep -c ' silence ' "$WORK/history.out")" = 4 ] || fail "history: $(cat "$WORK/history.out")"
grep -q ' cpu-crit firing ' <(head -2 "$WORK/history.out") || fail "the firing is not first: $(cat "$WORK/history.out")"
"$BIN" history --json >"$WORK/history.json"
jq -s -e --arg id "$crit" '[.[] | select(.event == "silence" and .silence.id == $id)] | map(.silence.state) == ["active", "expired"]' \
    "$WORK/history.json" >/dev/null || fail "history --json: $(cat "$WORK/history.json")"
echo "ok: status --check 2/1/0/2 with silences, status and --json mark them, history lists them"
