#!/usr/bin/env bash
# `sensorwatch record` (SPEC §15) on a sysfs tree whose values change while it records,
# then the recording replayed: `simulate --scenario` against a config's rules (events
# checked against the recorded samples), `check` and `run` with it as a simulated source.
# Also the open-ended recordings ended by SIGINT and by SIGTERM, a recording of the real
# fixture tree, and the usage errors.
set -u
. "$(dirname "$0")/lib/common.sh"
require_binary
need python3 python3

work=$(mktemp -d /tmp/sensorwatch-it-record.XXXXXX)
# The daemon keeps its state here, not in the host's /var/lib/sensorwatch (where a later run
# would find this run's alerts firing and log no firing).
export STATE_DIRECTORY="$work/state"
trap 'rm -rf "$work"' EXIT
# In place, as sysfs changes: the readers keep each file open and re-read it.
w() { tree_file "$work/$1" "$2"; }

w t/thermal_zone0/type x86_pkg_temp; w t/thermal_zone0/temp 45000
w t/thermal_zone1/type acpitz;       w t/thermal_zone1/temp garbage
w h/hwmon0/name sht3x; w h/hwmon0/temp1_input 23450; w h/hwmon0/humidity1_input 45120; w h/hwmon0/temp1_label ambient
w i/iio:device0/name bme280; w i/iio:device0/in_pressure_input 101.3
w s.json5 '{ sensors: [{ id: "cpu", quantity: "temperature", samples: [[0, 50]] }] }'
cat >"$work/c.json5" <<JSON
{
  interval: "1s",
  sources: [
    { type: "thermal", root: "t", interval: "100ms" },
    { type: "hwmon", root: "h", interval: "200ms" },
    { type: "iio", root: "i", interval: "500ms" },
    { type: "simulated", scenario: "s.json5" },
  ],
  // Derived sensors are not recorded (a replay derives them again from the recorded inputs).
  derived: [ { id: "dew", dewpoint: { temperature: "hwmon:sht3x-virtual-0/temp1", humidity: "hwmon:sht3x-virtual-0/humidity1" } } ],
  rules: [
    { name: "cpu-hot", sensor: "thermal:*", above: 80, hysteresis: 5, severity: "warning" },
    { name: "silent", sensor: "*", stale: "150ms" },
  ],
}
JSON
# The replay's rules: those of the config, without its sources.
cat >"$work/rules.json5" <<JSON
{ sources: [], rules: [ { name: "cpu-hot", sensor: "thermal:*", above: 80, hysteresis: 5, severity: "warning" } ] }
JSON

# A recording of 2.5 s while thermal_zone0 heats up and cools down again.
rec=$work/out/rec.json
mkdir -p "$work/out"
echo "not JSON: an older file the recording replaces" >"$rec"
put "$work/t/thermal_zone0/temp" 45000   # written again: no read since, until the recorder's
"$SENSORWATCH" record --config "$work/c.json5" --duration 2500ms --output "$rec" 2>"$work/err" &
pid=$!
# Each value once the recorder has read the one before (the file's atime moved past its mtime).
wait_for "record's first read" 100 read_since_written "$work/t/thermal_zone0/temp"
put_and_wait_read "$work/t/thermal_zone0/temp" 85000
put_and_wait_read "$work/t/thermal_zone0/temp" 40000
wait $pid; rc=$?
[ $rc -eq 0 ] || fail "record --duration exited $rc: $(cat "$work/err")"
[ -s "$work/err" ] && fail "record wrote to stderr that is not a terminal: $(cat "$work/err")"
[ "$(ls -A "$work/out")" = rec.json ] || fail "temporary files left next to the recording: $(ls -A "$work/out")"

# The file: plain JSON, the §15 shape, every sample of every real sensor on its grid.
python3 - "$rec" <<'PY' || fail "the recording is not what SPEC §15 says"
import json, sys
s = json.load(open(sys.argv[1]))
def check(c, what):
    if not c: print("recording:", what); sys.exit(1)
check(set(s) == {"duration", "step", "loop", "sensors"}, f"keys {sorted(s)}")
check(s["loop"] is False and s["step"] == "100ms", f"loop {s['loop']}, step {s['step']}")
by = {x["id"]: x for x in s["sensors"]}
check(sorted(by) == ["hwmon:sht3x-virtual-0/humidity1", "hwmon:sht3x-virtual-0/temp1", "iio:bme280/pressure",
                     "thermal:acpitz", "thermal:x86_pkg_temp"], f"ids {sorted(by)}")
