#!/usr/bin/env bash
# Benchmark: `sensorwatch simulate` end to end on 100 generated sensors x 1 hour at a
# 100 ms step (3.6 M samples) against 3 rules. Prints samples/s, sample-evaluations/s
# (samples x rules that select them) and peak RSS. Run by `make bench`.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${SENSORWATCH:-$PWD/.build/release/sensorwatch}"
dir=$(mktemp -d /tmp/sw-bench-sim.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$dir"' EXIT
python3 - "$dir" <<'PY'
import sys
d = sys.argv[1]
sensors = []
for i in range(100):
    segs = [
        f'{{ ramp: {85 + i % 10}, over: "{5 + i % 7}m" }}',
        f'{{ sine: 8, period: "{60 + i}s", over: "10m" }}',
        f'{{ ramp: 40, over: "5m" }}',
        f'{{ dropout: "{5 + i % 4}s" }}',
        f'{{ hold: "5m" }}',
        f'{{ step: 90 }}',
        f'{{ ramp: 50, over: "20m" }}',
    ]
    sensors.append(f'{{ id: "s{i:03d}", quantity: "temperature", start: 45, noise: 0.5, segments: [ {", ".join(segs)} ] }}')
open(f"{d}/bench.json5", "w").write(
    '{ duration: "1h", step: "100ms", seed: 7, sensors: [\n  ' + ",\n  ".join(sensors) + "\n] }\n")
open(f"{d}/config.json5", "w").write('''{
  sources: [ { type: "simulated", scenario: "bench.json5" } ],
  rules: [
    { name: "hot", sensor: "sim:*", above: 80, hysteresis: 5, for: "10s" },
    { name: "heating", sensor: "sim:*", rise: { by: 10, within: "1m" } },
    { name: "silent", sensor: "sim:*", stale: "3s" },
  ],
}
''')
PY
samples=$((100 * 36001))
rules=3
"$BIN" check --config "$dir/config.json5" >/dev/null
best=""
for run in 1 2 3; do
    out=$(python3 - "$BIN" "$dir/config.json5" <<'PY'
import resource, subprocess, sys, time
t = time.perf_counter()
p = subprocess.run([sys.argv[1], "simulate", "--config", sys.argv[2], "--json"], stdout=subprocess.PIPE, check=True)
e = time.perf_counter() - t
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
n = p.stdout.count(b"\n")
print(f"{e:.3f} {ru.ru_maxrss} {n} {ru.ru_utime + ru.ru_stime:.3f}")
PY
)
    read -r secs rss events cpu <<<"$out"
    echo "run $run: ${secs}s wall, ${cpu}s cpu, $events events, peak RSS $((rss / 1024)) MiB"
    if [ -z "$best" ] || awk "BEGIN{exit !($secs < $best)}"; then best=$secs; best_rss=$rss; fi
done
awk -v s="$samples" -v r="$rules" -v t="$best" -v m="$best_rss" 'BEGIN {
    printf "simulate: %d samples x %d rules in %.3f s (best of 3)\n", s, r, t
    printf "  samples/s:             %.2f M\n", s / t / 1e6
    printf "  sample-evaluations/s:  %.2f M   (target >= 3 M)\n", s * r / t / 1e6
    printf "  peak RSS:              %.1f MiB\n", m / 1024
}'
