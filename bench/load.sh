#!/usr/bin/env bash
# Load: `sensorwatch run` on many fake thermal zones with the watchdog on.
#   1. 10 000 zones at a 1 s interval     2. 1000 zones at 100 ms (the set-up of
#   bench/collectd-compare.sh's sensorwatch row, so the two figures can be compared)
# Each tree is a tmpfs bind-mounted over /sys/class/thermal in a private mount namespace
# (a tmpfs on /run hides journald, so events would go to stderr), with one rule on
# thermal:*. The daemon runs with NOTIFY_SOCKET pointed at a datagram socket that a
# python3 listener reads, and WATCHDOG_USEC/WATCHDOG_PID set as systemd sets them for
# `WatchdogSec=`: every WATCHDOG=1 is time-stamped, and the longest gap between pings
# (from READY=1 on) must stay under the watchdog timeout — systemd would kill the service
# at a longer one.
#
# CPU per sample = on-CPU time of all threads (/proc/PID/task/*/schedstat) over MEASURE
# seconds / (zones × MEASURE / interval). MEASURE defaults to 65 s so that one periodic
# rediscovery (every 60 s) is inside the window. Requirement: CPU per sample with 10 000
# zones at 1 s is not above the figure with 1000 zones at 100 ms.
#
# env: SENSORWATCH (binary, default .build/release/sensorwatch), LOADS ("10000:1s
#      1000:100ms"), MEASURE (65 s), WARMUP (3 s after READY=1), WATCHDOG_SEC (2).
# exit: 0 all requirements met, 1 one missed or the daemon died, 2 set-up problem.
set -euo pipefail
LOADS=${LOADS:-"10000:1s 1000:100ms"}
MEASURE=${MEASURE:-65}
WARMUP=${WARMUP:-3}
WATCHDOG_SEC=${WATCHDOG_SEC:-2}
here=$(cd "$(dirname "$0")" && pwd)
SENSORWATCH=${SENSORWATCH:-$here/../.build/release/sensorwatch}
export LOADS MEASURE WARMUP WATCHDOG_SEC SENSORWATCH

if [ "${1:-}" != "--inside" ]; then
    [ "$(id -u)" -eq 0 ] || { echo "load: needs root (unshare -m, mount)" >&2; exit 2; }
    [ -x "$SENSORWATCH" ] || { echo "load: no binary at $SENSORWATCH (make release)" >&2; exit 2; }
    command -v python3 >/dev/null || { echo "load: needs python3" >&2; exit 2; }
    exec unshare -m --propagation private -- bash "$0" --inside
fi

# ---- inside the private mount namespace: nothing mounted here is seen outside ----
mount -t tmpfs none /run
work=$(mktemp -d /tmp/sensorwatch-load.XXXXXX)
pids=()
# shellcheck source=bench/lib.sh
source "$here/lib.sh"
trap cleanup_bench EXIT

# Seconds of a duration like 1s / 100ms / 2.5s.
seconds() { awk -v d="$1" 'BEGIN { if (d ~ /ms$/) print substr(d, 1, length(d) - 2) / 1000; else if (d ~ /s$/) print substr(d, 1, length(d) - 1) + 0; else print d + 0 }'; }

# Records the time (CLOCK_MONOTONIC) of every READY=1 / WATCHDOG=1 / STOPPING=1 datagram.
cat >"$work/listen.py" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
with open(sys.argv[2], "w", buffering=1) as out:
    while True:
        data = s.recv(65536).decode(errors="replace")
        t = time.monotonic()
        for line in data.split("\n"):
            if line in ("READY=1", "WATCHDOG=1", "STOPPING=1"):
                out.write(f"{t:.6f} {line}\n")
        if "STOPPING=1" in data.split("\n"):
            break
PY

