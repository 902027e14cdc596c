#!/usr/bin/env bash
# `sensorwatch top`'s figures (issue 36), one run: `run` on 1000 fake thermal zones
# (bind-mounted over /sys/class/thermal in a private mount namespace) polled every second,
# 10 of them changing each second, and `top` attached at 80×24 in tmux, whose output tmux
# copies to a file (pipe-pane), so every byte top writes to its terminal is counted.
# Prints: top's CPU (ms a second) with 10 changes a second; bytes a second with no change
# at all and with one visible value changing once a second (the difference is what the
# change costs); full repaints (ESC[2J) seen in the whole run; the time from a write to
# temp to the value on screen (p50, p95 of SAMPLES); top's VmRSS.
#
# env: SENSORWATCH (default .build/release/sensorwatch), SECONDS_CPU (20), SAMPLES (20).
# Needs root, tmux, python3.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SENSORWATCH=${SENSORWATCH:-$here/../.build/release/sensorwatch}
SECONDS_CPU=${SECONDS_CPU:-20}
SAMPLES=${SAMPLES:-20}
export SENSORWATCH SECONDS_CPU SAMPLES
if [ "${1:-}" != "--inside" ]; then
    [ "$(id -u)" -eq 0 ] || { echo "bench: needs root (unshare -m, mount)" >&2; exit 1; }
    for tool in tmux python3 cc; do command -v "$tool" >/dev/null || { echo "bench: needs $tool" >&2; exit 1; }; done
    exec unshare -m --propagation private -- bash "$0" --inside
fi

work=$(mktemp -d /tmp/sensorwatch-bench.XXXXXX)
pids=()
source "$here/lib.sh"
tmuxname=sw-bench-$$
cleanup() { tmux -L "$tmuxname" kill-server 2>/dev/null || true; cleanup_bench; }
trap cleanup EXIT
mount_thermal_zones 1000
cat >"$work/sensorwatch.json5" <<CONF
{
  interval: "1s",
  liveSocket: "$work/live.sock",
  statusFile: "$work/status.json",
  sources: [ { type: "thermal" } ],
  rules: [ { name: "bench-hot", sensor: "thermal:*", above: 80, severity: "warning" } ],
}
CONF
STATE_DIRECTORY=$work/state "$SENSORWATCH" run --config "$work/sensorwatch.json5" >"$work/run.log" 2>&1 &
pids+=("$!")
for _ in $(seq 100); do [ -S "$work/live.sock" ] && break; sleep 0.1; done

tmux -L "$tmuxname" new-session -d -s main -x 80 -y 24 \
    "while [ ! -e $work/go ]; do sleep 0.05; done; echo \$\$ >$work/top.pid; LANG=C.UTF-8 exec $SENSORWATCH top --config $work/sensorwatch.json5"
# Every byte from the first frame on: the copy starts before top does.
tmux -L "$tmuxname" pipe-pane -t main -o "cat >$work/bytes"
touch "$work/go"
for _ in $(seq 100); do tmux -L "$tmuxname" capture-pane -t main -p | grep -q "bench_zone" && break; sleep 0.1; done
top=$(cat "$work/top.pid")
sleep 2
size() { stat -c %s "$work/bytes"; }

# Bytes a second: no change at all for 10 s (the clock, a sparkline step at most).
b0=$(size); sleep 10; b1=$(size)
quiet=$(( (b1 - b0) / 10 ))
# One visible value (the second row, thermal_zone1) changing once a second for 10 s.
python3 - "/sys/class/thermal/thermal_zone1/temp" <<'PY' &
import sys, time
for i in range(11):
    open(sys.argv[1], "w").write(f"{50000 + (i % 2) * 1000 + i * 100}\n")
    time.sleep(1)
PY
changer=$!
b0=$(size); sleep 10; b1=$(size)
wait "$changer"
one=$(( (b1 - b0) / 10 ))

# CPU with 10 zones (not all on screen) changing each second.
python3 - "$SECONDS_CPU" <<'PY' &
import sys, time
end = time.time() + float(sys.argv[1]) + 2
i = 0
while time.time() < end:
    for z in range(500, 510):
        open(f"/sys/class/thermal/thermal_zone{z}/temp", "w").write(f"{45000 + (i % 7) * 1000 + z}\n")
    i += 1
    time.sleep(1)
