#!/usr/bin/env bash
# One BMC costs one BMC (SPEC §23), three simulators on 127.0.0.1 (ports IPMI_PORTS + 20 to + 25) and an
# hwmon source in one daemon: a BMC frozen with SIGSTOP makes its own sensors faults
# (`…: session timeout after 1 s`) while the other BMCs and the hwmon sensor keep their
# pace, and after ten seconds frozen it is read again within two intervals of SIGCONT (its
# reopening backs off to two intervals, no further); a BMC removed by a reload has
# its session closed; SIGTERM with a frozen BMC stops the daemon within a second; after a
# stop no session is left, after kill -9 and a restart at most the killed one's; a BMC polled
# each 2 s with a 1 s timeout keeps its session over 5 polls without a fault, and frozen is a
# fault within 2 s of the poll that stalls.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
require_namespaces
require_binary
enter_namespace
source "$(dirname "$0")/lib/ipmi.sh"
need_ipmi
trap 'stop_sims' EXIT

A=$((IPMI_PORTS + 20)) B=$((IPMI_PORTS + 22)) C=$((IPMI_PORTS + 24))
start_sim $A; start_sim $B; PID_B=$SIM_PID; start_sim $C; PID_C=$SIM_PID
write_password "$WORK/bmc.pass"
h=$WORK/sys/class/hwmon/hwmon0
mkdir -p "$h"; echo board >"$h/name"; echo 40000 >"$h/temp1_input"
cfg() { # HOSTS
    cat >"$WORK/c.json5" <<JSON
{
  sources: [
    { type: "ipmi", hosts: [$1], user: "admin", passwordFile: "$WORK/bmc.pass", privilege: "admin",
      workarounds: ["opensesspriv"], interval: "1s", timeout: "1s" },
    { type: "hwmon", root: "$WORK/sys/class/hwmon", interval: "200ms" },
  ],
  rules: [ { name: "too-hot", sensor: "ipmi:*", above: "crit", severity: "critical" } ],
  metrics: { textfile: "$WORK/metrics/sensorwatch.prom", interval: "200ms" },
}
JSON
}
cfg "\"127.0.0.1:$A\", \"127.0.0.1:$B\", \"127.0.0.1:$C\""
mkdir -p "$WORK/state" "$WORK/run" "$WORK/metrics"
export STATE_DIRECTORY=$WORK/state RUNTIME_DIRECTORY=$WORK/run
S=$WORK/run/status.json
# field of sensor $1 in the status file
sensor() { jq -r --arg id "$1" --arg f "$2" '.sensors[] | select(.id == $id) | .[$f] | tostring' "$S" 2>/dev/null; }
is_ok() { [ "$(sensor "$1" ok)" = true ]; }
faults_with() { [ "$(sensor "$1" error)" = "$2" ]; }
# when sensor $1 was last read, from the metrics file (the status file is rewritten on a
# change of health, not for each reading)
last_read() {
    awk -v s="sensorwatch_sensor_last_reading_timestamp_seconds{sensor=\"$1\"}" '$1 == s { print $2 }' \
        "$WORK/metrics/sensorwatch.prom"
}

"$BIN" run --config "$WORK/c.json5" 2>"$WORK/stderr" &
pid=$!
for p in $A $B $C; do wait_for "BMC $p read" 100 is_ok "ipmi:127.0.0.1:$p/Inlet_Temp"; done
[ "$(sessions_held $A)" = 1 ] || fail "one session per BMC: $(sessions_held $A) on A"

