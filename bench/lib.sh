# Shared helpers of the benchmarks in bench/ (sourced, never run by itself).

# Sum of on-CPU nanoseconds of every thread of process $1 (first field of each
# /proc/PID/task/*/schedstat): counts threads that come and go, unlike one /proc/PID/stat.
cpu_ns() {
    local total=0 t v
    for t in /proc/"$1"/task/*/schedstat; do
        read -r v _ <"$t" 2>/dev/null || continue
        total=$((total + v))
    done
    echo "$total"
}

# The median of the numbers on standard input, one a line (nothing for none).
median_of() {
    sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

# "switches/s CPU-µs/s RSS-KiB" of a command, from a SHORT and a LONG run of it under
# `$work/rusage-run` (bench/rusage-run.c, compiled there by the caller), differenced; the
# RSS is VmRSS at the end of the long run.
# Prints: context switches a second (voluntary + involuntary), CPU µs a second, the long
# run's VmRSS in KiB, and the voluntary switches a second alone — the wake-ups proper: an
# involuntary switch is another process taking the CPU (preemption on a loaded machine),
# not the program waking.
per_second() {
    local s l
    s=$("$work/rusage-run" "$SHORT" "$@" 2>/dev/null)
    l=$("$work/rusage-run" "$LONG" "$@" 2>/dev/null)
    awk -v s="$s" -v l="$l" -v d=$((LONG - SHORT)) 'BEGIN {
        split(s, a, " "); split(l, b, " ")
        printf "%.2f %.1f %d %.2f\n", ((b[1] + b[2]) - (a[1] + a[2])) / d, (b[3] - a[3]) / 1000 / d, b[5], (b[1] - a[1]) / d }'
}

# Resident set size (VmRSS) of process $1 in KiB.
rss_kib() { awk '/^VmRSS:/ {print $2}' /proc/"$1"/status; }

# EXIT trap of a benchmark in a private mount namespace: stops the processes it started
# (the global array `pids`), unmounts the fake /sys/class/thermal and `$work/tree`, and
# removes `$work` unless KEEP is set.
cleanup_bench() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
    umount /sys/class/thermal 2>/dev/null || true
    umount "$work/tree" 2>/dev/null || true
    if [ -n "${KEEP:-}" ]; then echo "bench: kept $work" >&2; else rm -rf "$work"; fi
}

# Puts N fake thermal zones over /sys/class/thermal (a tmpfs at `$work/tree`, bind-mounted;
# `cleanup_bench` undoes both) and compiles bench/rusage-run.c to `$work/rusage-run`.
mount_thermal_zones() { # N
    mkdir -p "$work/tree"
    mount -t tmpfs -o size=64m tmpfs "$work/tree"
    write_thermal_zones "$work/tree" "$1"
    mount --bind "$work/tree" /sys/class/thermal
    cc -O2 -o "$work/rusage-run" "$here/rusage-run.c"
}

# Writes N fake thermal zones into DIR (thermal_zoneI/type "bench_zone", temp 40…69 °C).
write_thermal_zones() { # DIR N
    python3 - "$1" "$2" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    d = f"{root}/thermal_zone{i}"
    os.mkdir(d)
    with open(f"{d}/type", "w") as f: f.write("bench_zone\n")
    with open(f"{d}/temp", "w") as f: f.write(f"{40000 + (i % 30) * 1000}\n")
PY
}

# In a benchmark's private mount namespace: a tmpfs /run (and journal directory) with a
# journald of its own, configured with the [Journal] lines given as arguments
# (`start_bench_journald Storage=volatile`), its PID added to `pids`;
# returns once its socket is there. Needs `work` (the benchmark's temporary directory).
# Started as the integration tests start theirs (scripts/it/lib/common.sh, start_journald).
start_bench_journald() {
    mount -t tmpfs none /run
    if [ -d /var/log/journal ]; then mount -t tmpfs none /var/log/journal; fi
    printf '%s\n' '[Journal]' "$@" >"$work/journald.conf"
    mount --bind "$work/journald.conf" /etc/systemd/journald.conf
    (
        # The harness's own variables stay in this subshell; only the PID comes out.
        source "$(dirname "${BASH_SOURCE[0]}")/../scripts/it/lib/common.sh"
        start_journald >&2
        echo "$JOURNALD_PID" >"$work/journald.pid"
    ) </dev/null || { echo "bench: journald did not start" >&2; exit 1; }
    pids+=("$(cat "$work/journald.pid")")
}

# Runs COMMAND, skips its first SKIP seconds (start-up, discovery), then counts its threads'
# context switches over the next SPAN seconds from /proc/PID/task/*/status, and stops it.
# Prints: voluntary switches a second (the wake-ups), involuntary ones a second, and the
# number of threads. One run, differenced inside it: start-up and stop do not enter, as they
# do (and vary) in the wait4 difference of two runs; a thread that ends during SPAN takes its
# count away (none does in a steady `run`: the thread count is printed to check).
thread_switches() { # SKIP SPAN COMMAND [ARGS...]
    local skip=$1 span=$2 pid v1 n1 v2 n2 threads
    shift 2
    "$@" >/dev/null 2>&1 &
    pid=$!
    sleep "$skip"
    read -r v1 n1 < <(cat /proc/"$pid"/task/*/status 2>/dev/null | awk '/^voluntary_ctxt_switches/ {v += $2} /^nonvoluntary_ctxt_switches/ {n += $2} END {print v + 0, n + 0}')
    sleep "$span"
    read -r v2 n2 < <(cat /proc/"$pid"/task/*/status 2>/dev/null | awk '/^voluntary_ctxt_switches/ {v += $2} /^nonvoluntary_ctxt_switches/ {n += $2} END {print v + 0, n + 0}')
    threads=$(ls /proc/"$pid"/task | wc -l)
    kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true
    awk -v v=$((v2 - v1)) -v n=$((n2 - n1)) -v d="$span" -v t="$threads" 'BEGIN { printf "%.2f %.2f %d\n", v / d, n / d, t }'
}
