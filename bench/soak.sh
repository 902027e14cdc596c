#!/usr/bin/env bash
# Soak: `sensorwatch run` with one simulated source of 1000 sensors at a 10 ms step and
# interval (100 000 samples/s) for SOAK_SECONDS of real time. The scenario loops every
# 20 s (so the first minute, the warm-up, plays it three times), and its sensors cross
# thresholds all the time, so alerts of every kind fire and resolve continually: above
# (hysteresis + for), below, rise, fall, stale (dropouts).
#
# Runs in a private mount namespace with a tmpfs on /run, so no journald is reachable and
# every event goes to stderr, which is redirected to a file and counted. State is kept in
# a directory of the run (STATE_DIRECTORY), never in /var/lib.
#
# Samples VmRSS and on-CPU time (first field of /proc/PID/task/*/schedstat) every second.
# Requirement: RSS grows by at most 1 MiB after the first minute (end - value at 60 s).
# Prints the curve's start (at SOAK_BASELINE s), end, min, max, growth, slope, CPU time
# per sample and the event counts.
#
# env: SENSORWATCH (binary, default .build/release/sensorwatch), SOAK_SECONDS (600),
#      SOAK_BASELINE (60; capped at half of SOAK_SECONDS), SOAK_CSV (copy the per-second
#      curve there: t_s,rss_kib,cpu_ns,events), SOAK_STATE_DIR (STATE_DIRECTORY; default a
#      directory of the run under /tmp, on disk, so every alert change is an fsynced
#      write; "/run/..." puts it on the namespace's tmpfs), KEEP (keep the work directory).
# exit: 0 requirement met, 1 missed or the daemon died, 2 set-up problem.
set -euo pipefail
SOAK_SECONDS=${SOAK_SECONDS:-600}
SOAK_BASELINE=${SOAK_BASELINE:-60}
if ((SOAK_BASELINE * 2 > SOAK_SECONDS)); then SOAK_BASELINE=$((SOAK_SECONDS / 2)); fi
here=$(cd "$(dirname "$0")" && pwd)
SENSORWATCH=${SENSORWATCH:-$here/../.build/release/sensorwatch}
export SOAK_SECONDS SOAK_BASELINE SENSORWATCH

if [ "${1:-}" != "--inside" ]; then
    [ "$(id -u)" -eq 0 ] || { echo "soak: needs root (unshare -m, mount)" >&2; exit 2; }
    [ -x "$SENSORWATCH" ] || { echo "soak: no binary at $SENSORWATCH (make release)" >&2; exit 2; }
    exec unshare -m --propagation private -- bash "$0" --inside
fi

# ---- inside the private mount namespace: the tmpfs on /run hides journald's socket ----
mount -t tmpfs none /run
work=$(mktemp -d /tmp/sensorwatch-soak.XXXXXX)
pid=
cleanup() {
    if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
    [ -n "${KEEP:-}" ] && echo "soak: kept $work" || rm -rf "$work"
}
trap cleanup EXIT

python3 - "$work" <<'PY'
import sys
d = sys.argv[1]
sensors = []
for i in range(1000):
    lead = (i * 7) % 50 / 10     # staggers the sensors (0 to 4.9 s), so events are spread out
    if i < 700:                  # temperature: hot (above, for, hysteresis), heating (rise), stale
        segs = [f'{{ hold: "{lead}s" }}', '{ ramp: 90, over: "4s" }', '{ hold: "2s" }', '{ ramp: 50, over: "4s" }']
        if i % 4 == 0:
            segs.append('{ dropout: "2s" }')
        sensors.append(f'{{ id: "t{i:03d}", quantity: "temperature", start: 50, noise: 0.3, segments: [ {", ".join(segs)} ] }}')
    elif i < 900:                # humidity: dry (below, hysteresis)
        segs = [f'{{ hold: "{lead}s" }}', '{ ramp: 20, over: "5s" }', '{ hold: "2s" }', '{ ramp: 40, over: "5s" }']
        sensors.append(f'{{ id: "h{i:03d}", quantity: "humidity", start: 40, noise: 0.2, segments: [ {", ".join(segs)} ] }}')
    else:                        # pressure: storm (fall)
        segs = [f'{{ hold: "{lead}s" }}', '{ ramp: 1005, over: "5s" }', '{ ramp: 1013, over: "5s" }']
        sensors.append(f'{{ id: "p{i:03d}", quantity: "pressure", start: 1013, noise: 0.1, segments: [ {", ".join(segs)} ] }}')
open(f"{d}/soak.json5", "w").write(
    '{ duration: "20s", step: "10ms", seed: 11, sensors: [\n  ' + ",\n  ".join(sensors) + "\n] }\n")
