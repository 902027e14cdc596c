#!/usr/bin/env bash
# Against the real prometheus-node-exporter (Debian's), reading node_exporter's own sysfs
# fixture (with its symlinks rebuilt): every temperature, fan and voltage its hwmon collector
# reports must be one of ours with the same value, every limit it reports that SPEC §16
# calls plausible must be ours with the same value (and no other), every other one listed
# as ignored; its thermal zone must read as ours. node_exporter listens on 127.0.0.1 only.
set -euo pipefail
: "${SENSORWATCH:?path of the release binary}"
: "${SHARED:?path of the shared directory}"
source "$(dirname "$0")/lib/common.sh"
require_binary
need python3 python3
need curl curl
need prometheus-node-exporter prometheus-node-exporter
lib="$(dirname "$0")/lib"

work=$(mktemp -d /tmp/sensorwatch-it-nodeexp.XXXXXX)
exporter=
cleanup() {
    if [ -n "$exporter" ]; then kill "$exporter" 2>/dev/null || true; wait "$exporter" 2>/dev/null || true; fi
    [ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
. "$lib/fixtures.sh"
fixture=$(node_exporter_fixture "$work/fx")

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
prometheus-node-exporter --path.sysfs="$fixture/sys" --collector.disable-defaults --collector.hwmon \
    --collector.thermal_zone --web.listen-address="127.0.0.1:$port" >"$work/exporter.log" 2>&1 &
exporter=$!
scrape() { curl -sf "http://127.0.0.1:$port/metrics" >"$work/metrics.txt" 2>/dev/null; }
wait_for "node_exporter's metrics" 100 scrape
grep -q '^node_hwmon_temp_celsius' "$work/metrics.txt" || { cat "$work/exporter.log"; fail "node_exporter served no hwmon series"; }

cat >"$work/sensorwatch.json5" <<CONF
{
  sources: [
    { type: "hwmon", root: "$fixture/sys/class/hwmon" },
    { type: "thermal", root: "$fixture/sys/class/thermal" },
  ],
  rules: [],
}
CONF
"$SENSORWATCH" sensors --json --config "$work/sensorwatch.json5" >"$work/ours.json" || fail "sensorwatch sensors failed"
python3 "$lib/chips.py" nodeexp "$work/ours.json" "$work/metrics.txt" || {
    echo "--- node_exporter"; grep -E '^node_(hwmon|thermal)' "$work/metrics.txt" | grep -v -E 'pwm|beep|alarm'
    echo "--- sensorwatch sensors --json"; cat "$work/ours.json"
    fail "sensorwatch and node_exporter disagree"
}
echo "ok: every temperature, fan and voltage node_exporter reports is ours, with its plausible limits"
