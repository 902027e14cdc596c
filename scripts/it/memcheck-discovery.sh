#!/usr/bin/env bash
# Discovery and reading under valgrind's memcheck: `sensorwatch sensors` on a thermal class
# of a thousand zones (with five hundred more entries of every name length beside them),
# on the shared real fixture trees (thermal, hwmon) and on an IIO tree, must make no
# invalid read or write; then `run` on the same for a few seconds, with a thousand alerts
# firing, a predict rule and the metrics file (the batched pread, the renderer's buffers,
# the exchange of files), stopped by SIGTERM. Listing a large directory once read past the short entries that
# readdir returns (a copy of the whole 256-byte d_name): harmless until an entry ended at an
# unmapped page, when `run` crashed at its first rediscovery; memcheck sees every such read.
set -euo pipefail
: "${SENSORWATCH:?path of the release binary}"
: "${SHARED:?path of the shared directory}"
source "$(dirname "$0")/lib/common.sh"
require_namespaces
require_binary
need python3 python3
need valgrind valgrind
# A private /run: the thousand alerts go to stderr, never to a journald of the machine's.
enter_namespace

work=$(mktemp -d /tmp/sensorwatch-it-memcheck.XXXXXX)
trap 'rm -rf "$work"' EXIT

python3 - "$work/t" <<'PY'
import os, sys
root = sys.argv[1]
for i in range(1000):
    d = f"{root}/thermal_zone{i}"
    os.makedirs(d)
    with open(f"{d}/type", "w") as f: f.write("zone\n")
    with open(f"{d}/temp", "w") as f: f.write(f"{40000 + i}\n")
for i in range(500):
    open(f"{root}/x{i}" + "y" * (i % 240), "w").close()
PY
# Fails with memcheck's first errors when a run under it (exit status $2, log $1) had any.
memcheck_verdict() { # LOG STATUS WHAT
    [ "$2" = 99 ] || return 0
    grep -E '==[0-9]+== (Invalid|Conditional|Use of|   (at|by) )' "$1" >"$work/errors" || true
    head -n 20 "$work/errors" >&2
    fail "memcheck found $(grep -c '== Invalid' "$1") invalid accesses in $3"
}

mkdir -p "$work/i/iio:device0"
printf '2438\n' >"$work/i/iio:device0/in_temp_raw"
printf '10\n' >"$work/i/iio:device0/in_temp_scale"
printf '26145062\n' >"$work/i/iio:device0/in_pressure_raw"
printf '0.000003906\n' >"$work/i/iio:device0/in_pressure_scale"
. "$(dirname "$0")/lib/fixtures.sh"
fixture=$(node_exporter_fixture "$work/fx")

cat >"$work/sensorwatch.json5" <<CONF
{
  sources: [
    { type: "thermal", root: "$work/t" },
    { type: "thermal", root: "$fixture/sys/class/thermal" },
    { type: "hwmon", root: "$fixture/sys/class/hwmon" },
    { type: "iio", root: "$work/i" },
  ],
  rules: [],
}
CONF

set +e
valgrind -q --leak-check=no --error-exitcode=99 --log-file="$work/valgrind.log" \
    "$BIN" sensors --config "$work/sensorwatch.json5" >"$work/out" 2>"$work/err"
rc=$?
set -e
memcheck_verdict "$work/valgrind.log" "$rc" sensors
[ "$rc" = 0 ] || fail "sensors exited $rc: $(head -n 3 "$work/err")"
zones=$(grep -c '^thermal:zone\(\.[0-9]*\)\? ' "$work/out" || true)
[ "$zones" -ge 1000 ] || fail "sensors listed $zones thermal zones, expected 1000 and the fixture's"
note "memcheck: no invalid access in discovering and reading $(grep -c . "$work/out") sensors"

mkdir -p "$work/metrics" "$work/state"
cat >"$work/run.json5" <<CONF
{
  interval: "200ms",
  sources: [ { type: "thermal", root: "$work/t" }, { type: "hwmon", root: "$fixture/sys/class/hwmon" } ],
  rules: [
    { name: "warm", sensor: "thermal:*", above: 40.5 },
    { name: "trend", sensor: "thermal:zone.1", predict: { above: 90, within: "1m", over: "30s" } },
  ],
  metrics: { textfile: "$work/metrics/sensorwatch.prom", interval: "1s" },
}
CONF
STATE_DIRECTORY=$work/state valgrind -q --leak-check=no --error-exitcode=99 --log-file="$work/run.log" \
    "$BIN" run --config "$work/run.json5" >"$work/run.out" 2>&1 &
vg=$!
# Under valgrind everything is some twenty times slower: wait for the second file.
wait_for "the metrics file under valgrind" 300 test -e "$work/metrics/.sensorwatch.prom.tmp"
# One more write: a further second of alerts, predict and metrics under valgrind.
wait_for_rewrite "$work/metrics/sensorwatch.prom"
kill -TERM "$vg"
set +e
wait "$vg"
rc=$?
set -e
memcheck_verdict "$work/run.log" "$rc" run
[ "$rc" = 0 ] || fail "run under valgrind exited $rc: $(tail -n 3 "$work/run.out")"
[ ! -e "$work/metrics/sensorwatch.prom" ] || fail "the metrics file outlived the stop"
note "memcheck: no invalid access in run (1000 alerts, predict, metrics file), exit 0 at SIGTERM"