status=0
results=()
for load in $LOADS; do
    zones=${load%%:*}
    interval=${load#*:}
    ival=$(seconds "$interval")
    tag="$zones zones @ $interval"

    umount /sys/class/thermal 2>/dev/null || true
    umount "$work/tree" 2>/dev/null || true
    mkdir -p "$work/tree"
    mount -t tmpfs -o size=256m tmpfs "$work/tree"
    write_thermal_zones "$work/tree" "$zones"
    mount --bind "$work/tree" /sys/class/thermal

    cat >"$work/sensorwatch.json5" <<CONF
{
  interval: "$interval",
  sources: [ { type: "thermal" } ],
  rules: [ { name: "bench-hot", sensor: "thermal:*", above: 80, severity: "warning" } ],
}
CONF
    sock=$work/notify.sock
    pings=$work/pings-$zones.txt
    rm -f "$sock"
    python3 "$work/listen.py" "$sock" "$pings" &
    lpid=$!; pids+=("$lpid")
    for ((i = 0; i < 50; i++)); do [ -S "$sock" ] && break; sleep 0.1; done
    mkdir -p "$work/state"
    # WATCHDOG_PID must be the daemon's own pid: the shell exports its pid, then becomes it.
    started=$EPOCHREALTIME
    NOTIFY_SOCKET=$sock WATCHDOG_USEC=$((WATCHDOG_SEC * 1000000)) STATE_DIRECTORY=$work/state \
        sh -c 'export WATCHDOG_PID=$$; exec "$0" run --config "$1"' "$SENSORWATCH" "$work/sensorwatch.json5" \
        >"$work/out-$zones.txt" 2>&1 &
    spid=$!; pids+=("$spid")
    for ((i = 0; i < 300; i++)); do
        grep -q ' READY=1$' "$pings" 2>/dev/null && break
        kill -0 "$spid" 2>/dev/null || break
        sleep 0.1
    done
    if ! grep -q ' READY=1$' "$pings" 2>/dev/null; then
        echo "load: $tag: no READY=1; output:"; tail -n 5 "$work/out-$zones.txt"
        status=1
        continue
    fi
    ready_s=$(awk -v a="$started" -v n="$EPOCHREALTIME" 'BEGIN { printf "%.2f", n - a }')
    sleep "$WARMUP"
    a=$(cpu_ns "$spid")
    rss_max=0
    for ((s = 0; s < MEASURE; s++)); do
        sleep 1
        kill -0 "$spid" 2>/dev/null || break
        r=$(rss_kib "$spid")
        ((r > rss_max)) && rss_max=$r
    done
    if ! kill -0 "$spid" 2>/dev/null; then
        echo "load: $tag: sensorwatch died; output:"; tail -n 5 "$work/out-$zones.txt"
        status=1
        continue
    fi
    b=$(cpu_ns "$spid")
    rss_end=$(rss_kib "$spid")
    kill -TERM "$spid"
    wait "$spid" || true
    for ((i = 0; i < 20; i++)); do kill -0 "$lpid" 2>/dev/null || break; sleep 0.1; done
    kill "$lpid" 2>/dev/null || true
    wait "$lpid" 2>/dev/null || true

    fig=$(awk -v d=$((b - a)) -v z="$zones" -v s="$MEASURE" -v i="$ival" -v re="$rss_end" -v rm="$rss_max" \
        -v wd="$WATCHDOG_SEC" -v rdy="$ready_s" '
        $2 == "READY=1" && ready == "" { ready = $1; last = $1; next }
        $2 == "WATCHDOG=1" && ready != "" {
            g = $1 - last; if (g > maxgap) maxgap = g
            n++; sum += g; last = $1
        }
        END {
            us = d / 1000 / (z * s / i)
            printf "%.3f %.1f %.1f %d %.3f %.3f %.1f %s\n", us, re / 1024, rm / 1024, n, maxgap, n ? sum / n : 0, d / 1e9 / s * 100, rdy
        }' "$pings")
    results+=("$zones $interval $fig")
done

echo "load: fake thermal zones (tmpfs bind-mounted over /sys/class/thermal), rule bench-hot on thermal:*, WatchdogSec=${WATCHDOG_SEC}s, ${MEASURE} s measured"
printf '%-20s %12s %9s %9s %7s %8s %6s %6s %8s\n' "load" "CPU/sample" "RSS end" "RSS max" "CPU %" "ready" "pings" "mean" "max gap"
ref=""
for r in "${results[@]}"; do
    read -r zones interval us rss rmax n maxgap mean cpu rdy <<<"$r"
    printf '%-20s %9s µs %5s MiB %5s MiB %6s%% %7ss %6s %5ss %7ss\n' "$zones @ $interval" "$us" "$rss" "$rmax" "$cpu" "$rdy" "$n" "$mean" "$maxgap"
    if awk -v g="$maxgap" -v w="$WATCHDOG_SEC" -v n="$n" 'BEGIN { exit !(n > 0 && g < w) }'; then :; else
        echo "  watchdog: max gap ${maxgap}s (${n} pings) is not under ${WATCHDOG_SEC}s: MISSED"; status=1
    fi
    [ "$zones:$interval" = "1000:100ms" ] && ref=$us
done
if [ -n "$ref" ]; then
    for r in "${results[@]}"; do
        read -r zones interval us _ <<<"$r"
        [ "$zones:$interval" = "1000:100ms" ] && continue
        awk -v u="$us" -v r="$ref" -v t="$zones @ $interval" 'BEGIN {
            printf "%s: CPU/sample %.3f µs vs %.3f µs with 1000 @ 100ms (x%.2f): %s\n", t, u, r, u / r, (u <= r ? "met" : "MISSED")
            exit !(u <= r) }' || status=1
    done
fi
exit $status
