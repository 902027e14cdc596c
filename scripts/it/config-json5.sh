#!/usr/bin/env bash
# The configuration is JSON5 as json5.org specifies it (SPEC §3): what JSON5 allows is
# accepted, Infinity and NaN are refused as values at their key path (exit 78), and
# problems come in the order they stand in the file.
set -u
. "$(dirname "$0")/lib/common.sh"
require_binary

dir=$(mktemp -d /tmp/sensorwatch-json5.XXXXXX)
trap 'rm -rf "$dir"' EXIT

# JSON5's own white space (no-break space, U+2028 as a line break, a byte order mark
# between tokens), single quotes, \x and \u escapes, a continued string, a key written
# with an escape, hex, a leading point and an explicit +.
python3 - "$dir/c.json5" <<'PY'
import sys
text = (
    "{\n"
    "  interval:\u00a0'1s',\u2028\n"
    "  sources: [ { type: 'simulated', scenario: 's.json5' } ],\n"
    "  rules: [\n"
    "    { name: 'hot\\x2d\\u0031', sensor: 'sim:*', \\u0061bove: 0x50, hysteresis: .5, severity: 'warn\\\n"
    "ing' },\n"
    "    { name: 'cold', sensor: 'sim:*', below: +5., \ufeff severity: \"notice\" }, // ends with U+2028\u2028"
    "  ],\n"
    "}\n"
)
open(sys.argv[1], "w", encoding="utf-8").write(text)
PY
cat >"$dir/s.json5" <<'S'
{ sensors: [ { id: 'a', quantity: 'temperature', samples: [[0, 0x14], [1, 21.5]] } ] }
S
expect_exit 0 "$SENSORWATCH" check --config "$dir/c.json5"
expect_out_contains "OK" "$SENSORWATCH" check --config "$dir/c.json5"

# Infinity, -Infinity and NaN parse but no key takes them.
for v in Infinity -Infinity NaN; do
    printf '{ rules: [ { name: "a", sensor: "*", above: %s } ] }\n' "$v" >"$dir/inf.json5"
    expect_exit 78 "$SENSORWATCH" check --config "$dir/inf.json5"
    expect_err_contains "$dir/inf.json5: rules[0].above: expected a finite number, found ${v#+}" \
        "$SENSORWATCH" check --config "$dir/inf.json5"
done

# Unknown keys in file order, not sorted.
printf '{ zeta: 1, rules: [], alpha: 2 }\n' >"$dir/order.json5"
expect_exit 78 "$SENSORWATCH" check --config "$dir/order.json5"
got=$("$SENSORWATCH" check --config "$dir/order.json5" 2>&1 >/dev/null)
want="$dir/order.json5: zeta: unknown key
$dir/order.json5: alpha: unknown key"
[ "$got" = "$want" ] || fail "unknown keys not in file order: $got"

# A key written twice is still an error, at its line and column.
printf "{ rules: [], 'rules': [] }\n" >"$dir/dup.json5"
expect_exit 78 "$SENSORWATCH" check --config "$dir/dup.json5"
expect_err_contains "$dir/dup.json5: line 1, column 14: duplicate key \"rules\"" "$SENSORWATCH" check --config "$dir/dup.json5"
echo "ok: the JSON5 reader takes the documented forms and names what it refuses"
