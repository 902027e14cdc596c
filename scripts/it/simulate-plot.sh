#!/usr/bin/env bash
# `simulate --plot`: the SVG of the demo run, of a predict rule's run and of a 50-sensor run
# is valid XML (xmllint) and renders (rsvg-convert); `--sensor GLOB` chooses the panels; a glob that matches no
# sensor, a bad glob, or --sensor without --plot is a usage error (64) and writes nothing;
# names with XML's special characters stay well-formed; events print as without --plot.
set -u
. "$(dirname "$0")/lib/common.sh"
cd "$(dirname "$0")/../.."

# The two checkers; installed here so that CI does not skip.
need xmllint libxml2-utils
need rsvg-convert librsvg2-bin

work=$(mktemp -d /tmp/sensorwatch-it-plot.XXXXXX)
trap 'rm -rf "$work"' EXIT

# Valid XML that renders to a PNG of some size.
expect_renders() {
    local svg=$1
    xmllint --noout "$svg" 2>"$work/xmllint.err" || fail "$svg is not well-formed: $(head -3 "$work/xmllint.err")"
    rsvg-convert "$svg" -o "$svg.png" 2>"$work/rsvg.err" || fail "rsvg-convert failed on $svg: $(cat "$work/rsvg.err")"
    [ "$(stat -c %s "$svg.png")" -gt 10000 ] || fail "$svg.png is suspiciously small"
}
panels() { grep -o '<tspan font-weight="bold">[^<]*</tspan>' "$1" | sed 's/<[^>]*>//g' | tr '\n' ' '; }

# The demo: same events as without --plot, four panels, named thresholds, a legend.
demo=config/sensorwatch.json5
expect_golden scripts/it/golden/simulate-demo.txt "$SENSORWATCH" simulate --config "$demo" --plot "$work/demo.svg"
expect_renders "$work/demo.svg"
[ "$(panels "$work/demo.svg")" = "sim:baro sim:cpu sim:outdoor sim:room " ] || fail "demo panels: $(panels "$work/demo.svg")"
for want in 'sim-cpu-hot &gt; 80 °C (clears ≤ 77)' 'dry-air &lt; 25 %RH (clears ≥ 28)' \
    'storm: fall by 3 within 20s · notice' '15 failed reads 20 s – 34 s' '>10 s</text>' '>1 min</text>'; do
    grep -qF -- "$want" "$work/demo.svg" || fail "demo plot lacks '$want'"
done

# --sensor chooses panels (repeatable); the legend keeps only the rules of those sensors.
expect_exit 0 "$SENSORWATCH" simulate --config "$demo" --plot "$work/two.svg" --sensor 'sim:c*' --sensor='*room'
expect_renders "$work/two.svg"
[ "$(panels "$work/two.svg")" = "sim:cpu sim:room " ] || fail "--sensor panels: $(panels "$work/two.svg")"
grep -qF 'storm:' "$work/two.svg" && fail "--sensor plot still lists the pressure rule"

# A predict rule (the README's example configuration): its threshold line and its predicted
# value, dashed and named.
expect_exit 0 "$SENSORWATCH" simulate --config docs/plot-example.json5 --plot "$work/predict.svg"
expect_renders "$work/predict.svg"
for want in 'cpu-trend predicted (+10s)' 'cpu-trend: predicted &gt; 85 °C (clears ≤ 80)' 'predicted (predict rules)'; do
    grep -qF -- "$want" "$work/predict.svg" || fail "predict plot lacks '$want'"
done
grep -q 'stroke="#ff7f0e" stroke-width="1.5" stroke-linejoin="round" stroke-dasharray="2 2"' "$work/predict.svg" \
    || fail "predict plot has no dashed predicted line"

# Usage errors write nothing.
expect_exit 64 "$SENSORWATCH" simulate --config "$demo" --plot "$work/none.svg" --sensor 'sim:cpx'
expect_err_contains '--sensor "sim:cpx" matches no sensor; the run has sim:baro, sim:cpu, sim:outdoor, sim:room' \
    "$SENSORWATCH" simulate --config "$demo" --plot "$work/none.svg" --sensor 'sim:cpx'
