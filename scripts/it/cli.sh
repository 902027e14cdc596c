#!/usr/bin/env bash
# The command line as a user meets it: help, version, usage errors and their exit codes.
set -u
. "$(dirname "$0")/lib/common.sh"
require_binary

expect_exit 0 "$SENSORWATCH" --version
expect_out_contains "sensorwatch " "$SENSORWATCH" --version
expect_exit 0 "$SENSORWATCH" --help
for cmd in run check sensors simulate history record test status watch top; do
    expect_out_contains "$cmd" "$SENSORWATCH" --help
    expect_exit 0 "$SENSORWATCH" "$cmd" --help
    expect_out_contains "usage: sensorwatch $cmd" "$SENSORWATCH" "$cmd" --help
    expect_exit 64 "$SENSORWATCH" "$cmd" --no-such-option
done
# Every --help ends with two or three examples.
for cmd in "" run check sensors simulate history record test status watch top; do
    examples=$("$SENSORWATCH" $cmd --help | sed -n '/^examples:$/,$p' | tail -n +2)
    n=$(printf '%s\n' "$examples" | grep -c '^  [a-z]')
    [ "$n" -ge 2 ] && [ "$n" -le 3 ] || fail "'sensorwatch $cmd --help' ends with $n examples, not 2 or 3"
done
expect_exit 64 "$SENSORWATCH"
expect_exit 64 "$SENSORWATCH" frobnicate
expect_err_contains "unknown command 'frobnicate'" "$SENSORWATCH" frobnicate
expect_exit 64 "$SENSORWATCH" check --config
expect_err_contains "option --config needs a value" "$SENSORWATCH" check --config
expect_exit 78 "$SENSORWATCH" check --config /nonexistent/sensorwatch.json5
expect_exit 78 "$SENSORWATCH" run --config /nonexistent/sensorwatch.json5
SENSORWATCH_CONFIG=/nonexistent/env.json5 expect_err_contains "/nonexistent/env.json5" "$SENSORWATCH" check
# Every command reads its options through one parser: an empty $SENSORWATCH_CONFIG is unset,
# so the default path is tried (`sensors` once opened "" instead).
if [ ! -e /etc/sensorwatch/sensorwatch.json5 ]; then
    for cmd in check sensors; do
        SENSORWATCH_CONFIG= expect_err_contains "/etc/sensorwatch/sensorwatch.json5: cannot read" "$SENSORWATCH" $cmd
    done
fi
expect_exit 64 "$SENSORWATCH" sensors --no-such-option
expect_err_contains "unknown option '--no-such-option'" "$SENSORWATCH" sensors --no-such-option
expect_exit 64 "$SENSORWATCH" sensors --json=yes
# A poll interval below 10 ms would spin the daemon (SPEC §3): refused in the §2 form.
spin=$(mktemp -d)
printf '{ interval: "1ns", sources: [{ type: "thermal", interval: "5ms" }] }\n' >"$spin/c.json5"
expect_exit 78 "$SENSORWATCH" check --config "$spin/c.json5"
expect_exit 78 timeout 10 "$SENSORWATCH" run --config "$spin/c.json5"
expect_err_contains "$spin/c.json5: interval: must be at least 10ms" "$SENSORWATCH" check --config "$spin/c.json5"
expect_err_contains "$spin/c.json5: sources[0].interval: must be at least 10ms" "$SENSORWATCH" check --config "$spin/c.json5"
rm -rf "$spin"
# Golden output: the demo simulation (readable and JSON) and every error of broken files.
g=scripts/it/golden
expect_golden "$g/simulate-demo.txt" "$SENSORWATCH" simulate --config config/sensorwatch.json5
expect_golden "$g/simulate-demo.jsonl" "$SENSORWATCH" simulate --config config/sensorwatch.json5 --json
expect_golden "$g/check-broken.txt" "$SENSORWATCH" check --config "$g/broken.json5"
expect_golden "$g/check-syntax.txt" "$SENSORWATCH" check --config "$g/syntax.json5"
expect_golden "$g/history-help.txt" "$SENSORWATCH" history --help
expect_exit 78 "$SENSORWATCH" simulate --config "$g/broken.json5"
# A missing scenario or CSV: the file and key that name it, the name and the absolute path
# tried (the checkout's directory shows as ROOT).
check_in_repo() { "$SENSORWATCH" check --config "$1" 2>&1 | sed "s|$PWD/|ROOT/|g"; }
expect_golden "$g/check-missing-files.txt" check_in_repo "$g/missing-files.json5"
expect_exit 78 "$SENSORWATCH" check --config "$g/missing-files.json5"

# The man pages render without a warning (they cover every command, test and status too).
for page in man/sensorwatch.8 man/sensorwatch.json5.5; do
    warnings=$(MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -E UTF-8 -l "$page" 2>&1 >/dev/null)
    [ -z "$warnings" ] || fail "man --warnings on $page: $warnings"
done
for cmd in run check sensors simulate history record test status watch top; do
    grep -q "^\.SY \"sensorwatch $cmd\"" man/sensorwatch.8 || fail "sensorwatch(8) has no synopsis of $cmd"
done

# The shipped configurations are valid.
for c in config/sensorwatch.json5 config/sensorwatch.example.json5; do
    expect_exit 0 "$SENSORWATCH" check --config "$c"
    expect_out_contains "OK" "$SENSORWATCH" check --config "$c"
done
echo "ok: every command answers --help, usage errors exit 64, configuration errors 78"
