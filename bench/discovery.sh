#!/usr/bin/env bash
# Discovery of 1000 hwmon sensors with every limit file (SPEC §16 figure: at most 2× the
# discovery time before limits were read). 100 chips × 10 temperatures on a tmpfs in a
# private mount namespace, each sensor with its label and, in the "limits" tree, all ten
# limit files (max, crit, emergency, min, lcrit and each one's _hyst).
#
# Time = CPU time (and wall time) of `sensorwatch sensors --json` (process start, one
# discovery, one poll, the output), the median of RUNS runs. Rows:
#   baseline, all limit files BASELINE (a build without limit reading, e.g. main's) — "today"
#   this build, no limits   the same work as today's (no limit file to read): the proxy
#                           when no BASELINE is given
#   this build, all limit files discovery that reads all 10 000 limit files
# Requirement: "this build, all limit files" ≤ 2 × "today" in CPU time (BASELINE's row,
# else the proxy).
#
# env: SENSORWATCH (default .build/release/sensorwatch), BASELINE (optional binary),
#      CHIPS (100), PER_CHIP (10), RUNS (15), LIMIT_FILES (all ten, comma-separated).
# exit: 0 requirement met, 1 missed, 2 set-up problem.
set -euo pipefail
CHIPS=${CHIPS:-100}
PER_CHIP=${PER_CHIP:-10}
RUNS=${RUNS:-15}
# The limit files of each sensor in the "limits" tree (coretemp has max,crit,crit_hyst).
LIMIT_FILES=${LIMIT_FILES:-max,max_hyst,crit,crit_hyst,emergency,emergency_hyst,min,min_hyst,lcrit,lcrit_hyst}
here=$(cd "$(dirname "$0")" && pwd)
SENSORWATCH=${SENSORWATCH:-$here/../.build/release/sensorwatch}
BASELINE=${BASELINE:-}
export CHIPS PER_CHIP RUNS SENSORWATCH BASELINE LIMIT_FILES

if [ "${1:-}" != "--inside" ]; then
    [ "$(id -u)" -eq 0 ] || { echo "discovery: needs root (unshare -m, mount)" >&2; exit 2; }
    [ -x "$SENSORWATCH" ] || { echo "discovery: no binary at $SENSORWATCH (make release)" >&2; exit 2; }
    command -v python3 >/dev/null || { echo "discovery: needs python3" >&2; exit 2; }
    exec unshare -m --propagation private -- bash "$0" --inside
fi

work=$(mktemp -d /tmp/sensorwatch-discovery.XXXXXX)
pids=()
# shellcheck source=bench/lib.sh
source "$here/lib.sh"
trap cleanup_bench EXIT
mkdir -p "$work/tree"
mount -t tmpfs none "$work/tree"

python3 - "$work/tree" "$CHIPS" "$PER_CHIP" "$LIMIT_FILES" <<'PY'
import os, sys
root, chips, per = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
limits = {"max": 80000, "max_hyst": 75000, "crit": 100000, "crit_hyst": 95000, "emergency": 105000,
          "emergency_hyst": 100000, "min": 5000, "min_hyst": 7000, "lcrit": 0, "lcrit_hyst": 2000}
limits = {k: limits[k] for k in sys.argv[4].split(",")}
for tree, with_limits in (("plain", False), ("limits", True)):
    for c in range(chips):
        d = os.path.join(root, tree, f"hwmon{c}")
        os.makedirs(d)
        open(os.path.join(d, "name"), "w").write(f"chip{c}\n")
        for t in range(1, per + 1):
            open(os.path.join(d, f"temp{t}_input"), "w").write(f"{40000 + t}\n")
            open(os.path.join(d, f"temp{t}_label"), "w").write(f"Core {t}\n")
            if with_limits:
                for k, v in limits.items():
                    open(os.path.join(d, f"temp{t}_{k}"), "w").write(f"{v}\n")
PY
for tree in plain limits; do
    printf '{ sources: [ { type: "hwmon", root: "%s" } ], rules: [] }\n' "$work/tree/$tree" >"$work/$tree.json5"
