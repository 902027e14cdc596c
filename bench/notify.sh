#!/usr/bin/env bash
# `sensorwatch notify` (SPEC §17), against a private journald in its own mount namespace:
#  - latency from the journal entry (its realtime timestamp, set by journald on receipt) to
#     the exec target's start (the program's first `date`), at 10 events/s: p50, p99 (target
#     p99 <= 250 ms);
#  - a backlog of 10 000 events written while the notifier was down, delivered to a program
#     that exits at once: events/s (target >= 300);
#  - idle: wake-ups a second (context switches, wait4 rusage of a short and a long idle run,
#     differenced; target <= 0.2).
# env: SENSORWATCH (binary), EVENTS (latency events, 300), BACKLOG (10000), SHORT/LONG (5/35 s).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SENSORWATCH=${SENSORWATCH:-$here/../.build/release/sensorwatch}
EVENTS=${EVENTS:-300}
BACKLOG=${BACKLOG:-10000}
SHORT=${SHORT:-5}
LONG=${LONG:-35}
[ "$(id -u)" = 0 ] || { echo "bench: needs root (a private journald)" >&2; exit 1; }
if [ -z "${SW_BENCH_NS:-}" ]; then
    export SW_BENCH_NS=1
    exec unshare -m --propagation private bash "$0" "$@"
fi
# shellcheck source=bench/lib.sh
source "$here/lib.sh"
work=$(mktemp -d /tmp/sensorwatch-notify-bench.XXXXXX)
pids=()
trap cleanup_bench EXIT
# No rate limit: the backlog is 10 000 entries in a burst.
start_bench_journald RateLimitBurst=0 Storage=volatile
cc -O2 -o "$work/rusage-run" "$here/rusage-run.c"

printf '{ notify: [ { exec: ["/bin/true"] } ] }\n' >"$work/idle.json5"
# A. Idle wake-ups, the notifier following a quiet journal with one exec target; measured
#    first, before the bursts below leave journald rotating and syncing (real journal
#    changes, which wake any reader).
read -r idle_sw idle_cpu idle_rss _ < <(per_second "$SENSORWATCH" notify --config "$work/idle.json5" --state "$work/idle-state.json")

# B. Latency: the program notes the entry's time and its own start; warning entries, then
#    critical ones, each followed by the daemon's wake; then warning entries without it
#    (journald tells its readers of new entries, of every priority, only at the end of its
#    post-change coalescing of up to 250 ms, which that row is mostly made of).
cat >"$work/latency.sh" <<SH
#!/bin/sh
echo "\$ALERT_TIME \$(date +%s.%N)" >>\$LATENCY_OUT
SH
percentiles() { # FILE of "ALERT_TIME start" lines -> "p50 p99 n" in ms
    python3 - "$1" <<'PY'
import sys, datetime
ms = []
for line in open(sys.argv[1]):
    t, started = line.split()
    entry = datetime.datetime.strptime(t, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc).timestamp()
    ms.append((float(started) - entry) * 1000)
ms.sort()
pick = lambda q: ms[min(len(ms) - 1, int(q * len(ms)))]
print(f"{pick(0.5):.1f} {pick(0.99):.1f} {len(ms)}")
PY
}
latency() { # PRIORITY [nowake] -> "p50 p99 n"
    local name=$1${2:-} np
    local out=$work/latency-$name.out
    sed "s|\\\$LATENCY_OUT|$out|" "$work/latency.sh" >"$work/latency-$name.sh"
    chmod +x "$work/latency-$name.sh"
    printf '{ notify: [ { exec: ["%s"] } ] }\n' "$work/latency-$name.sh" >"$work/latency-$name.json5"
    "$SENSORWATCH" notify --config "$work/latency-$name.json5" --state "$work/latency-$name-state.json" 2>>"$work/notify.log" &
    np=$!
    for _ in $(seq 100); do [ -s "$work/latency-$name-state.json" ] && break; sleep 0.05; done
    python3 "$here/notify-send.py" "$EVENTS" 10 "$1" ${2:-}
    for _ in $(seq 100); do [ "$(grep -c . "$out" 2>/dev/null || echo 0)" -ge "$EVENTS" ] && break; sleep 0.1; done
    kill "$np"; wait "$np" || true
    percentiles "$out"
}
read -r p50 p99 n < <(latency 4)
read -r c50 c99 cn < <(latency 2)
read -r j50 j99 jn < <(latency 4 nowake)