expect_exit 64 "$SENSORWATCH" simulate --config "$demo" --plot "$work/none.svg" --sensor 'sim:*' --sensor 'typo'
expect_exit 64 "$SENSORWATCH" simulate --config "$demo" --plot "$work/none.svg" --sensor 'sim:[cpu'
expect_err_contains 'unclosed [' "$SENSORWATCH" simulate --config "$demo" --plot "$work/none.svg" --sensor 'sim:[cpu'
expect_exit 64 "$SENSORWATCH" simulate --config "$demo" --sensor 'sim:*'
[ -e "$work/none.svg" ] && fail "a usage error wrote the plot"
expect_exit 1 "$SENSORWATCH" simulate --config "$demo" --plot "$work/no/such/dir.svg"
expect_out_contains '--sensor GLOB' "$SENSORWATCH" simulate --help

# Names with <, & and " in them.
mkdir -p "$work/odd"
cat >"$work/odd/s.json5" <<'S'
{ duration: "20s", step: "1s", sensors: [
  { id: "a.b", quantity: "temperature", label: "<\"odd\" & label>", start: 10, segments: [ { ramp: 30, over: "10s" }, { dropout: "3s" } ] },
] }
S
cat >"$work/odd/c.json5" <<'C'
{ sources: [ { type: "simulated", scenario: "s.json5" } ],
  rules: [ { name: "hot<&\">", sensor: "sim:a.b", above: 20, hysteresis: 2 }, { name: "gone&", sensor: "*", stale: "2s" } ] }
C
expect_exit 0 "$SENSORWATCH" simulate --config "$work/odd/c.json5" --plot "$work/odd.svg"
expect_renders "$work/odd.svg"
grep -qF 'hot&lt;&amp;&quot;&gt; &gt; 20 °C' "$work/odd.svg" || fail "rule name not escaped in the threshold label"

# 50 sensors over 3 hours: a compact grid, every panel there, renders, and --sensor picks some.
mkdir -p "$work/many"
{
    echo '{ duration: "3h", step: "10s", seed: 7, sensors: ['
    for i in $(seq 1 50); do
        case $((i % 3)) in
        0) echo "{ id: \"rack$i\", quantity: \"temperature\", label: \"Rack $i\", start: $((40 + i % 7)), noise: 0.4, segments: [ { ramp: $((60 + i % 30)), over: \"$((20 + i))m\" }, { sine: 3, period: \"20m\", over: \"40m\" }, { dropout: \"$((i % 4 + 1))m\" }, { ramp: 45, over: \"1h\" } ] },";;
        1) echo "{ id: \"hum$i\", quantity: \"humidity\", start: $((30 + i % 20)), noise: 0.5, segments: [ { ramp: $((15 + i % 15)), over: \"1h\" }, { hold: \"20m\" }, { ramp: 45, over: \"1h\" } ] },";;
        2) echo "{ id: \"baro$i\", quantity: \"pressure\", label: \"Site $i\", start: 1013, noise: 0.2, segments: [ { hold: \"30m\" }, { ramp: $((1000 + i % 9)), over: \"1h\" }, { ramp: 1012, over: \"1h\" } ] },";;
        esac
    done
    echo '] }'
} >"$work/many/s.json5"
cat >"$work/many/c.json5" <<'C'
{ sources: [ { type: "simulated", scenario: "s.json5" } ],
  rules: [
    { name: "rack-hot", sensor: "sim:rack*", above: 75, hysteresis: 4, for: "2m", repeat: "15m" },
    { name: "rack-crit", sensor: "sim:rack*", above: 85, severity: "critical" },
    { name: "dry", quantity: "humidity", below: 25, hysteresis: 3, severity: "notice" },
    { name: "silent", sensor: "*", stale: "1m" },
  ] }
C
expect_exit 0 "$SENSORWATCH" simulate --config "$work/many/c.json5" --plot "$work/many.svg"
expect_renders "$work/many.svg"
n=$(panels "$work/many.svg" | wc -w)
[ "$n" -eq 50 ] || fail "50-sensor plot has $n panels"
case "$(panels "$work/many.svg")" in "sim:baro2 sim:baro5 sim:baro8 sim:baro11 "*) ;; *) fail "panels not in natural order";; esac
grep -qF '>1 h 30 min</text>' "$work/many.svg" || fail "3-hour axis lacks the 1 h 30 min tick"
expect_exit 0 "$SENSORWATCH" simulate --config "$work/many/c.json5" --plot "$work/racks.svg" --sensor 'sim:rack*'
n=$(panels "$work/racks.svg" | wc -w)
[ "$n" -eq 16 ] || fail "--sensor 'sim:rack*' gave $n panels, expected 16"
expect_renders "$work/racks.svg"
echo "ok: simulate --plot draws the documented panels"