done

# Each of the rows' runs (`BIN TREE` pairs, one per argument) is checked once, then all are
# timed in rounds, one run of each per round in turn: a machine that speeds up or slows down
# during the benchmark moves every row alike. Prints per row "WALL CPU", medians in ms of RUNS
# runs (CPU: user + system of the process and its threads, from wait4's rusage), then a line
# "PAIRED" with the median over the rounds of the last row's CPU over the first's.
# (Rows timed one after the other, baseline medians of one machine ranged over 33–46 ms in
# five runs of this script, and the ratio over 1.43–2.23.)
time_rows() {
    local row bin tree
    for row in "$@"; do
        bin=${row% *} tree=${row#* }
        "$bin" sensors --json --config "$work/$tree.json5" >"$work/out.json"
        [ "$(grep -c '"id"' "$work/out.json")" = $((CHIPS * PER_CHIP)) ] || { echo "discovery: $bin found the wrong sensors" >&2; exit 2; }
    done
    python3 - "$work" "$RUNS" "$@" <<'PY'
import os, statistics, subprocess, sys, time
work, runs, rows = sys.argv[1], int(sys.argv[2]), [r.rsplit(" ", 1) for r in sys.argv[3:]]
wall = [[] for _ in rows]
cpu = [[] for _ in rows]
for _ in range(runs):
    for i, (bin, tree) in enumerate(rows):
        t0 = time.monotonic()
        p = subprocess.Popen([bin, "sensors", "--json", "--config", f"{work}/{tree}.json5"], stdout=subprocess.DEVNULL)
        _, _, ru = os.wait4(p.pid, 0)
        wall[i].append((time.monotonic() - t0) * 1000)
        cpu[i].append((ru.ru_utime + ru.ru_stime) * 1000)
for w, c in zip(wall, cpu):
    print(f"{statistics.median(w):.1f} {statistics.median(c):.1f}")
print(f"PAIRED {statistics.median(b / a for a, b in zip(cpu[0], cpu[-1])):.2f}")
PY
}

sensors=$((CHIPS * PER_CHIP))
echo "discovery of $sensors hwmon sensors, limit files $LIMIT_FILES (medians of $RUNS runs of sensors --json, in rounds)"
printf '  %-30s %9s %9s\n' "" "wall ms" "CPU ms"
row() { printf '  %-30s %9s %9s\n' "$1" $2; }
rows=()
[ -n "$BASELINE" ] && rows+=("$BASELINE limits")
rows+=("$SENSORWATCH plain" "$SENSORWATCH limits")
mapfile -t out < <(time_rows "${rows[@]}")
[ "${#out[@]}" -eq $(( ${#rows[@]} + 1 )) ] || { echo "discovery: the timing failed" >&2; exit 2; }
"$SENSORWATCH" sensors --json --config "$work/limits.json5" >"$work/out.json"
grep -q '"limits":{' "$work/out.json" \
    || { echo "discovery: the limits were not read" >&2; head -c 600 "$work/out.json" >&2; exit 2; }
today=${out[0]}
[ -n "$BASELINE" ] && { row "baseline, all limit files" "${out[0]}"; out=("${out[@]:1}"); }
plain=${out[0]} limits=${out[1]} paired=${out[2]#PAIRED }
row "this build, no limit files" "$plain"
row "this build, all limit files" "$limits"
# CPU time is the figure: on a shared machine, wall time also holds other tenants' work.
ratio=$(awk -v a="${limits#* }" -v b="${today#* }" 'BEGIN { printf "%.2f", a / b }')
wall=$(awk -v a="${limits% *}" -v b="${today% *}" 'BEGIN { printf "%.2f", a / b }')
echo "  ratio (all limit files / today): CPU ${ratio}× (of the medians; paired by round ${paired}×), wall ${wall}× (requirement: CPU ≤ 2)"
awk -v r="$ratio" 'BEGIN { exit !(r <= 2) }'