kill -STOP "$PID_B"
frozen=$(date +%s.%N)
wait_for "B's sensors to fault" 50 faults_with "ipmi:127.0.0.1:$B/Inlet_Temp" "127.0.0.1:$B: session timeout after 1 s"
took=$(echo "$(date +%s.%N) - $frozen" | bc)
note "B frozen: its sensors are faults after ${took}s"
# Meanwhile A, C and hwmon keep their pace: each reading newer than the one 1.5 s before.
ta=$(last_read "ipmi:127.0.0.1:$A/Inlet_Temp"); tc=$(last_read "ipmi:127.0.0.1:$C/Inlet_Temp")
th=$(last_read hwmon:board-virtual-0/temp1); tb=$(last_read "ipmi:127.0.0.1:$B/Inlet_Temp")
sleep 3.5   # the pace itself is what is tested (no event marks "two intervals later"); 1.5 s to spare for a loaded machine
[ "$(echo "$(last_read "ipmi:127.0.0.1:$A/Inlet_Temp") >= $ta + 2" | bc)" = 1 ] || fail "A stalled with B"
[ "$(echo "$(last_read "ipmi:127.0.0.1:$C/Inlet_Temp") >= $tc + 2" | bc)" = 1 ] || fail "C stalled with B"
[ "$(echo "$(last_read hwmon:board-virtual-0/temp1) >= $th + 2" | bc)" = 1 ] || fail "hwmon stalled with B"
[ "$(last_read "ipmi:127.0.0.1:$B/Inlet_Temp")" = "$tb" ] || fail "B read while frozen"
grep -q "^sensorwatch_temperature_celsius{sensor=\"ipmi:127.0.0.1:$A/Inlet_Temp\",label=\"Inlet Temp\"} 25$" \
    "$WORK/metrics/sensorwatch.prom" || fail "no BMC temperature in the metrics: $(grep Inlet "$WORK/metrics/sensorwatch.prom")"
is_ok "ipmi:127.0.0.1:$A/Inlet_Temp" && is_ok "ipmi:127.0.0.1:$C/Inlet_Temp" || fail "A or C faulted with B"
# Frozen for over ten intervals: its reopening backs off to two intervals, no further, so it
# is still read again within two intervals of its return.
sleep 6   # the length of the outage is what is tested
kill -CONT "$PID_B"
resumed=$(date +%s.%N)
# Two intervals (1 s each) plus a status rewrite.
wait_for "B read again" 30 is_ok "ipmi:127.0.0.1:$B/Inlet_Temp"
note "B back $(echo "$(date +%s.%N) - $resumed" | bc)s after SIGCONT"
# One entry for the frozen BMC, naming it and the cause, not one per sensor.
grep -q "sensor ipmi:127.0.0.1:$B (127.0.0.1:$B: 6 sensors) read failed: 127.0.0.1:$B: session timeout after 1 s" "$WORK/stderr" \
    || fail "no fault entry in words: $(cat "$WORK/stderr")"
[ "$(grep -c "read failed: 127.0.0.1:$B:" "$WORK/stderr")" = 1 ] || fail "more than one entry for B: $(cat "$WORK/stderr")"
grep -q "sensor ipmi:127.0.0.1:$B (127.0.0.1:$B: 6 sensors) reads again" "$WORK/stderr" || fail "no recovery entry: $(cat "$WORK/stderr")"

# A reload that drops C closes C's session.
cfg "\"127.0.0.1:$A\", \"127.0.0.1:$B\""
kill -HUP "$pid"
held_c_zero() { [ "$(sessions_held $C)" = 0 ]; }
wait_for "C's session closed after the reload" 50 held_c_zero
note "reload: the removed BMC's session is closed"

# SIGTERM while B is frozen in a call: the daemon still stops within a second.
kill -STOP "$PID_B"
wait_for "B's sensors to fault again" 50 faults_with "ipmi:127.0.0.1:$B/Inlet_Temp" "127.0.0.1:$B: session timeout after 1 s"
start=$(date +%s.%N)
kill -TERM "$pid"
wait "$pid" || fail "run exited with $? on SIGTERM"
took=$(echo "$(date +%s.%N) - $start" | bc)
[ "$(echo "$took < 1" | bc)" = 1 ] || fail "SIGTERM with a frozen BMC took ${took}s"
note "SIGTERM with a frozen BMC: stopped in ${took}s"
kill -CONT "$PID_B"
[ "$(sessions_held $A)" = 0 ] || fail "$(sessions_held $A) sessions left on A after the stop"