# D. The daemon itself: `run` on a simulated sensor that crosses its rule's threshold every
#    100 ms (10 events/s, firing and resolved in turn), notify following, the same program
#    noting the times: from the daemon's journal write (the entry's timestamp) to the start.
python3 - "$work/flip.json5" "$EVENTS" <<'PY'
import sys
n = int(sys.argv[2])
samples = ", ".join(f"[{i / 10:.1f}, {90 if i % 2 else 50}]" for i in range(n + 2))
open(sys.argv[1], "w").write(f'{{ duration: "{(n + 1) / 10:.1f}s", step: "100ms", loop: false, sensors: [\n'
                             f'  {{ id: "cpu", quantity: "temperature", samples: [{samples}] }} ] }}\n')
PY
sed "s|\\\$LATENCY_OUT|$work/latency-daemon.out|" "$work/latency.sh" >"$work/latency-daemon.sh"
chmod +x "$work/latency-daemon.sh"
cat >"$work/daemon.json5" <<JSON
{ sources: [ { type: "simulated", scenario: "flip.json5", interval: "100ms" } ],
  rules: [ { name: "flip", sensor: "sim:cpu", above: 80, severity: "warning" } ],
  notify: [ { exec: ["$work/latency-daemon.sh"] } ] }
JSON
"$SENSORWATCH" notify --config "$work/daemon.json5" --state "$work/daemon-state.json" 2>>"$work/notify.log" &
np=$!
for _ in $(seq 100); do [ -s "$work/daemon-state.json" ] && break; sleep 0.05; done
STATE_DIRECTORY=$work/daemon-state "$SENSORWATCH" run --config "$work/daemon.json5" >/dev/null 2>>"$work/daemon.log" &
dp=$!
sleep $(( EVENTS / 10 + 2 ))
kill "$dp"; wait "$dp" || true
sleep 1
kill "$np"; wait "$np" || true
read -r d50 d99 dn < <(percentiles "$work/latency-daemon.out")

# C. Backlog: the notifier knows its place, stops; 10 000 events; it starts again.
printf '{ notify: [ { exec: ["/bin/sh", "-c", "echo >>%s"] } ] }\n' "$work/backlog.out" >"$work/backlog.json5"
"$SENSORWATCH" notify --config "$work/backlog.json5" --state "$work/backlog-state.json" 2>>"$work/notify.log" &
np=$!
for _ in $(seq 100); do [ -s "$work/backlog-state.json" ] && break; sleep 0.05; done
kill "$np"; wait "$np" || true
python3 "$here/notify-send.py" "$BACKLOG" 0
journalctl --sync
start=$(date +%s%N)
"$SENSORWATCH" notify --config "$work/backlog.json5" --state "$work/backlog-state.json" 2>>"$work/notify.log" &
np=$!
pids+=($np)
while [ "$(cat "$work/backlog.out" 2>/dev/null | wc -l)" -lt "$BACKLOG" ]; do sleep 0.05; done
elapsed=$(( $(date +%s%N) - start ))
kill "$np"; wait "$np" || true
rate=$(awk -v n="$BACKLOG" -v ns="$elapsed" 'BEGIN { printf "%.0f", n / (ns / 1e9) }')

echo "bench: sensorwatch notify, private journald, exec targets"
printf '%-52s %s\n' "journal entry -> exec start, 10 events/s ($n warning)" "p50 ${p50} ms, p99 ${p99} ms"
printf '%-52s %s\n' "  the same, critical entries ($cn)" "p50 ${c50} ms, p99 ${c99} ms"
printf '%-52s %s\n' "  warning, no wake: journald's notice only ($jn)" "p50 ${j50} ms, p99 ${j99} ms"
printf '%-52s %s\n' "  the daemon's own alerts ($dn, sensorwatch run)" "p50 ${d50} ms, p99 ${d99} ms"
printf '%-52s %s\n' "backlog of $BACKLOG events, program exits at once" "$rate events/s"
printf '%-52s %s\n' "idle (${SHORT} s vs ${LONG} s run)" "$idle_sw wake-ups/s, $idle_cpu CPU µs/s, RSS $idle_rss KiB"
awk -v p99="$p99" -v d99="$d99" -v r="$rate" -v w="$idle_sw" 'BEGIN {
    p = p99 > d99 ? p99 : d99
    printf "targets: p99 <= 250 ms %s; backlog >= 300/s %s; idle <= 0.2 wake-ups/s %s\n",
        (p <= 250 ? "met" : "MISSED"), (r >= 300 ? "met" : "MISSED"), (w <= 0.2 ? "met" : "MISSED") }'
