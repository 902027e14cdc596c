#!/usr/bin/env bash
# The binary's size (`size`: text + data) and `run`'s resident memory at 1000 fake thermal
# zones (bind-mounted over /sys/class/thermal in a private mount namespace) at 100 ms, one
# rule: steady (VmRSS at the end of a LONG run) and peak (wait4's ru_maxrss, start-up
# included), for SENSORWATCH and, when set, BASELINE, in ROUNDS interleaved rounds (one run
# of each in turn, so the shared machine's drift falls on both); prints each round and the
# medians.
#
# env: SENSORWATCH (default .build/release/sensorwatch), BASELINE (another binary, e.g.
#      the merge base's), ZONES (1000), LONG (13 s), ROUNDS (3). Needs root, cc, python3, size.
set -euo pipefail
ZONES=${ZONES:-1000}
LONG=${LONG:-13}
ROUNDS=${ROUNDS:-3}
here=$(cd "$(dirname "$0")" && pwd)
SENSORWATCH=${SENSORWATCH:-$here/../.build/release/sensorwatch}
BASELINE=${BASELINE:-}
export ZONES LONG ROUNDS SENSORWATCH BASELINE

if [ "${1:-}" != "--inside" ]; then
    [ "$(id -u)" -eq 0 ] || { echo "bench: needs root (unshare -m, mount)" >&2; exit 1; }
    for tool in cc python3 size; do
        command -v "$tool" >/dev/null || { echo "bench: needs $tool" >&2; exit 1; }
    done
    exec unshare -m --propagation private -- bash "$0" --inside
fi

# ---- inside the private mount namespace: nothing mounted here is seen outside ----
work=$(mktemp -d /tmp/sensorwatch-bench.XXXXXX)
pids=()
# shellcheck source=bench/lib.sh
source "$here/lib.sh"
trap cleanup_bench EXIT

mount_thermal_zones "$ZONES"
cat >"$work/sensorwatch.json5" <<CONF
{
  interval: "100ms",
  sources: [ { type: "thermal" } ],
  rules: [ { name: "bench-hot", sensor: "thermal:*", above: 80, severity: "warning" } ],
}
CONF

binaries=("$SENSORWATCH")
[ -n "$BASELINE" ] && binaries+=("$BASELINE")
# "text+data MB" of a binary, in decimal megabytes as `size` counts bytes.
size_mb() { size "$1" | awk 'NR == 2 { printf "%.1f + %.1f = %.1f MB\n", $1 / 1e6, $2 / 1e6, ($1 + $2) / 1e6 }'; }
for b in "${binaries[@]}"; do printf '%-60s size %s\n' "$b" "$(size_mb "$b")"; done

: >"$work/rounds"
for ((round = 1; round <= ROUNDS; round++)); do
    for i in "${!binaries[@]}"; do
        r=$("$work/rusage-run" "$LONG" env STATE_DIRECTORY="$work/state-$i" \
            "${binaries[$i]}" run --config "$work/sensorwatch.json5" 2>>"$work/out.log")
        read -r _ _ _ peak steady <<<"$r"
        printf 'round %d  %-48s steady %5.1f MiB  peak %5.1f MiB\n' "$round" "${binaries[$i]}" \
            "$(awk -v k="$steady" 'BEGIN { print k / 1024 }')" "$(awk -v k="$peak" 'BEGIN { print k / 1024 }')"
        echo "$i $steady $peak" >>"$work/rounds"
    done
done
for i in "${!binaries[@]}"; do
    s=$(awk -v i="$i" '$1 == i { print $2 }' "$work/rounds" | median_of)
    p=$(awk -v i="$i" '$1 == i { print $3 }' "$work/rounds" | median_of)
    printf 'median of %d  %-44s steady %5.1f MiB  peak %5.1f MiB\n' "$ROUNDS" "${binaries[$i]}" \
        "$(awk -v k="$s" 'BEGIN { print k / 1024 }')" "$(awk -v k="$p" 'BEGIN { print k / 1024 }')"
done
