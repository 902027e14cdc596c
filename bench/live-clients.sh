#!/usr/bin/env bash
# The live stream's cost (SPEC §22): `run` at 1000 fake thermal zones (bind-mounted over
# /sys/class/thermal in a private mount namespace) polled every 100 ms, ten of them changing
# every 100 ms; CPU a sample in the steady state (wait4's user+system of a SHORT and a LONG
# run differenced, so start-up and the clients' snapshots fall out) with 8 clients attached
# and reading, against none, in ROUNDS interleaved rounds; then a client that never
# reads (a 4 KiB receive buffer) for HOLD seconds: the daemon's VmRSS after WARM seconds and
# at the end (SPEC: a slow client costs the daemon nothing it needs, its memory is bounded),
# and the samples' pace beside it at both times (PACE seconds of a client that subscribes to
# the first changing zone and times the `time` of its changes: their mean and largest gap);
# beside it a second daemon on the same tree with no such client, measured at the same
# times, so what the history rings take as they fill (10 minutes) is told from the client's.
#
# env: SENSORWATCH (default .build/release/sensorwatch), ZONES (1000), SHORT (5 s), LONG (20 s),
#      ROUNDS (3; 0 skips the CPU rounds), CLIENTS (8), HOLD (120 s; the issue's figure is
#      HOLD=600), WARM (20 s), PACE (10 s).
#      Needs root, cc, python3.
set -euo pipefail
ZONES=${ZONES:-1000}
SHORT=${SHORT:-5}
LONG=${LONG:-20}
ROUNDS=${ROUNDS:-3}
CLIENTS=${CLIENTS:-8}
HOLD=${HOLD:-120}
WARM=${WARM:-20}
PACE=${PACE:-10}
here=$(cd "$(dirname "$0")" && pwd)
SENSORWATCH=${SENSORWATCH:-$here/../.build/release/sensorwatch}
export ZONES SHORT LONG ROUNDS CLIENTS HOLD WARM PACE SENSORWATCH

if [ "${1:-}" != "--inside" ]; then
    [ "$(id -u)" -eq 0 ] || { echo "bench: needs root (unshare -m, mount)" >&2; exit 1; }
    for tool in cc python3; do
        command -v "$tool" >/dev/null || { echo "bench: needs $tool" >&2; exit 1; }
    done
    exec unshare -m --propagation private -- bash "$0" --inside
fi

work=$(mktemp -d /tmp/sensorwatch-bench.XXXXXX)
pids=()
# shellcheck source=bench/lib.sh
source "$here/lib.sh"
trap cleanup_bench EXIT
mount_thermal_zones "$ZONES"
sock=$work/live.sock
cat >"$work/sensorwatch.json5" <<CONF
{
  interval: "100ms",
  sources: [ { type: "thermal" } ],
  liveSocket: "$sock",
  rules: [ { name: "bench-hot", sensor: "thermal:*", above: 80, severity: "warning" } ],
}
CONF

# Ten zones change every 100 ms, so changes flow to the clients (in both kinds of run).
python3 - "$work/tree" <<'PY' &
import sys, time
root, i = sys.argv[1], 0
while True:
    i += 1
    for z in range(10):
        with open(f"{root}/thermal_zone{z * 97}/temp", "w") as f: f.write(f"{40000 + (i % 20) * 100}\n")
    time.sleep(0.1)
PY
pids+=($!)

# CLIENTS readers (or one that never reads, with `hold`), connected once the socket is there.
clients() { # COUNT MODE
    python3 - "$sock" "$1" "$2" <<'PY' &
import os, socket, sys, time, threading
path, n, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
while not os.path.exists(path): time.sleep(0.05)
time.sleep(0.2)
def reader():
    s = socket.socket(socket.AF_UNIX)
    if mode == "hold": s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(path)
    s.sendall(b'{"subscribe":{"sensor":["*"]}}\n')
    if mode == "hold":
        time.sleep(100000)
    while s.recv(1 << 20): pass
for _ in range(n): threading.Thread(target=reader, daemon=True).start()
time.sleep(100000)
PY
    pids+=($!)
}

