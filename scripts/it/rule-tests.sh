#!/usr/bin/env bash
# `sensorwatch test` as CI meets it (SPEC §18): the shipped tests pass, a failing file shows
# expected against got and exits 1, a bad file exits 78 with PATH: LOCATION: message, and
# the JUnit XML is valid against the schema CI systems read (xmllint).
set -u
. "$(dirname "$0")/lib/common.sh"
cd "$ROOT"
need xmllint libxml2-utils
g=scripts/it/golden/rule-tests
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect_exit 0 "$SENSORWATCH" test config/tests/*.json5
expect_out_contains "13 passed, 0 failed" "$SENSORWATCH" test config/tests/*.json5
expect_golden "$g/failing.txt" "$SENSORWATCH" test "$g/failing.json5"
expect_exit 1 "$SENSORWATCH" test "$g/failing.json5"
# A bad file: its errors (the checkout shows as ROOT), the good files still run, exit 78.
bad_in_repo() { "$SENSORWATCH" test "$g/bad.json5" config/tests/demo.json5 2>&1 | sed "s|$PWD/|ROOT/|g"; }
expect_golden "$g/bad.txt" bad_in_repo
expect_exit 78 "$SENSORWATCH" test "$g/bad.json5" config/tests/demo.json5
expect_exit 78 "$SENSORWATCH" test /nonexistent/tests.json5
expect_err_contains "/nonexistent/tests.json5: cannot read" "$SENSORWATCH" test /nonexistent/tests.json5
expect_exit 64 "$SENSORWATCH" test
expect_exit 64 "$SENSORWATCH" test --junit
expect_exit 64 "$SENSORWATCH" test --no-such-option x.json5

# simulate takes the series notation in a scenario file as it does the rest.
expect_golden "$g/series-simulate.txt" "$SENSORWATCH" simulate --config config/sensorwatch.json5 --scenario "$g/series-scenario.json5"

# JUnit: valid, one testsuite per file, a failure per failing test; times vary, so they are
# blanked for the golden comparison.
"$SENSORWATCH" test "$g/failing.json5" config/tests/demo.json5 --junit "$tmp/junit.xml" >/dev/null
expect_exit 0 xmllint --noout --schema "$g/junit.xsd" "$tmp/junit.xml"
no_times() { sed -E 's/time="[0-9.]+"/time="T"/g' "$tmp/junit.xml"; }
expect_golden "$g/junit.xml" no_times
"$SENSORWATCH" test "$g/bad.json5" --junit "$tmp/bad.xml" >/dev/null 2>&1
expect_exit 0 xmllint --noout --schema "$g/junit.xsd" "$tmp/bad.xml"
expect_exit 1 "$SENSORWATCH" test config/tests/demo.json5 --junit /nonexistent/dir/junit.xml
echo "ok: sensorwatch test: exits, golden output, JUnit"