check(by["thermal:x86_pkg_temp"]["label"] == "x86_pkg_temp" and by["hwmon:sht3x-virtual-0/temp1"]["label"] == "ambient"
      and "label" not in by["hwmon:sht3x-virtual-0/humidity1"], "labels")
check([by[i]["quantity"] for i in sorted(by)] == ["humidity", "temperature", "pressure", "temperature", "temperature"], "quantities")
last = 0
for i, x in by.items():
    times = [t for t, _ in x["samples"]]
    check(times[0] == 0 and all(a < b for a, b in zip(times, times[1:])), f"{i}: times {times}")
    grid = {"thermal": 0.1, "hwmon": 0.2, "iio": 0.5}[i.split(":")[0]]
    check(all(abs(t / grid - round(t / grid)) < 1e-6 for t in times), f"{i}: off its {grid}s grid: {times}")
    last = max(last, times[-1])
check(s["duration"] == (f"{last:g}s" if last >= 1 else f"{round(last * 1000)}ms"), f"duration {s['duration']} vs last sample {last}")
check(2.3 <= last <= 2.5, f"last sample at {last}, recording was 2.5 s")
check(all(v is None for _, v in by["thermal:acpitz"]["samples"]), "failed reads are not null")
zone0 = [v for _, v in by["thermal:x86_pkg_temp"]["samples"]]
check(zone0[0] == 45 and 85 in zone0 and zone0[-1] == 40, f"thermal_zone0 values {zone0}")
check(len(by["iio:bme280/pressure"]["samples"]) == 6 and by["iio:bme280/pressure"]["samples"][0][1] == 1013, "iio samples")
PY

# Replay against the config's rules: cpu-hot fires at the first sample above 80 and resolves
# at the first one at or below 75, on the recorded sensor's own id.
"$SENSORWATCH" simulate --config "$work/rules.json5" --scenario "$rec" --json >"$work/events" 2>&1 \
    || fail "simulate --scenario of the recording failed: $(cat "$work/events")"
python3 - "$rec" "$work/events" <<'PY' || fail "replayed events do not match the recorded samples: $(cat "$work/events")"
import json, sys
s = json.load(open(sys.argv[1]))
samples = next(x["samples"] for x in s["sensors"] if x["id"] == "thermal:x86_pkg_temp")
hot = next(t for t, v in samples if v is not None and v > 80)
cool = next(t for t, v in samples if t > hot and v is not None and v <= 75)
events = [json.loads(l) for l in open(sys.argv[2])]
want = [
    {"time": float(hot), "event": "firing", "rule": "cpu-hot", "sensor": "thermal:x86_pkg_temp", "severity": "warning", "value": 85, "threshold": 80},
    {"time": float(cool), "event": "resolved", "rule": "cpu-hot", "sensor": "thermal:x86_pkg_temp", "severity": "warning", "value": 40, "threshold": 80},
]
if events != want:
    print("got ", events); print("want", want); sys.exit(1)
PY

# `check` takes the recording as a config's scenario; `run` plays it (in real time).
cat >"$work/replay.json5" <<JSON
{ sources: [{ type: "simulated", scenario: "out/rec.json", interval: "100ms" }],
  rules: [ { name: "cpu-hot", sensor: "thermal:*", above: 80, hysteresis: 5, severity: "warning" } ] }
JSON
expect_out_contains OK "$SENSORWATCH" check --config "$work/replay.json5"
"$SENSORWATCH" run --config "$work/replay.json5" >"$work/run.out" 2>&1 &
pid=$!
# Its firing: on stderr without a journal socket, else in the journal.
fired() {
    grep -q "cpu-hot firing: thermal:x86_pkg_temp" "$work/run.out" \
        || { journalctl --sync 2>/dev/null; journalctl -q --no-pager -o cat _PID="$pid" 2>/dev/null | grep -q "cpu-hot firing"; }
}
wait_for "the replay's cpu-hot firing" 100 fired
kill -TERM $pid; wait $pid; rc=$?
[ $rc -eq 0 ] || fail "run with the recording exited $rc: $(cat "$work/run.out")"
if grep -q "no journal socket" "$work/run.out"; then
    grep -q "cpu-hot firing: thermal:x86_pkg_temp (x86_pkg_temp) 85 °C above 80 °C" "$work/run.out" \
        || fail "run with the recording logged no cpu-hot firing: $(cat "$work/run.out")"
