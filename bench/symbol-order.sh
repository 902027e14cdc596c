#!/usr/bin/env bash
# Writes packaging/symbol-order.txt, the order in which `make release` lays out the
# functions (lld's --symbol-ordering-file): first every function the steady poll loop runs,
# then every other function start-up runs, each set by name. Executed code then sits on
# few pages, and few pages are resident: bench/README.md, "binary size" and "resident".
#
# How: `run` at 1000 fake thermal zones (bind-mounted over /sys/class/thermal in a private
# mount namespace) at 100 ms with one rule, the metrics file and the status file, under
# valgrind's callgrind. The first dump, at START seconds, holds start-up; the second, STEADY
# seconds later, what ran since (the steady loop). Only names the binary defines are kept.
# Then the same for `run` reading IPMI_BMCS simulated BMCs (OpenIPMI's ipmi_sim from
# ../shared/fixtures/ipmi on 127.0.0.1, ports IPMI_PORT, IPMI_PORT+2, …): their steady loop's
# functions that the thermal one does not run come right after it, so a rack of BMCs touches
# few pages too (bench/README.md, "resident with 20 BMCs"). IPMI=0, or no ipmi_sim, skips it.
# Run it again when the code has moved on: package-deb.sh fails when fewer than 90 % of the
# file's names are still in the binary.
#
# env: SENSORWATCH (default .build/release/sensorwatch, built by `make release`), START (15),
#      STEADY (20), IPMI (1), IPMI_BMCS (4), IPMI_PORT (19680), SHARED (../shared).
#      Needs root (unshare -m, mount), valgrind, cc, nm; for the BMCs openipmi, libfreeipmi17.
set -euo pipefail
START=${START:-15}
STEADY=${STEADY:-20}
here=$(cd "$(dirname "$0")" && pwd)
SENSORWATCH=${SENSORWATCH:-$here/../.build/release/sensorwatch}
OUT=${OUT:-$here/../packaging/symbol-order.txt}
IPMI=${IPMI:-1}
IPMI_BMCS=${IPMI_BMCS:-4}
IPMI_PORT=${IPMI_PORT:-19680}
SHARED=${SHARED:-$here/../../shared}
export START STEADY SENSORWATCH OUT IPMI IPMI_BMCS IPMI_PORT SHARED

if [ "${1:-}" != "--inside" ]; then
    [ "$(id -u)" -eq 0 ] || { echo "symbol-order: needs root (unshare -m, mount)" >&2; exit 1; }
    for tool in valgrind callgrind_control cc nm; do
        command -v "$tool" >/dev/null || { echo "symbol-order: needs $tool" >&2; exit 1; }
    done
    exec unshare -m --propagation private -- bash "$0" --inside
fi

# ---- inside the private mount namespace: nothing mounted here is seen outside ----
work=$(mktemp -d /tmp/sensorwatch-order.XXXXXX)
pids=()
# shellcheck source=bench/lib.sh
source "$here/lib.sh"
trap cleanup_bench EXIT

mount_thermal_zones 1000
cat >"$work/sensorwatch.json5" <<CONF
{
  interval: "100ms",
  sources: [ { type: "thermal" } ],
  rules: [ { name: "bench-hot", sensor: "thermal:*", above: 80, severity: "warning" } ],
  metrics: { textfile: "$work/metrics.prom" },
  statusFile: "$work/status.json",
}
CONF
(cd "$work" && STATE_DIRECTORY=$work exec valgrind --tool=callgrind --demangle=no \
    --callgrind-out-file="$work/callgrind.out" "$SENSORWATCH" run --config "$work/sensorwatch.json5" \
    >"$work/run.log" 2>&1) &
pids+=($!)
sleep "$START"
pid=${pids[0]}
callgrind_control -d "$pid" >/dev/null 2>&1
sleep "$STEADY"
callgrind_control -d "$pid" >/dev/null 2>&1

