#!/usr/bin/env bash
# Wake-ups (context switches) and CPU a second of `sensorwatch run` on 12 thermal zones
# polled once a second with one rule — the load of a small machine — next to a bare C poll
# loop at the same pace (the floor: one wake-up a second).
#
# Method: wait4(2) rusage of a SHORT and a LONG run of each (ru_nvcsw + ru_nivcsw, and
# ru_utime + ru_stime), differenced and divided by LONG - SHORT seconds, so start-up and
# stop cancel out and threads that exited are counted (summing /proc/PID/task misses them).
#
# env: SENSORWATCH (binary), ZONES (12), SHORT (5 s), LONG (35 s), ROUNDS (1). Needs cc.
set -euo pipefail
ZONES=${ZONES:-12}
SHORT=${SHORT:-5}
LONG=${LONG:-35}
ROUNDS=${ROUNDS:-1}
here=$(cd "$(dirname "$0")" && pwd)
SENSORWATCH=${SENSORWATCH:-$here/../.build/release/sensorwatch}
command -v cc >/dev/null || { echo "bench: needs a C compiler (cc)" >&2; exit 1; }
# The tree lives in memory, as sysfs does: on ext4 (/tmp here) the look at the class
# directory each second waited on the file system now and then (44 voluntary switches of
# the poll thread in 40 s against 40 on tmpfs, bench/README.md), which sysfs never does.
work=$(mktemp -d "${BENCH_TMPFS:-/dev/shm}/sensorwatch-wakeups.XXXXXX")
# The daemons keep their state.json here, not in the host's /var/lib/sensorwatch.
export STATE_DIRECTORY=$work
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
# shellcheck source=bench/lib.sh
source "$here/lib.sh"
mkdir -p "$work/tree"
write_thermal_zones "$work/tree" "$ZONES"
cat >"$work/sensorwatch.json5" <<CONF
{ interval: "1s",
  sources: [ { type: "thermal", root: "$work/tree" } ],
  rules: [ { name: "hot", sensor: "thermal:*", above: 80 } ] }
CONF
# The same with the Prometheus file written every second: it must add no wake-up (a write
# rides on the poll thread that committed the second's first poll).
sed 's|^  rules:|  metrics: { textfile: "'"$work"'/sensorwatch.prom", interval: "1s" },\n  rules:|' \
    "$work/sensorwatch.json5" >"$work/metrics.json5"
# And with the status file (SPEC §19), which the unit always keeps: rewritten on changes,
# observed on the model's seconds (riding on the polls too), and every 10 s by a timer.
sed 's|^  rules:|  statusFile: "'"$work"'/status.json",\n  rules:|' \
    "$work/sensorwatch.json5" >"$work/status.json5"
cc -O2 -o "$work/rusage-run" "$here/rusage-run.c"
cc -O2 -o "$work/pread-floor" "$here/pread-floor.c"


# ROUNDS rounds, interleaved (the floor, then each configuration), so a change in the
# machine's load between them shows in every column alike.
echo "bench: $ZONES thermal zones at 1 s, wait4 rusage of a ${SHORT} s and a ${LONG} s run, differenced, ${ROUNDS} round(s)"
echo "       switches/s = voluntary + involuntary; wake-ups/s = voluntary alone (an involuntary switch is preemption)"
printf '%-6s %-30s %12s %12s %14s\n' "round" "reader" "switches/s" "wake-ups/s" "CPU µs/s"
for round in $(seq 1 "$ROUNDS"); do
    read -r f_sw f_cpu _ f_vol < <(per_second "$work/pread-floor" "$work/tree" "$ZONES" 0 1000)
    read -r s_sw s_cpu _ s_vol < <(per_second "$SENSORWATCH" run --config "$work/sensorwatch.json5")
    read -r m_sw m_cpu _ m_vol < <(per_second "$SENSORWATCH" run --config "$work/metrics.json5")
    read -r t_sw t_cpu _ t_vol < <(per_second "$SENSORWATCH" run --config "$work/status.json5")
    printf '%-6s %-30s %12s %12s %14s\n' "$round" "pread floor, every 1 s (C)" "$f_sw" "$f_vol" "$f_cpu"
    printf '%-6s %-30s %12s %12s %14s\n' "$round" "sensorwatch run" "$s_sw" "$s_vol" "$s_cpu"
    printf '%-6s %-30s %12s %12s %14s\n' "$round" "  + metrics file every 1 s" "$m_sw" "$m_vol" "$m_cpu"
    printf '%-6s %-30s %12s %12s %14s\n' "$round" "  + status file" "$t_sw" "$t_vol" "$t_cpu"
    # The same, counted per thread inside one run (bench/lib.sh thread_switches).
    read -r fp_vol fp_inv _ < <(thread_switches "$SHORT" "$((LONG - SHORT))" "$work/pread-floor" "$work/tree" "$ZONES" 0 1000)
    read -r sp_vol sp_inv sp_thr < <(thread_switches "$SHORT" "$((LONG - SHORT))" "$SENSORWATCH" run --config "$work/sensorwatch.json5")
    read -r mp_vol mp_inv mp_thr < <(thread_switches "$SHORT" "$((LONG - SHORT))" "$SENSORWATCH" run --config "$work/metrics.json5")
    read -r tp_vol tp_inv tp_thr < <(thread_switches "$SHORT" "$((LONG - SHORT))" "$SENSORWATCH" run --config "$work/status.json5")
    printf '%-6s %-30s %12s %12s %14s\n' "$round" "per thread: pread floor" "+$fp_inv inv" "$fp_vol" "-"
    printf '%-6s %-30s %12s %12s %14s\n' "$round" "per thread: sensorwatch run" "+$sp_inv inv" "$sp_vol" "$sp_thr threads"
    printf '%-6s %-30s %12s %12s %14s\n' "$round" "per thread:   + metrics file" "+$mp_inv inv" "$mp_vol" "$mp_thr threads"
    printf '%-6s %-30s %12s %12s %14s\n' "$round" "per thread:   + status file" "+$tp_inv inv" "$tp_vol" "$tp_thr threads"
    s_vol=$sp_vol m_vol=$mp_vol t_vol=$tp_vol
    awk -v w="$s_vol" -v m="$m_vol" -v t="$t_vol" -v r="$round" 'BEGIN { printf "round %s: sensorwatch wake-ups %.2f/s, with the metrics file %.2f/s, with the status file %.2f/s (target <= 1.0): %s\n", r, w, m, t, (w <= 1.0 && m <= 1.0 && t <= 1.0 ? "met" : "MISSED") }'
done