: >"$work/rounds"
samples=$(awk -v z="$ZONES" -v d="$((LONG - SHORT))" 'BEGIN { print z * d * 10 }')
# CPU ns of one run of SECONDS with COUNT clients.
cpu_of_run() { # SECONDS COUNT
    rm -f "$sock"
    [ "$2" -gt 0 ] && clients "$2" read
    local r
    r=$("$work/rusage-run" "$1" env STATE_DIRECTORY="$work/state" \
        "$SENSORWATCH" run --config "$work/sensorwatch.json5" 2>>"$work/out.log")
    if [ "$2" -gt 0 ]; then kill "${pids[-1]}" 2>/dev/null || true; wait "${pids[-1]}" 2>/dev/null || true; unset 'pids[-1]'; fi
    read -r _ _ cpu _ _ <<<"$r"
    echo "$cpu"
}
for ((round = 1; round <= ROUNDS; round++)); do
    for n in 0 "$CLIENTS"; do
        short=$(cpu_of_run "$SHORT" "$n")
        long=$(cpu_of_run "$LONG" "$n")
        us=$(awk -v a="$short" -v b="$long" -v s="$samples" 'BEGIN { printf "%.3f", (b - a) / 1000 / s }')
        printf 'round %d  %d clients  %s µs CPU a sample\n' "$round" "$n" "$us"
        echo "$n $us" >>"$work/rounds"
    done
done
if [ "$ROUNDS" -gt 0 ]; then
    none=$(awk '$1 == 0 { print $2 }' "$work/rounds" | median_of)
    some=$(awk -v n="$CLIENTS" '$1 == n { print $2 }' "$work/rounds" | median_of)
    printf 'median of %d: none %s µs, %d clients %s µs a sample: %.3f×\n' "$ROUNDS" "$none" "$CLIENTS" "$some" \
        "$(awk -v a="$some" -v b="$none" 'BEGIN { print a / b }')"
fi

# The pace of the samples as a client sees it: PACE seconds of the first changing zone's
# changes (thermal_zone0 changes every 100 ms), the mean and largest gap of their `time`.
pace() { # [SOCKET]
    python3 - "${1:-$sock}" "$PACE" <<'PY'
import datetime, json, socket, sys, time
path, seconds = sys.argv[1], float(sys.argv[2])
s = socket.socket(socket.AF_UNIX)
s.connect(path)
s.sendall(b'{"subscribe":{"sensor":["thermal:*"]}}\n')
f = s.makefile("rb")
times, end, first = [], None, None
for line in f:
    m = json.loads(line)
    if m["type"] == "snapshot":
        first = m["sensors"][0]["id"]
        end = time.time() + seconds
    elif m["type"] == "change" and any(x["id"] == first for x in m.get("sensors", [])):
        times.append(datetime.datetime.fromisoformat(m["time"].replace("Z", "+00:00")).timestamp())
    if end is not None and time.time() > end: break
gaps = [b - a for a, b in zip(times, times[1:])] or [0]
print("%d ms mean, %d ms largest gap" % (1000 * sum(gaps) / len(gaps), 1000 * max(gaps)))
PY
}

# A client that never reads, for HOLD seconds, and the control without it.
rm -f "$sock"
sed "s|$sock|$work/control.sock|" "$work/sensorwatch.json5" >"$work/control.json5"
STATE_DIRECTORY="$work/state" "$SENSORWATCH" run --config "$work/sensorwatch.json5" 2>>"$work/out.log" &
daemon=$!
pids+=("$daemon")
STATE_DIRECTORY="$work/control-state" "$SENSORWATCH" run --config "$work/control.json5" 2>>"$work/out.log" &
control=$!
pids+=("$control")
clients 1 hold
sleep "$WARM"
warm=$(rss_kib "$daemon")
control_warm=$(rss_kib "$control")
pace "$work/control.sock" >/dev/null &
pace_warm=$(pace)
wait $!
sleep $((HOLD - WARM - PACE))
end=$(rss_kib "$daemon")
control_end=$(rss_kib "$control")
pace "$work/control.sock" >/dev/null &
pace_end=$(pace)
wait $!
printf 'a client that never reads, %d s: VmRSS %.1f MiB at %d s, %.1f MiB at %d s: %+.2f MiB\n' "$HOLD" \
    "$(awk -v k="$warm" 'BEGIN { print k / 1024 }')" "$WARM" "$(awk -v k="$end" 'BEGIN { print k / 1024 }')" "$HOLD" \
    "$(awk -v a="$end" -v b="$warm" 'BEGIN { print (a - b) / 1024 }')"
printf 'the same daemon without that client: VmRSS %.1f MiB at %d s, %.1f MiB at %d s: %+.2f MiB; the client'"'"'s own: %+.2f MiB\n' \
    "$(awk -v k="$control_warm" 'BEGIN { print k / 1024 }')" "$WARM" "$(awk -v k="$control_end" 'BEGIN { print k / 1024 }')" "$HOLD" \
    "$(awk -v a="$control_end" -v b="$control_warm" 'BEGIN { print (a - b) / 1024 }')" \
    "$(awk -v a="$end" -v b="$warm" -v c="$control_end" -v d="$control_warm" 'BEGIN { print ((a - b) - (c - d)) / 1024 }')"
printf 'the samples beside it (a change of zone 0 due every 100 ms): %s at %d s, %s at %d s\n' \
    "$pace_warm" "$WARM" "$pace_end" "$HOLD"
