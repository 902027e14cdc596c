#!/usr/bin/env bash
# Benchmark: `sensorwatch simulate` end to end on 100 generated sensors x 1 hour at a
# 100 ms step (3.6 M samples), once against 3 rules (above, rise, stale) and once against
# 3 predict rules (SPEC §10); then the same 3.6 M samples and 3 rules as 4 sensors x 25 h
# (a poll's own cost weighs on few sensors a step: the demo scenario has 4) and as
# 1000 sensors x 6 min (the engine's state no longer in the nearest caches). Prints
# samples/s, sample-evaluations/s (samples x rules that select them) and peak RSS for each.
# SHAPES="SENSORS:DURATION ..." measures other shapes of the same scenario and rules instead
# of the last two (default "4:25h 1000:6m"; e.g. "1:20h 10:2h"). Run by `make bench`.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${SENSORWATCH:-$PWD/.build/release/sensorwatch}"
dir=$(mktemp -d /tmp/sw-bench-sim.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$dir"' EXIT
SHAPES="${SHAPES:-4:25h 1000:6m}"
python3 - "$dir" "$SHAPES" <<'PY'
import sys
d = sys.argv[1]
def scenario(name, count, duration):
  sensors = []
  for i in range(count):
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
  open(f"{d}/{name}.json5", "w").write(
    '{ duration: "' + duration + '", step: "100ms", seed: 7, sensors: [\n  ' + ",\n  ".join(sensors) + "\n] }\n")
scenario("bench", 100, "1h")
shapes = [shape.split(":") for shape in sys.argv[2].split()]
for count, duration in shapes:
  scenario(f"shape-{count}-{duration}", int(count), duration)
three = '''{
  sources: [ { type: "simulated", scenario: "SCENARIO.json5" } ],
  rules: [
    { name: "hot", sensor: "sim:*", above: 80, hysteresis: 5, for: "10s" },
    { name: "heating", sensor: "sim:*", rise: { by: 10, within: "1m" } },
    { name: "silent", sensor: "sim:*", stale: "3s" },
  ],
}
'''
for name in ["bench"] + [f"shape-{count}-{duration}" for count, duration in shapes]:
  open(f"{d}/{name}-config.json5", "w").write(three.replace("SCENARIO", name))
# Predictive rules only (SPEC §10): windows of 300, 3000 and 6000 samples per sensor.
open(f"{d}/predict.json5", "w").write('''{
  sources: [ { type: "simulated", scenario: "bench.json5" } ],
  rules: [
    { name: "trend-hot", sensor: "sim:*", predict: { above: 90, within: "10m", over: "5m" }, hysteresis: 2, for: "10s" },
    { name: "trend-cold", sensor: "sim:*", predict: { below: 42, within: "5m", over: "10m" } },
    { name: "trend-jump", sensor: "sim:*", predict: { above: 95, within: "1m", over: "30s" }, clearFor: "30s" },
  ],
}
''')
PY
# measure NAME CONFIG RULES TARGET SAMPLES: best of 3 runs of `simulate --json` on CONFIG.
measure() {
    local name=$1 config=$2 rules=$3 target=$4 samples=$5 best="" best_rss=0 best_cpu="" run out secs rss events cpu
    "$BIN" check --config "$config" >/dev/null
    for run in 1 2 3; do
        out=$(python3 - "$BIN" "$config" <<'PY'
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
        echo "$name run $run: ${secs}s wall, ${cpu}s cpu, $events events, peak RSS $((rss / 1024)) MiB"
        if [ -z "$best" ] || awk "BEGIN{exit !($secs < $best)}"; then best=$secs; best_rss=$rss; fi
        if [ -z "$best_cpu" ] || awk "BEGIN{exit !($cpu < $best_cpu)}"; then best_cpu=$cpu; fi
    done
    # Wall time is the figure; CPU time says what it would be on an idle core (other work
    # on a shared machine stretches wall time, not CPU time).
    awk -v n="$name" -v s="$samples" -v r="$rules" -v t="$best" -v c="$best_cpu" -v m="$best_rss" -v g="$target" 'BEGIN {
        printf "simulate (%s): %d samples x %d rules in %.3f s wall, %.3f s CPU (best of 3)\n", n, s, r, t, c
        printf "  samples/s:             %.2f M   (per CPU-second: %.2f M)\n", s / t / 1e6, s / c / 1e6
        printf "  sample-evaluations/s:  %.2f M   (per CPU-second: %.2f M; target >= %s M)\n", s * r / t / 1e6, s * r / c / 1e6, g
        printf "  peak RSS:              %.1f MiB\n", m / 1024
    }'
}

measure "above, rise, stale" "$dir/bench-config.json5" 3 20 $((100 * 36001))
measure "predict" "$dir/predict.json5" 3 20 $((100 * 36001))
# A shape's samples: every 100 ms step from 0 to the duration, both included.
for shape in $SHAPES; do
    count=${shape%%:*}
    duration=${shape#*:}
    seconds=$(python3 -c "import re,sys; print(sum(int(n) * {'h': 3600, 'm': 60, 's': 1}[u] for n, u in re.findall(r'(\d+)([hms])', sys.argv[1])))" "$duration")
    measure "$count sensors x $duration" "$dir/shape-$count-$duration-config.json5" 3 20 $((count * (seconds * 10 + 1)))
done