fi

# Open-ended recordings end with a complete file on SIGINT and on SIGTERM.
for sig in INT TERM; do
    out=$work/out/open-$sig.json
    "$SENSORWATCH" record --config "$work/c.json5" --interval 50ms --output "$out" 2>"$work/err" &
    pid=$!
    # Five reads of the slowest source's file at the least, each after a write.
    for _ in 1 2 3 4 5 6; do put_and_wait_read "$work/i/iio:device0/in_pressure_input" 101.3; done
    kill -$sig $pid; wait $pid; rc=$?
    [ $rc -eq 0 ] || fail "record ended by SIG$sig exited $rc: $(cat "$work/err")"
    python3 - "$out" <<'PY' || fail "record ended by SIG$sig left no complete recording"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["step"] == "50ms" and s["loop"] is False and len(s["sensors"]) == 5, s
assert all(len(x["samples"]) >= 5 for x in s["sensors"]), [len(x["samples"]) for x in s["sensors"]]
PY
    expect_exit 0 "$SENSORWATCH" simulate --config "$work/rules.json5" --scenario "$out"
done
[ "$(ls -A "$work/out" | sort | tr '\n' ' ')" = "open-INT.json open-TERM.json rec.json " ] \
    || fail "temporary files left behind: $(ls -A "$work/out")"

# The real fixture tree: the recording holds exactly the sensors `sensors --json` lists,
# with the same labels, quantities and values (null where the read fails).
. "$(dirname "$0")/lib/fixtures.sh"
fixture=$(node_exporter_fixture "$work/fx")
cat >"$work/fx.json5" <<JSON
{ sources: [ { type: "thermal", root: "$fixture/sys/class/thermal" }, { type: "hwmon", root: "$fixture/sys/class/hwmon" } ],
  rules: [] }
JSON
"$SENSORWATCH" sensors --json --config "$work/fx.json5" >"$work/fx-sensors.json" 2>&1 || fail "sensors on the fixture failed"
"$SENSORWATCH" record --config "$work/fx.json5" --duration 300ms --interval 100ms --output "$work/fx-rec.json" 2>&1 \
    || fail "record on the fixture failed"
python3 - "$work/fx-sensors.json" "$work/fx-rec.json" <<'PY' || fail "the fixture's recording differs from what sensors reads"
import json, sys
listed = json.load(open(sys.argv[1]))
rec = json.load(open(sys.argv[2]))
got = [(x["id"], x.get("label", ""), x["quantity"], x["samples"][0][1], len(x["samples"])) for x in rec["sensors"]]
want = sorted((x["id"], x["label"], x["quantity"], x["value"], 4) for x in listed)
if got != want or len(got) < 10 or rec["duration"] != "300ms":
    print("got ", got); print("want", want); sys.exit(1)
PY

# The command line.
expect_exit 0 "$SENSORWATCH" record --help
expect_out_contains "usage: sensorwatch record" "$SENSORWATCH" record --help
expect_out_contains "record" "$SENSORWATCH" --help
expect_exit 64 "$SENSORWATCH" record --config "$work/c.json5"
expect_err_contains "--output FILE is required" "$SENSORWATCH" record --config "$work/c.json5"
expect_exit 64 "$SENSORWATCH" record --config "$work/c.json5" --output "$work/x.json" --duration soon
expect_exit 64 "$SENSORWATCH" record --config "$work/c.json5" --output "$work/x.json" --interval 0s
expect_exit 64 "$SENSORWATCH" record --config "$work/c.json5" --output "$work/x.json" --interval 1ms
expect_err_contains "--interval: must be at least 10ms" "$SENSORWATCH" record --config "$work/c.json5" --output "$work/x.json" --interval 9ms
expect_exit 64 "$SENSORWATCH" record --no-such-option
expect_exit 78 "$SENSORWATCH" record --config /nonexistent/sensorwatch.json5 --output "$work/x.json"
expect_exit 1 "$SENSORWATCH" record --config "$work/replay.json5" --output "$work/x.json" --duration 1s
expect_err_contains "no thermal, hwmon or iio source to record" "$SENSORWATCH" record --config "$work/replay.json5" --output "$work/x.json"
expect_exit 1 "$SENSORWATCH" record --config "$work/c.json5" --output /nonexistent/dir/x.json --duration 1s
[ -e "$work/x.json" ] && fail "a failed record wrote $work/x.json"
echo "ok: record writes what SPEC §15 says, and its recording replays"
