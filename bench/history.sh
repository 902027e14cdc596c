#!/usr/bin/env bash
# Benchmark: `sensorwatch history --directory` on a journal-remote file of a fleet: 100 000
# alert entries of 40 hosts (2500 each), written host after host as uploads arrive, so the
# file's order is not time order and the reader must sort. Prints the best of three runs:
# wall time, CPU time, events/s and peak RSS, for printing everything and for one host.
# Needs systemd-journal-remote (`make deps`).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${SENSORWATCH:-$PWD/.build/release/sensorwatch}"
REMOTE=/lib/systemd/systemd-journal-remote
[ -x "$REMOTE" ] || { echo "needs $REMOTE (make deps)" >&2; exit 1; }
dir=$(mktemp -d /tmp/sw-bench-history.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$dir"' EXIT
hosts=40 per_host=2500
python3 - "$dir/fleet.export" "$hosts" "$per_host" <<'PY'
import sys
path, hosts, per_host = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
t0 = 1795558400000000
ids = {"firing": "f96e031d73b04032b5e2b8ab87332769", "resolved": "e4eda26d66284e999fe0af5ec5782b44"}
with open(path, "w") as f:
    n = 0
    for h in range(hosts):
        for k in range(per_host):
            state = "firing" if k % 2 == 0 else "resolved"
            value = 85 if state == "firing" else 50
            n += 1
            f.write(f"__REALTIME_TIMESTAMP={t0 + k * 60_000_000 + h * 1000}\n__MONOTONIC_TIMESTAMP={n}\n"
                    f"_BOOT_ID=0123456789abcdef0123456789abcdef\n_HOSTNAME=host{h:02d}\n"
                    f"SYSLOG_IDENTIFIER=sensorwatch\nMESSAGE_ID={ids[state]}\n"
                    f"MESSAGE=cpu-hot {state}: sim:cpu (CPU) {value} °C above 80 °C\n"
                    f"ALERT_RULE=cpu-hot\nALERT_STATE={state}\nALERT_SEVERITY=warning\nALERT_THRESHOLD=80\n"
                    f"SENSOR_ID=sim:cpu\nSENSOR_LABEL=CPU\nSENSOR_QUANTITY=temperature\nSENSOR_VALUE={value}\n"
                    f"SENSOR_UNIT=°C\n\n")
PY
mkdir -p "$dir/remote"
"$REMOTE" --output="$dir/remote/remote-10.0.0.1.journal" "$dir/fleet.export" 2>/dev/null
events=$((hosts * per_host))

# Best of three: "wall cpu rss" of one command.
measure() {
    local best="" line
    for _ in 1 2 3; do
        line=$( { /usr/bin/time -f "%e %U %S %M" "$@" >/dev/null; } 2>&1 | tail -n 1)
        if [ -z "$best" ] || awk -v a="$line" -v b="$best" 'BEGIN { split(a, x); split(b, y); exit !(x[1] < y[1]) }'; then
            best=$line
        fi
    done
    echo "$best"
}
report() { # WHAT EVENTS WALL USER SYS RSS
    awk -v what="$1" -v n="$2" -v wall="$3" -v u="$4" -v s="$5" -v rss="$6" 'BEGIN {
        printf "%-34s %7d events  %.2f s wall  %.2f s CPU  %.0f events/s (CPU)  %.0f MiB peak RSS\n",
            what, n, wall, u + s, n / (u + s > 0 ? u + s : 0.01), rss / 1024 }'
}
[ "$("$BIN" history --directory "$dir/remote" | grep -c .)" = "$events" ] || { echo "history lost events" >&2; exit 1; }
# shellcheck disable=SC2046
report "history --directory (all hosts)" "$events" $(measure "$BIN" history --directory "$dir/remote")
# shellcheck disable=SC2046
report "history --directory --json" "$events" $(measure "$BIN" history --directory "$dir/remote" --json)
# shellcheck disable=SC2046
report "history --directory --host host07" "$per_host" $(measure "$BIN" history --directory "$dir/remote" --host host07)
