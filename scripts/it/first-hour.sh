#!/usr/bin/env bash
# What a new user trips over in the first hour (issue 34), as the binary and the shipped
# files answer it: a rule that selects nothing is said (check, simulate), a typo in an
# option gets "did you mean", --plot refuses a name that is not .svg, check names a
# rule-test file for what it is, notify --help has examples, and every text the user is
# pointed to exists — no output or shipped file cites the SPEC (which does not ship), every
# file and man page section named is there, and the docs' figures are the binary's.
set -u
. "$(dirname "$0")/lib/common.sh"
need strings binutils
need strip binutils
need man man-db
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(mktemp -d /tmp/sw-first-hour.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir"

# --- a rule that selects no sensor: check warns on stdout (exit 0), naming the id meant ----
cat >s.json5 <<'J'
{ duration: "10s", step: "1s", sensors: [ { id: "cpu", quantity: "temperature", start: 50 } ] }
J
cat >c.json5 <<'J'
{ sources: [ { type: "simulated", scenario: "s.json5" } ],
  rules: [ { name: "cpu-hot", sensor: "sim:cpu", above: 80 },
           { name: "cpu-typo", sensor: "sim:cpuu", above: 80 },
           { name: "dry", quantity: "humidity", below: 25 } ] }
J
out=$("$SENSORWATCH" check --config c.json5 2>/dev/null); code=$?
[ "$code" = 0 ] || fail "check with a rule that selects nothing: exit $code"
want="c.json5: rules[1]: warning: rule \"cpu-typo\" selects no sensor of this machine: sensor \"sim:cpuu\" matches no sensor id (did you mean \"sim:cpu\"?)
c.json5: rules[2]: warning: rule \"dry\" selects no sensor of this machine: there is no humidity sensor
OK"
[ "$out" = "$want" ] || fail "check's warnings:"$'\n'"$out"
# simulate says it of a sim: rule (rules for real hardware select nothing there by design).
expect_err_contains 'sensorwatch: warning: rule "cpu-typo" selects no sensor of this machine' \
    "$SENSORWATCH" simulate --config c.json5

# --- options and files ----------------------------------------------------------------------
expect_exit 64 "$SENSORWATCH" check --confg c.json5
expect_err_contains "unknown option '--confg' (did you mean --config?)" "$SENSORWATCH" check --confg c.json5
expect_exit 64 "$SENSORWATCH" simulate --config c.json5 --plot x.png
expect_err_contains "the plot is SVG; name the file .svg" "$SENSORWATCH" simulate --config c.json5 --plot x.png
[ ! -e x.png ] || fail "--plot x.png wrote x.png"
expect_exit 78 "$SENSORWATCH" check --config "$ROOT/config/tests/demo.json5"
expect_err_contains "this is a rule-test file, not a configuration: run it with \`sensorwatch test $ROOT/config/tests/demo.json5\`" \
    "$SENSORWATCH" check --config "$ROOT/config/tests/demo.json5"
examples=$("$SENSORWATCH" notify --help | sed -n '/^examples:$/,$p' | grep -c '^  sensorwatch notify')
[ "$examples" -ge 2 ] || fail "notify --help has $examples examples"
# "1 sources" no more (run's first line, on stderr where no journald listens).
if [ ! -S /run/systemd/journal/socket ]; then
    STATE_DIRECTORY=$dir/state expect_err_contains "starting: 1 source, 3 rules;" timeout -s INT 2 "$SENSORWATCH" run --config c.json5
fi

# --- what the user is pointed to exists -------------------------------------------------------
shipped=("$ROOT"/config/*.json5 "$ROOT"/config/scenarios/* "$ROOT"/config/tests/* "$ROOT"/man/* "$ROOT"/systemd/*.service
    "$ROOT"/systemd/*.catalog "$ROOT"/packaging/deb/* "$ROOT"/packaging/node-exporter-link "$ROOT"/docs/limits.md)
cites=$( (strings "$SENSORWATCH"; cat "${shipped[@]}") | grep -nE 'SPEC( |$)|SPEC\.md' | head -5)
[ -z "$cites" ] || fail "the binary or a shipped file cites the SPEC, which does not ship: $cites"
# Files of the source tree named by the binary and the shipped files are there.
for f in $( (strings "$SENSORWATCH"; cat "${shipped[@]}") | grep -oE '(docs|config|man|bench)/[A-Za-z0-9._/-]+\.(md|json5|png)' | sort -u); do
    [ -e "$ROOT/$f" ] || fail "$f is named but does not exist"
done
# Man page sections named ("see TRUST in man sensorwatch") are there.
for s in $( (strings "$SENSORWATCH"; cat "${shipped[@]}") | grep -oE '(see )?[A-Z]{4,} in man sensorwatch|man sensorwatch, [A-Z]{4,}' \
        | grep -oE '[A-Z]{4,}' | sort -u); do
    grep -q "^\.SH $s\$" "$ROOT/man/sensorwatch.8" || fail "man sensorwatch has no section $s"
done
# README sections named ('README "Configuration"') are headings of the README.
for s in $( (strings "$SENSORWATCH"; cat "${shipped[@]}") | grep -oE 'README(\.md)? "[^"]+"' | sed -E 's/.*"(.*)"/\1/' | tr ' ' '_' | sort -u); do
    grep -q "^#\+ ${s//_/ }\$" "$ROOT/README.md" || fail "README has no section \"${s//_/ }\""
done

# --- the docs say what the binary is --------------------------------------------------------
cp "$SENSORWATCH" sw
strip --remove-section=.comment --remove-section=.note --strip-unneeded sw
mb=$(awk -v b="$(stat -c %s sw)" 'BEGIN { printf "%.1f", b / 1e6 }')
said=$(grep -oE 'stripped \([0-9.]+ MB' "$ROOT/docs/packaging.md" | grep -oE '[0-9.]+')
awk -v a="$mb" -v b="$said" 'BEGIN { exit !(a - b <= 0.3 && b - a <= 0.3) }' \
    || fail "docs/packaging.md says the stripped binary is $said MB; it is $mb MB"
grep -q 'libcurl4' "$ROOT/docs/packaging.md" || fail "docs/packaging.md does not list libcurl4"
grep -q 'libcurl4' "$ROOT/scripts/make-deb.sh" || fail "the package does not depend on libcurl4"
# Every quantity and unit the binary reads is in the man page's SENSOR_QUANTITY/SENSOR_UNIT.
fields=$(MANWIDTH=200 man -l "$ROOT/man/sensorwatch.8" 2>/dev/null | grep -A1 -E '^ +SENSOR_(QUANTITY|UNIT)$')
for q in temperature humidity pressure fan voltage power current; do
    grep -qw "$q" <<<"$fields" || fail "man sensorwatch's SENSOR_QUANTITY lacks $q"
done
for u in '°C' '%RH' hPa rpm 'V' 'W' 'A'; do grep -qF " $u" <<<"$fields" || fail "man sensorwatch's SENSOR_UNIT lacks $u"; done
MANWIDTH=100 man -l "$ROOT/man/sensorwatch.8" 2>/dev/null | grep -q "tempN_max," || fail "man sensorwatch: tempN_max renders wrongly"
echo "ok: a newcomer's first hour: warnings, usage hints, documents the binary names"
