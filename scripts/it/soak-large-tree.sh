#!/usr/bin/env bash
# A thousand thermal zones read every 100 ms for 70 s, their values changing every second,
# the Prometheus file written every second: the daemon lives through its first periodic
# rediscovery (at 60 s), alerts keep coming, the file keeps being replaced, memory stays
# flat, and SIGTERM still stops it within a second with status 0. No other test runs `run`
# past a minute on a large tree. (A crash once waited there: listing the thousand entries
# read past readdir's short entries. Whether that crashes depends on the heap's layout, so
# memcheck-discovery.sh is the test that catches it every time; this one guards the rest.)
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/faults.sh"
setup_fault_test
SOAK=${SOAK_SECONDS:-70}

T=$WORK/tree
mkdir -p "$T"
mount -t tmpfs -o size=64m none "$T"
mounted+=("$T")
python3 - "$T" <<'PY'
import os, sys
for i in range(1000):
    d = f"{sys.argv[1]}/thermal_zone{i}"
    os.mkdir(d)
    with open(f"{d}/type", "w") as f: f.write("zone\n")
    with open(f"{d}/temp", "w") as f: f.write("50000\n")
PY
# Where the kernel puts them, as in production (a private mount namespace).
mount --bind "$T" /sys/class/thermal
mounted=(/sys/class/thermal "${mounted[@]}")
PROM=/run/sensorwatch/sensorwatch.prom
mkdir -p "${PROM%/*}"
cat >"$WORK/sensorwatch.json5" <<J
{ interval: "100ms",
  sources: [ { type: "thermal" } ],
  rules: [ { name: "hot", sensor: "thermal:*", above: 80, severity: "warning" } ],
  metrics: { textfile: "$PROM", interval: "1s" } }
J
# Every zone gets a new value each second, written in place (the daemon keeps its files
# open); zone 7 crosses 80 °C every 10 s, so alerts keep coming.
python3 - "$T" <<'PY' &
import os, sys, time
fds = [os.open(f"{sys.argv[1]}/thermal_zone{i}/temp", os.O_WRONLY) for i in range(1000)]
step = 0
while True:
    step += 1
    for k, fd in enumerate(fds):
        v = (85000 if (step // 5) % 2 else 60000) if k == 7 else 40000 + ((k + step) % 30) * 1000 + step % 7
        os.pwrite(fd, b"%d\n" % v, 0)
    time.sleep(1)
PY
helpers+=($!)

start_journald
start_daemon "$WORK/sensorwatch.json5" "$WORK/stderr"
wait_for "the metrics file" 50 test -s "$PROM"
# The soak is counted in zone 7's alerts (one firing and one resolved every 10 s), waited
# for as events; the daemon's death ends the wait at once.
alive() { kill -0 "$pid" 2>/dev/null || { wait "$pid" || true; fail "the daemon died: $(tail -n 3 "$WORK/stderr")"; }; }
alerts() { alive; [ "$(journal_messages | grep -c "^hot $1" || true)" -ge "$2" ]; }
WAIT_EVERY=0.5 wait_for "hot resolved once (about 10 s in)" 120 alerts resolved 1
rss_early=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status")
cycles=$(( (SOAK + 9) / 10 ))
WAIT_EVERY=0.5 wait_for "hot resolved $cycles times (about $SOAK s)" $(( SOAK * 6 )) alerts resolved "$cycles"
rss_late=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status")
note "alive for $cycles alert cycles (about $SOAK s); RSS $((rss_early / 1024)) MiB after the first, $((rss_late / 1024)) MiB after the last"
[ $((rss_late - rss_early)) -lt 4096 ] || fail "RSS grew by $((rss_late - rss_early)) KiB"

# Still working: the file was replaced within the last two seconds and has all zones; the
# alert fired and resolved several times.
age=$(( $(date +%s) - $(stat -c %Y "$PROM") ))
[ "$age" -le 2 ] || fail "the metrics file is $age s old"
zones=$(grep -c '^sensorwatch_temperature_celsius{' "$PROM")
[ "$zones" = 1000 ] || fail "the metrics file shows $zones zones"
fired=$(journal_messages | grep -c '^hot firing' || true)
[ "$fired" -ge 5 ] || fail "hot fired $fired times in $SOAK s, expected at least 5"
note "metrics file $age s old with 1000 zones; hot fired $fired times"

stop_within_1s "$pid" TERM
pid=
[ ! -e "$PROM" ] || fail "the metrics file outlived the stop"
note "a thousand zones for $SOAK s through a rediscovery: alive, flat, stopped cleanly"