PY
changer=$!
sleep 1
c0=$(cpu_ns "$top"); sleep "$SECONDS_CPU"; c1=$(cpu_ns "$top")
wait "$changer"
cpu=$(awk -v a="$c0" -v b="$c1" -v s="$SECONDS_CPU" 'BEGIN { printf "%.2f", (b - a) / 1e6 / s }')

# Latency: a new value written to thermal_zone1's temp, until tmux's screen shows it.
lat=$(python3 - "$tmuxname" "$SAMPLES" <<'PY'
import subprocess, sys, time, random
name, n = sys.argv[1], int(sys.argv[2])
out = []
for i in range(n):
    time.sleep(random.uniform(0.3, 1.3))
    v = 60 + i % 30 + 0.5
    open("/sys/class/thermal/thermal_zone1/temp", "w").write(f"{int(v * 1000)}\n")
    t0 = time.monotonic()
    want = f"{v:g} °C"
    while time.monotonic() - t0 < 5:
        screen = subprocess.run(["tmux", "-L", name, "capture-pane", "-t", "main", "-p"], capture_output=True, text=True).stdout
        if want in screen: break
        time.sleep(0.005)
    out.append(time.monotonic() - t0)
out.sort()
print(f"{out[len(out) // 2] * 1000:.0f} {out[min(len(out) - 1, int(len(out) * 0.95))] * 1000:.0f}")
PY
)
repaints=$(grep -c $'\e\\[2J' "$work/bytes" || true)
rss=$(rss_kib "$top")
# The daemon runs the same binary: text pages both use count in both RSS; Pss shares them out.
pss=$(awk '/^Pss:/ { print $2 }' /proc/"$top"/smaps_rollup)
anon=$(awk '/^Anonymous:/ { print $2 }' /proc/"$top"/smaps_rollup)

# For scale, when installed: `watch -n1 sensors` (its children's CPU counted) and glances at
# a 1 s refresh, each at 80×24 in tmux over the same SECONDS_CPU.
# CPU ms of process $1 and its waited-for children (utime+stime+cutime+cstime).
cpu_ms_children() { awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15 + $16 + $17) * 1000 / hz }' /proc/"$1"/stat; }
beside() { # NAME COMMAND
    tmux -L "$tmuxname" new-window -d -n "$1" "echo \$\$ >$work/$1.pid; exec $2"
    for _ in $(seq 50); do [ -s "$work/$1.pid" ] && break; sleep 0.1; done
    local pid a b
    pid=$(cat "$work/$1.pid")
    sleep 3
    a=$(cpu_ms_children "$pid"); local n0; n0=$(cpu_ns "$pid")
    sleep "$SECONDS_CPU"
    b=$(cpu_ms_children "$pid"); local n1; n1=$(cpu_ns "$pid")
    # Threads' schedstat for the process itself (finer), the children's ticks beside it.
    awk -v a="$a" -v b="$b" -v n0="$n0" -v n1="$n1" -v s="$SECONDS_CPU" 'BEGIN {
        own = (n1 - n0) / 1e6; all = b - a; if (all < own) all = own; printf "%.1f", all / s }'
    kill "$pid" 2>/dev/null || true
}
others=""
if command -v watch >/dev/null && command -v sensors >/dev/null; then
    others+="  watch -n1 sensors: $(beside watchsensors "watch -n1 sensors") ms/s"$'\n'
fi
if command -v glances >/dev/null; then
    others+="  glances -t 1: $(beside glances "glances -t 1") ms/s"$'\n'
fi
echo "top, 1000 zones at 1 s, 80×24:"
echo "  CPU with 10 zones changing a second: $cpu ms/s"
echo "  bytes to the terminal: $quiet B/s with no change; $one B/s with one visible value changing a second"
echo "  full repaints in the whole run: $repaints (the start's)"
echo "  sysfs write → on screen: p50 ${lat% *} ms, p95 ${lat#* } ms"
echo "  VmRSS: $((rss / 1024)) MiB ($rss KiB); Pss $pss KiB, anonymous $anon KiB"
[ -z "$others" ] || printf 'beside it, CPU over the same %s s:\n%s' "$SECONDS_CPU" "$others"