# kill -9, then a restart: at most the killed daemon's session is left once that one stops.
"$BIN" run --config "$WORK/c.json5" 2>"$WORK/stderr" &
pid=$!
wait_for "A read" 100 is_ok "ipmi:127.0.0.1:$A/Inlet_Temp"
kill -KILL "$pid"; wait "$pid" 2>/dev/null || true
rm -f "$S"
"$BIN" run --config "$WORK/c.json5" 2>"$WORK/stderr" &
pid=$!
wait_for "A read after the restart" 100 is_ok "ipmi:127.0.0.1:$A/Inlet_Temp"
kill -TERM "$pid"; wait "$pid" || fail "run exited with $? on SIGTERM"
left=$(sessions_held $A)
[ "$left" -le 1 ] || fail "$left sessions left after kill -9 and a restart"
note "sessions left: stop 0, reload 0, kill -9 + restart $left"

# A timeout shorter than the interval (1 s, 2 s): FreeIPMI's session timeout counts from the
# last packet received, so it must cover the rest between polls, else every other poll failed
# at its first call and the session was reopened (docs/decisions.md "BMC sensors"). C, idle
# since the reload dropped it, alone in a daemon of its own.
cat >"$WORK/slow.json5" <<JSON
{
  sources: [ { type: "ipmi", hosts: ["127.0.0.1:$C"], user: "admin", passwordFile: "$WORK/bmc.pass",
               privilege: "admin", workarounds: ["opensesspriv"], interval: "2s", timeout: "1s" } ],
  metrics: { textfile: "$WORK/metrics/sensorwatch.prom", interval: "200ms" },
}
JSON
rm -f "$S" "$WORK/metrics/sensorwatch.prom"
"$BIN" run --config "$WORK/slow.json5" 2>"$WORK/stderr" &
pid=$!
wait_for "C read" 100 is_ok "ipmi:127.0.0.1:$C/Inlet_Temp"
newer_read() { [ "$(echo "$(last_read "ipmi:127.0.0.1:$C/Inlet_Temp") > $1" | bc)" = 1 ]; }
# Each wait is for C's next reading: a poll that failed has none, so a failure shows here or
# in the log below, never as a pass.
for n in 1 2 3 4 5; do
    t=$(last_read "ipmi:127.0.0.1:$C/Inlet_Temp")
    wait_for "C's reading $n after its first" 100 newer_read "$t"
    if grep -q "127.0.0.1:$C" "$WORK/stderr"; then fail "C failed resting between polls: $(cat "$WORK/stderr")"; fi
done
is_ok "ipmi:127.0.0.1:$C/Inlet_Temp" || fail "C not ok after 5 polls: $(sensor "ipmi:127.0.0.1:$C/Inlet_Temp" error)"
[ "$(sessions_held $C)" = 1 ] || fail "C's session not kept: $(sessions_held $C) held"
note "interval 2 s, timeout 1 s: 5 polls read, no fault, one session"
# Frozen, C still faults about its timeout after the poll that stalls (the poll is due an
# interval after the last reading).
t=$(last_read "ipmi:127.0.0.1:$C/Inlet_Temp")
kill -STOP "$PID_C"
wait_for "C's sensors to fault" 100 faults_with "ipmi:127.0.0.1:$C/Inlet_Temp" "127.0.0.1:$C: session timeout after 1 s"
late=$(echo "$(date +%s.%N) - $t - 2" | bc)
[ "$(echo "$late < 2" | bc)" = 1 ] || fail "C faulted ${late}s after its stalled poll (timeout 1 s)"
note "C frozen: a fault ${late}s after its stalled poll (timeout 1 s, interval 2 s)"
start=$(date +%s.%N)
kill -TERM "$pid"
wait "$pid" || fail "run exited with $? on SIGTERM"
took=$(echo "$(date +%s.%N) - $start" | bc)
[ "$(echo "$took < 1" | bc)" = 1 ] || fail "SIGTERM with C frozen took ${took}s"
kill -CONT "$PID_C"
note "SIGTERM with C frozen: stopped in ${took}s"