# The function names of each dump, in its order of first appearance (callgrind names a
# function once, `fn=(N) name`, then by number).
names() {
    awk '/^c?fn=\([0-9]+\) / { sub(/^c?fn=\([0-9]+\) /, ""); if (!seen[$0]++) print }' "$1"
}
dumps=("$work"/callgrind.out.*)
[ "${#dumps[@]}" -ge 2 ] || { echo "symbol-order: callgrind made ${#dumps[@]} dumps, not 2" >&2; cat "$work/run.log" >&2; exit 1; }
names "$work/callgrind.out.1" | sort >"$work/start"
names "$work/callgrind.out.2" | sort >"$work/steady"
kill "$pid"; wait "$pid" 2>/dev/null || true
nm --defined-only "$SENSORWATCH" | awk '$2 ~ /^[tTwW]$/ { print $3 }' | sort -u >"$work/defined"

# The BMCs' pass: the same two dumps of `run` on simulators (a 5 s timeout: valgrind is slow).
: >"$work/ipmi-steady"
if [ "$IPMI" = 1 ] && command -v ipmi_sim >/dev/null && [ -d "$SHARED/fixtures/ipmi" ]; then
    printf 'secret\n' >"$work/bmc.pass"; chmod 600 "$work/bmc.pass"
    hosts=""
    for i in $(seq 0 $((IPMI_BMCS - 1))); do
        port=$((IPMI_PORT + 2 * i))
        pids+=("$("$SHARED/fixtures/ipmi/start-sim.sh" "$work/sim-$port" "$port")")
        hosts+="\"127.0.0.1:$port\", "
    done
    mkdir -p "$work/ipmi"
    cat >"$work/ipmi/sensorwatch.json5" <<CONF
{ sources: [ { type: "ipmi", hosts: [$hosts], user: "admin", passwordFile: "$work/bmc.pass", privilege: "admin",
               workarounds: ["opensesspriv"], interval: "2s", timeout: "5s" } ],
  rules: [ { name: "bench-hot", sensor: "ipmi:*", above: "crit", severity: "warning" } ],
  statusFile: "$work/ipmi/status.json" }
CONF
    (cd "$work/ipmi" && STATE_DIRECTORY=$work/ipmi exec valgrind --tool=callgrind --demangle=no \
        --callgrind-out-file="$work/ipmi/callgrind.out" "$SENSORWATCH" run --config "$work/ipmi/sensorwatch.json5" \
        >"$work/ipmi/run.log" 2>&1) &
    pids+=($!)
    pid=${pids[-1]}
    sleep "$START"
    callgrind_control -d "$pid" >/dev/null 2>&1
    sleep "$STEADY"
    callgrind_control -d "$pid" >/dev/null 2>&1
    dumps=("$work"/ipmi/callgrind.out.*)
    [ "${#dumps[@]}" -ge 2 ] || { echo "symbol-order: callgrind made ${#dumps[@]} dumps of the BMCs' run, not 2" >&2; cat "$work/ipmi/run.log" >&2; exit 1; }
    names "$work/ipmi/callgrind.out.1" | sort -u - "$work/start" >"$work/both-start"
    mv "$work/both-start" "$work/start"
    names "$work/ipmi/callgrind.out.2" | sort | comm -23 - "$work/steady" >"$work/ipmi-steady"
fi
sort -u "$work/steady" "$work/ipmi-steady" >"$work/all-steady"
{
    comm -12 "$work/steady" "$work/defined"
    comm -12 "$work/ipmi-steady" "$work/defined"
    comm -23 "$work/start" "$work/all-steady" | comm -12 - "$work/defined"
} >"$OUT"
echo "symbol-order: $(comm -12 "$work/steady" "$work/defined" | wc -l) steady, $(comm -12 "$work/ipmi-steady" "$work/defined" | wc -l) more the BMCs' steady, $(wc -l <"$OUT") in all -> $OUT"