open(f"{d}/sensorwatch.json5", "w").write('''{
  sources: [ { type: "simulated", scenario: "soak.json5", interval: "10ms" } ],
  rules: [
    { name: "hot", sensor: "sim:t*", above: 80, hysteresis: 5, for: "2s", severity: "warning" },
    { name: "heating", sensor: "sim:t*", rise: { by: 10, within: "5s" }, severity: "info" },
    { name: "dry", quantity: "humidity", below: 25, hysteresis: 3, severity: "notice" },
    { name: "storm", quantity: "pressure", fall: { by: 3, within: "10s" }, severity: "notice" },
    { name: "silent", sensor: "sim:*", stale: "1s", severity: "warning" },
  ],
}
''')
PY
"$SENSORWATCH" check --config "$work/sensorwatch.json5" >/dev/null

# shellcheck source=bench/lib.sh
source "$here/lib.sh"

state_dir=${SOAK_STATE_DIR:-$work/state}
mkdir -p "$state_dir"
STATE_DIRECTORY=$state_dir "$SENSORWATCH" run --config "$work/sensorwatch.json5" \
    >"$work/stdout" 2>"$work/events" &
pid=$!
curve=$work/curve.csv
echo "t_s,rss_kib,cpu_ns,events" >"$curve"
start=$EPOCHREALTIME
died=
echo "soak: pid $pid, 1000 sensors at 10 ms, ${SOAK_SECONDS} s; curve in $curve" >&2
for ((s = 1; s <= SOAK_SECONDS; s++)); do
    # Sleeps to the next whole second of the run, so the samples do not drift.
    delay=$(awk -v s="$s" -v a="$start" -v n="$EPOCHREALTIME" 'BEGIN { d = a + s - n; printf "%.3f", (d > 0 ? d : 0) }')
    sleep "$delay"
    if ! kill -0 "$pid" 2>/dev/null; then died=$s; break; fi
    ev=""
    if ((s % 10 == 0)); then ev=$(wc -l <"$work/events"); fi
    echo "$s,$(rss_kib "$pid"),$(cpu_ns "$pid"),$ev" >>"$curve"
    if ((s % 60 == 0)); then echo "soak: ${s} s, RSS $(rss_kib "$pid") KiB, $ev event lines" >&2; fi
done
end=$EPOCHREALTIME
if [ -z "$died" ]; then
    kill -TERM "$pid"
    wait "$pid" || true
fi
pid=
[ -n "${SOAK_CSV:-}" ] && cp "$curve" "$SOAK_CSV"

events=$(wc -l <"$work/events")
firing=$(grep -c '^<[0-9]>[^ ]* firing: ' "$work/events" || true)
resolved=$(grep -c '^<[0-9]>[^ ]* resolved: ' "$work/events" || true)
echo "soak: 1000 simulated sensors, step and interval 10 ms, 5 rules, $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.0f", b - a }') s"
if [ -n "$died" ]; then
    echo "soak: FAILED: sensorwatch exited after ${died} s; last stderr lines:"
    grep -v '^<[0-9]>[^ ]* \(firing\|resolved\|repeat\): ' "$work/events" | tail -n 5
    exit 1
fi
echo "events: $events lines on stderr ($firing firing, $resolved resolved, $((events - firing - resolved)) other: sensor faults, notes)"
for r in hot heating dry storm silent; do
    printf '  %-8s %6d firing %6d resolved\n' "$r" "$(grep -c "^<[0-9]>$r firing: " "$work/events" || true)" \
        "$(grep -c "^<[0-9]>$r resolved: " "$work/events" || true)"
done
awk -F, -v base="$SOAK_BASELINE" '
    NR == 1 { next }
    $1 == 1 { c1 = $3 }
    $1 >= base {
        if ($1 == base) { r0 = $2; c0 = $3; t0 = $1 }
        if (min == "" || $2 < min) { min = $2; tmin = $1 }
        if ($2 > max) { max = $2; tmax = $1 }
        n++; sx += $1; sy += $2; sxx += $1 * $1; sxy += $1 * $2
        last = $2; tl = $1; cl = $3
    }
    END {
        slope = n > 1 ? (n * sxy - sx * sy) / (n * sxx - sx * sx) : 0
        growth = last - r0
        printf "RSS (VmRSS):  at %d s %d KiB, end (%d s) %d KiB, min %d KiB (%d s), max %d KiB (%d s)\n", t0, r0, tl, last, min, tmin, max, tmax
        printf "RSS growth after %d s: %+d KiB (max - start %+d KiB; fitted slope %+.1f KiB/min)\n", t0, growth, max - r0, slope * 60
        samples = 1000 * (tl - t0) / 0.01
        printf "CPU: %.3f µs per sample (%d s to %d s: %.2f s on CPU for %.0f samples, %.1f%% of one core)\n",
            (cl - c0) / 1000 / samples, t0, tl, (cl - c0) / 1e9, samples, (cl - c0) / 1e9 / (tl - t0) * 100
        printf "CPU over the whole run: %.3f µs per sample\n", cl / 1000 / (1000 * tl / 0.01)
        ok = growth <= 1024
        printf "requirement: RSS growth <= 1024 KiB after %d s: %s\n", t0, ok ? "met" : "MISSED"
        exit ok ? 0 : 1
    }' "$curve"
