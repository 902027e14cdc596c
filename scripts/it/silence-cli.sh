#!/usr/bin/env bash
# `sensorwatch silence add|list|expire` against a private journald (SPEC §21): add prints
# an id and writes one entry with the silence fields and its own MESSAGE_ID; list shows it
# for a person and as JSON; expire ends it (an entry for the same id, SILENCE_STATE=expired)
# and list no longer shows it; bad invocations exit 64 (usage) or 78 (a glob, duration or
# time); a --rule that names no configured rule is kept with a note. Trust (§17): a silence
# entry another user writes (logger as nobody) counts for nothing, and so does one that
# `silence add` run as that user writes.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/notify.sh"
setup_journal_test
need logger bsdutils
need setpriv util-linux
start_journald
cd "$WORK"

cat >"$WORK/sensorwatch.json5" <<'JSON'
{ rules: [ { name: "fan-stopped", sensor: "sim:fan", below: 300, severity: "critical" } ] }
JSON
sw() { "$BIN" silence "$@"; }
expect_code() { # CODE ARGS...
    local want=$1 got=0
    shift
    "$BIN" silence "$@" >"$WORK/out" 2>"$WORK/err" || got=$?
    [ "$got" = "$want" ] || fail "silence $*: exit $got, expected $want (stderr: $(head -3 "$WORK/err"))"
}

# Bad invocations: usage 64, values 78; none writes an entry.
expect_code 64
expect_code 64 frobnicate
expect_code 64 add --for 1h
expect_code 64 add --rule x
expect_code 64 add --rule x --for 1h --until @4000000000
expect_code 64 add --rule x --for 1h --colour red
expect_code 64 expire
expect_code 78 add --rule 'cpu-[' --for 1h
grep -q -- '--rule:' "$WORK/err" || fail "bad glob: $(cat "$WORK/err")"
expect_code 78 add --rule x --for soon
grep -q -- "--for: 'soon'" "$WORK/err" || fail "bad duration: $(cat "$WORK/err")"
expect_code 78 add --rule x --until 2020-01-01T00:00:00Z
grep -q 'not in the future' "$WORK/err" || fail "past time: $(cat "$WORK/err")"
journalctl --sync
[ -z "$(journal_json MESSAGE_ID=9b1e4c2a7d5f4e0b8a36c1f2e7d49a50)" ] || fail "a refused silence wrote an entry"

# list with none: a sentence, and [] as JSON.
[ "$(sw list)" = "no active silences" ] || fail "empty list: $(sw list)"
[ "$(sw list --json)" = "[]" ] || fail "empty list --json: $(sw list --json)"

# add: one id on stdout, one entry with every field.
id=$(sw add --config "$WORK/sensorwatch.json5" --rule 'fan-*' --host "$(hostname)" --for 2h --comment "fan swap" 2>"$WORK/err")
[[ $id =~ ^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$ ]] || fail "add printed '$id'"
[ ! -s "$WORK/err" ] || fail "a silence that matches a rule got a note: $(cat "$WORK/err")"
entry=$(journal_json SILENCE_ID="$id")
[ "$(grep -c . <<<"$entry")" = 1 ] || fail "add wrote $(grep -c . <<<"$entry") entries"
expect_field "$entry" MESSAGE_ID 9b1e4c2a7d5f4e0b8a36c1f2e7d49a50
expect_field "$entry" SILENCE_STATE active
expect_field "$entry" SILENCE_RULE 'fan-*'
expect_field "$entry" SILENCE_SENSOR '<missing>'
expect_field "$entry" SILENCE_HOST "$(hostname)"
expect_field "$entry" SILENCE_COMMENT "fan swap"
expect_field "$entry" SILENCE_BY root
expect_field "$entry" PRIORITY 5
starts=$(jq -r .SILENCE_STARTS <<<"$entry")
ends=$(jq -r .SILENCE_ENDS <<<"$entry")
[ $(($(date -d "$ends" +%s) - $(date -d "$starts" +%s))) = 7200 ] || fail "2h from $starts is not $ends"

# A --rule that matches no configured rule is kept, with a note.
id2=$(sw add --config "$WORK/sensorwatch.json5" --rule 'cpu-hott' --until "$(date -u -d '+1 day' +%Y-%m-%dT%H:%M:%SZ)" 2>"$WORK/err")
grep -q "note: --rule 'cpu-hott' matches no rule" "$WORK/err" || fail "no note for a rule that matches nothing: $(cat "$WORK/err")"

