#!/usr/bin/env bash
# What reading the chips' alarm files costs (SPEC §16b): `run` on 1000 hwmon temperatures
# (100 chips × 10) at 100 ms, each with temp_input, temp_crit and two alarm files
# (temp_crit_alarm, temp_max_alarm), CPU per sample from wait4 rusage of a SHORT and a LONG
# run differenced (bench/rusage-run.c), in interleaved rounds: BASELINE (a binary from before
# alarms, which reads only the input), this binary on the same tree, and this binary on the
# tree without alarm files (what a machine without them pays). Prints each round and the
# medians.  usage: BASELINE=/path/to/old/sensorwatch bench/alarms.sh
set -euo pipefail
CHIPS=${CHIPS:-100}
PER_CHIP=${PER_CHIP:-10}
SHORT=${SHORT:-3}
LONG=${LONG:-13}
ROUNDS=${ROUNDS:-3}
here=$(cd "$(dirname "$0")" && pwd)
SENSORWATCH=${SENSORWATCH:-$here/../.build/release/sensorwatch}
: "${BASELINE:?BASELINE=path of a sensorwatch binary from before alarm files were read}"
command -v cc >/dev/null || { echo "bench: needs a C compiler (cc)" >&2; exit 1; }

work=$(mktemp -d /tmp/sensorwatch-bench-alarms.XXXXXX)
# The daemons keep their state.json here, not in the host's /var/lib/sensorwatch.
export STATE_DIRECTORY=$work
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
source "$here/lib.sh"
cc -O2 -o "$work/rusage-run" "$here/rusage-run.c"

# Two trees: with alarm files and without; the same chips, inputs and limits.
python3 - "$work" "$CHIPS" "$PER_CHIP" <<'PY'
import os, sys
work, chips, per = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for tree, alarms in (("with", True), ("without", False)):
    for c in range(chips):
        d = f"{work}/{tree}/hwmon{c}"
        os.makedirs(d)
        open(f"{d}/name", "w").write(f"bench{c}\n")
        for t in range(1, per + 1):
            open(f"{d}/temp{t}_input", "w").write(f"{40000 + (c * per + t) % 30 * 1000}\n")
            open(f"{d}/temp{t}_crit", "w").write("100000\n")
            if alarms:
                open(f"{d}/temp{t}_crit_alarm", "w").write("0\n")
                open(f"{d}/temp{t}_max_alarm", "w").write("0\n")
PY
for tree in with without; do
    cat >"$work/$tree.json5" <<CONF
{
  interval: "100ms",
  sources: [ { type: "hwmon", root: "$work/$tree" } ],
  rules: [ { name: "bench-hot", quantity: "temperature", above: "crit" } ],
}
CONF
done

sensors=$((CHIPS * PER_CHIP))
measure() { # BINARY CONFIG -> µs CPU per sample
    local a b
    a=$("$work/rusage-run" "$SHORT" "$1" run --config "$2" 2>>"$work/out.log") || return 0
    b=$("$work/rusage-run" "$LONG" "$1" run --config "$2" 2>>"$work/out.log") || return 0
    awk -v a="$a" -v b="$b" -v z="$sensors" -v d=$((LONG - SHORT)) 'BEGIN {
        split(a, x, " "); split(b, y, " "); printf "%.3f\n", (y[3] - x[3]) / 1000 / (z * d / 0.1) }'
}
: >"$work/rounds"
for ((round = 1; round <= ROUNDS; round++)); do
    old=$(measure "$BASELINE" "$work/with.json5")
    new=$(measure "$SENSORWATCH" "$work/with.json5")
    none=$(measure "$SENSORWATCH" "$work/without.json5")
    echo "$old $new $none" >>"$work/rounds"
    echo "round $round: baseline $old µs, with alarm files $new µs ($(awk -v o="$old" -v n="$new" 'BEGIN { printf "×%.2f", n / o }')), without alarm files $none µs"
done
col() { awk -v c="$1" '{ print $c }' "$work/rounds" | median_of; }
ratio=$(awk '{ print $2 / $1 }' "$work/rounds" | median_of)
echo "bench: $sensors hwmon temperatures at 100 ms, 2 alarm files each; medians of $ROUNDS rounds:" \
    "baseline $(col 1) µs, this binary $(col 2) µs (×$(printf %.2f "$ratio") by round), without alarm files $(col 3) µs per sample"
