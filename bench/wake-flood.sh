#!/usr/bin/env bash
# What a flood of datagrams to notify's wake socket (/run/sensorwatch-notify/wake, SPEC §17
# Liveness) from another user costs notify: CPU time (wait4 rusage of the whole process, all
# threads) of an idle notify flooded by `nobody` with COUNT empty datagrams, less that of the
# same notify left idle as long; BEFORE and AFTER binaries in the same run, alternating,
# ROUNDS rounds, the median printed. Two floods: `nowait` (sendto with MSG_DONTWAIT, as fast
# as the kernel takes them; a full queue skipped) and `wait` (blocking sends, each one queued,
# at most FLOOD_SECONDS). Against a private journald in a private mount namespace (/run).
# env: BEFORE (a binary to compare with; none by default: AFTER alone), AFTER (SENSORWATCH,
#      else this tree's release binary), COUNT (20000), ROUNDS (5), RUN_SECONDS (6),
#      FLOOD_SECONDS (4)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
BEFORE=${BEFORE:-}
AFTER=${AFTER:-${SENSORWATCH:-$here/../.build/release/sensorwatch}}
binaries=AFTER
if [ -n "$BEFORE" ]; then binaries="BEFORE AFTER"; fi
COUNT=${COUNT:-20000}
ROUNDS=${ROUNDS:-5}
RUN_SECONDS=${RUN_SECONDS:-6}
FLOOD_SECONDS=${FLOOD_SECONDS:-4}
[ "$(id -u)" = 0 ] || { echo "bench: needs root (a private journald, setpriv)" >&2; exit 1; }
if [ -z "${SW_BENCH_NS:-}" ]; then
    export SW_BENCH_NS=1
    exec unshare -m --propagation private bash "$0" "$@"
fi
# shellcheck source=bench/lib.sh
source "$here/lib.sh"
work=$(mktemp -d /tmp/sensorwatch-wake-bench.XXXXXX)
chmod 755 "$work"
pids=()
trap cleanup_bench EXIT
start_bench_journald Storage=volatile
cc -O2 -o "$work/rusage-run" "$here/rusage-run.c"
cp "$here/wake-flood.py" "$work/"
printf '{ notify: [ { exec: ["/bin/true"] }, { exec: ["/bin/true", "second"] } ] }\n' >"$work/notify.json5"

# CPU ns of one notify run of RUN_SECONDS, flooded with MODE (or idle: "none") once its wake
# socket is there; the flood's "sent queued seconds" go to $work/flood.out.
one() { # BINARY MODE
    rm -f "$work/state.json" /run/sensorwatch-notify/wake
    "$work/rusage-run" "$RUN_SECONDS" "$1" notify --config "$work/notify.json5" --state "$work/state.json" \
        2>/dev/null >"$work/usage.out" &
    local runner=$!
    for _ in $(seq 200); do [ -S /run/sensorwatch-notify/wake ] && [ -s "$work/state.json" ] && break; sleep 0.02; done
    if [ "$2" != none ]; then
        setpriv --reuid=65534 --regid=65534 --clear-groups \
            /usr/bin/python3 "$work/wake-flood.py" "$COUNT" "$2" "$FLOOD_SECONDS" >"$work/flood.out"
    fi
    wait "$runner"
    awk '{print $3}' "$work/usage.out"
}

declare -A cost queued
for round in $(seq "$ROUNDS"); do
    for which in $binaries; do
        bin=${!which}
        idle=$(one "$bin" none)
        for mode in nowait wait; do
            flooded=$(one "$bin" "$mode")
            cost[$which.$mode]+="$(( flooded - idle )) "
            queued[$which.$mode]+="$(awk '{print $2}' "$work/flood.out") "
        done
    done
done
for mode in nowait wait; do
    for which in $binaries; do
        c=$(tr ' ' '\n' <<<"${cost[$which.$mode]}" | grep . | median_of)
        q=$(tr ' ' '\n' <<<"${queued[$which.$mode]}" | grep . | median_of)
        printf '%-6s %-6s flood of %d (%s queued, median): notify CPU %.4f s (rounds: %s)\n' \
            "$which" "$mode" "$COUNT" "$q" "$(awk -v c="$c" 'BEGIN { print c / 1e9 }')" "${cost[$which.$mode]% }"
    done
done
