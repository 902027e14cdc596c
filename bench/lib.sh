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

# Resident set size (VmRSS) of process $1 in KiB.
rss_kib() { awk '/^VmRSS:/ {print $2}' /proc/"$1"/status; }