# list: both, for a person and as JSON.
sw list >"$WORK/list"
grep -q "^ID  *MATCHERS  *STARTS  *ENDS  *BY  *COMMENT$" "$WORK/list" || fail "list header: $(cat "$WORK/list")"
grep -q "^$id  rule=fan-\* sensor=\* host=$(hostname) .* root  *fan swap$" "$WORK/list" || fail "list: $(cat "$WORK/list")"
grep -q "^$id2  rule=cpu-hott sensor=\* host=\* " "$WORK/list" || fail "list: $(cat "$WORK/list")"
json=$(sw list --json)
jq -e --arg id "$id" --arg host "$(hostname)" \
    'length == 2 and (.[] | select(.id == $id) | .rule == "fan-*" and .sensor == null and .host == $host
     and .by == "root" and .comment == "fan swap" and .state == "active" and .ends > .starts)' <<<"$json" >/dev/null \
    || fail "list --json: $json"

# Forged silences: an entry another user writes with every field, and `silence add` run as
# that user, are skipped (and counted) by list, and cannot be expired.
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
forged_silence 00000000-0000-0000-0000-00000000dead
forged=$(nobody "$BIN" silence add --sensor '*' --for 1h 2>"$WORK/err") || fail "add as nobody failed: $(cat "$WORK/err")"
grep -q "not root" "$WORK/err" || fail "add as nobody gave no note: $(cat "$WORK/err")"
wait_for "the forged entries" 100 journal_has SILENCE_ID=00000000-0000-0000-0000-00000000dead
wait_for "nobody's silence entry" 100 journal_has SILENCE_ID="$forged"
sw list --json >"$WORK/list.json" 2>"$WORK/err"
[ "$(jq length "$WORK/list.json")" = 2 ] || fail "forged silences listed: $(cat "$WORK/list.json")"
grep -q "2 silence entries skipped: not written by root" "$WORK/err" || fail "skipped entries not counted: $(cat "$WORK/err")"
expect_code 1 expire 00000000-0000-0000-0000-00000000dead
grep -q "no silence" "$WORK/err" || fail "expire of a forged silence: $(cat "$WORK/err")"

# expire: an entry for the same id, and list no longer shows it; a second expire fails.
expect_code 0 expire "$id"
[ "$(cat "$WORK/out")" = "expired $id" ] || fail "expire printed: $(cat "$WORK/out")"
entries=$(journal_json SILENCE_ID="$id")
[ "$(grep -c . <<<"$entries")" = 2 ] || fail "expire wrote no second entry"
last=$(tail -1 <<<"$entries")
expect_field "$last" SILENCE_STATE expired
expect_field "$last" SILENCE_RULE 'fan-*'
[ "$(date -d "$(jq -r .SILENCE_ENDS <<<"$last")" +%s)" -le "$(date +%s)" ] || fail "expired silence ends later"
[ "$(sw list --json 2>/dev/null | jq -r '.[].id')" = "$id2" ] || fail "list after expire: $(sw list --json)"
expect_code 1 expire "$id"
grep -q "already ended" "$WORK/err" || fail "second expire: $(cat "$WORK/err")"
expect_code 1 expire no-such-id

# No journald: add fails (exit 1) rather than pretending.
stop_journald
rm -f /run/systemd/journal/socket
expect_code 1 add --rule x --for 1h
grep -q "the silence was not kept" "$WORK/err" || fail "add without journald: $(cat "$WORK/err")"
# ... and says what is missing and what to do (issue 34); so do list, expire and history.
no_journal='no journal: systemd-journald is not running (no /run/systemd/journal/socket)'
grep -qF "$no_journal" "$WORK/err" || fail "add without journald names no cause: $(cat "$WORK/err")"
grep -q "start systemd-journald" "$WORK/err" || fail "add without journald says nothing to do: $(cat "$WORK/err")"
expect_code 1 list
grep -qF "$no_journal" "$WORK/err" || fail "list without journald: $(cat "$WORK/err")"
[ ! -s "$WORK/out" ] || fail "list without journald printed: $(cat "$WORK/out")"
expect_code 1 expire "$id2"
grep -qF "$no_journal" "$WORK/err" || fail "expire without journald: $(cat "$WORK/err")"
got=0
"$BIN" history >"$WORK/out" 2>"$WORK/err" || got=$?
[ "$got" = 1 ] || fail "history without journald: exit $got"
grep -qF "sensorwatch history: $no_journal" "$WORK/err" || fail "history without journald: $(cat "$WORK/err")"
grep -q -- "--directory DIR" "$WORK/err" || fail "history without journald says nothing to do: $(cat "$WORK/err")"
echo "ok: silence add/list/expire, bad invocations, forged entries skipped, no journald said"
