#!/usr/bin/env bash
# Text from outside the program is shown escaped (SPEC §19, §7): a fake hwmon chip whose
# temp1_label holds ESC[2J (clear the screen), an OSC 52 sequence (write the clipboard),
# `\r` and `\n<0>forged` (a priority-0 line on stderr), a rule whose name holds BEL and an
# OSC title, and a rule that fires on the chip. No raw control character but the program's
# own SGR colours reaches `sensors`, `sensors --json` (valid JSON, the label as read),
# `status`, `status --check` (one line, one `|`, perfdata the guidelines' way), `run` on a
# terminal and not (events, a fault and its recovery), `simulate`, `check`'s errors and
# `history` (a real journald, an entry written by root with ESC in SENSOR_LABEL and one by
# user nobody); no
# stderr line starts with `<0>`. Runs in private namespaces: /run has no journald until
# the history part starts one.
set -u
. "$(dirname "$0")/lib/common.sh"
setup_journal_test
need python3 python3
need logger bsdutils
need setpriv util-linux
cd "$ROOT"
daemon=
cleanup() {
    if [ -n "$daemon" ]; then kill "$daemon" 2>/dev/null; wait "$daemon" 2>/dev/null; fi
    stop_journald
}
trap cleanup EXIT

label=$'\e[2J\e]52;c;aGk=\a\r\n<0>forged'
shown='\x1b[2J\x1b]52;c;aGk=\x07\r\n<0>forged'
h=$WORK/hwmon
mkdir -p "$h/hwmon0"
printf 'evil chip|x\n' >"$h/hwmon0/name"
printf '%s\n' "$label" >"$h/hwmon0/temp1_label"
printf '91000\n' >"$h/hwmon0/temp1_input"
printf '80000\n' >"$h/hwmon0/temp1_max"
printf '95000\n' >"$h/hwmon0/temp1_crit"
id='hwmon:evil chip|x-virtual-0/temp1'
config=$WORK/sensorwatch.json5
cat >"$config" <<JSON
{
  interval: "100ms",
  sources: [ { type: "hwmon", root: "$h" } ],
  statusFile: "$WORK/status.json",
  rules: [ { name: "hot\u0007\u001b]0;pwned\u0007", quantity: "temperature", above: 85, severity: "critical" } ],
}
JSON
rule_shown='hot\x07\x1b]0;pwned\x07'

# clean FILE [sgr]: fails when FILE holds a control character (C0 but the line feed, DEL,
# C1) other than, with `sgr`, the colours `run` paints severities with.
clean() {
    local why
    why=$(python3 - "$1" "${2:-}" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
if sys.argv[2] == "sgr":
    for sgr in (b"\x1b[1;31m", b"\x1b[31m", b"\x1b[33m", b"\x1b[0m"):
        data = data.replace(sgr, b"")
text = data.decode("utf-8", "replace")
bad = [c for c in text if (ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) <= 0x9F]
if bad:
    print(f"{len(bad)} raw control characters, first {bad[0]!r}: {text[:400]!r}")
PY
)
    [ -z "$why" ] || fail "$1: $why"
}
# has_line FILE TEXT: whether a line of FILE holds TEXT (a fixed string).
has_line() { grep -qF -- "$2" "$1"; }
# no_forged_line FILE: no line starts with <0>, and `forged` is only ever in the escaped label.
no_forged_line() {
    grep -q '^<0>' "$1" && fail "$1: a line starts with <0>: $(grep -n '^<0>' "$1" | head -n 3)"
    [ "$(grep -c forged "$1")" = "$(grep -cF -- '\n<0>forged' "$1")" ] \
        || fail "$1: 'forged' outside the escaped label: $(grep -n forged "$1" | grep -vF -- '\n<0>forged' | head -n 3)"
}

# sensors, as a table and as JSON.
"$BIN" sensors --config "$config" >"$WORK/sensors.txt" 2>&1
clean "$WORK/sensors.txt"
has_line "$WORK/sensors.txt" "$id  $shown  temperature  91 °C (max 80 °C, crit 95 °C)" \
    || fail "sensors: the label is not shown escaped on its row: $(cat -v "$WORK/sensors.txt")"
"$BIN" sensors --config "$config" --json >"$WORK/sensors.json"
clean "$WORK/sensors.json"
python3 - "$WORK/sensors.json" "$label" "$id" <<'PY' || fail "sensors --json: not valid JSON with the label as read"
import json, sys
readings = json.load(open(sys.argv[1]))
assert [(r["id"], r["label"]) for r in readings] == [(sys.argv[3], sys.argv[2])], readings
PY
note "sensors: the label escaped on its row; --json valid, the label as read"

# run, not on a terminal, no journald: <N> lines on stderr; status and status --check.
mkdir -p "$WORK/state1"
STATE_DIRECTORY=$WORK/state1 "$BIN" run --config "$config" 2>"$WORK/run.err" &
daemon=$!
firing_in_status() { [ -f "$WORK/status.json" ] && grep -q '"state":"firing"' "$WORK/status.json"; }
wait_for "the firing line on stderr" 100 has_line "$WORK/run.err" "firing:"
wait_for "the status file with the alert firing" 100 firing_in_status
"$BIN" status --file "$WORK/status.json" >"$WORK/status.txt" 2>&1
clean "$WORK/status.txt"
has_line "$WORK/status.txt" "$shown" || fail "status: the label is not shown escaped: $(cat -v "$WORK/status.txt")"
has_line "$WORK/status.txt" "CRITICAL  $rule_shown  $id" || fail "status: the rule is not shown escaped: $(cat -v "$WORK/status.txt")"
"$BIN" status --file "$WORK/status.json" --json | python3 -c 'import json, sys; json.load(sys.stdin)' \
    || fail "status --json is not valid JSON"
"$BIN" status --check --file "$WORK/status.json" >"$WORK/check.txt"
code=$?
[ "$code" = 2 ] || fail "status --check: exit $code, expected 2 (CRITICAL)"
clean "$WORK/check.txt"
python3 - "$WORK/check.txt" <<'PY' || fail "status --check: $(cat -v "$WORK/check.txt")"
# The monitoring-plugins guidelines: one line `TEXT | PERFDATA`, space-separated
# 'label'=value[UOM];[warn];[crit];[min];[max], a label in quotes with '' for a quote.
import re, sys
lines = open(sys.argv[1]).read().split("\n")
assert len(lines) == 2 and lines[1] == "", f"not one line: {lines!r}"
text, perf = lines[0].split(" | ")
assert "|" not in text and "|" not in perf, "a | beyond the one before the performance data"
assert text.startswith("SENSORWATCH CRITICAL - 1 critical: "), text
item = re.compile(r"'((?:[^']|'')+)'=(U|-?[0-9.]+)((?:;-?[0-9.]*){0,4})")
found, rest = [], perf
while rest:
    m = item.match(rest)
    assert m, f"perfdata does not parse at {rest!r}"
    found.append((m.group(1).replace("''", "'"), m.group(2), m.group(3)))
    rest = rest[m.end():].lstrip(" ")
assert found == [(r"hwmon:evil chip\x7cx-virtual-0/temp1", "91", ";80;95")], found
PY
note "status: escaped; status --check: one line, one |, perfdata parses"

# A fault quoting what the file holds, and the recovery.
printf '\e[5mjunk\n' >"$h/hwmon0/temp1_input"
wait_for "the fault line on stderr" 100 has_line "$WORK/run.err" "read failed"
printf '91000\n' >"$h/hwmon0/temp1_input"
wait_for "the recovery line on stderr" 100 has_line "$WORK/run.err" "reads again"
kill -TERM "$daemon"
wait "$daemon" || fail "run exited with $? on SIGTERM"
daemon=
clean "$WORK/run.err"
no_forged_line "$WORK/run.err"
has_line "$WORK/run.err" "<2>$rule_shown firing: $id ($shown) 91 °C above 85 °C" \
    || fail "run: the firing event is not one <2> line: $(cat -v "$WORK/run.err")"
has_line "$WORK/run.err" "<4>sensor $id ($shown) read failed: not a number: \"\\x1b[5mjunk\"" \
    || fail "run: the fault is not one <4> line: $(cat -v "$WORK/run.err")"
grep -v '^<[0-7]>' "$WORK/run.err" | grep -q . && fail "run: a stderr line without its <N> prefix: $(grep -v '^<[0-7]>' "$WORK/run.err" | cat -v)"
note "run, not a terminal: each event, fault and recovery one <N> line, no <0> line"

# run on a terminal: only the severity's colour is a control sequence.
mkdir -p "$WORK/state2"
STATE_DIRECTORY=$WORK/state2 python3 scripts/it/lib/pty_run.py --until "above 85" --stop 20 -- \
    env -u NO_COLOR TERM=xterm "$BIN" run --config "$config" >"$WORK/tty.txt"
clean "$WORK/tty.txt" sgr
no_forged_line "$WORK/tty.txt"
has_line "$WORK/tty.txt" $'\e[1;31mcritical\e[0m '"$rule_shown firing: $id ($shown) 91 °C above 85 °C" \
    || fail "run on a terminal: the event is not one coloured line: $(cat -v "$WORK/tty.txt")"
note "run on a terminal: one coloured line, no other control character"

# simulate and check: labels and names from the configuration and the scenario.
cat >"$WORK/scenario.json5" <<'JSON'
{ duration: "3s", step: "1s", loop: false,
  sensors: [ { id: "cpu", quantity: "temperature", label: "\u001b[2J\r\n<0>forged\u009b", start: 90 } ] }
JSON
cat >"$WORK/simulate.json5" <<JSON
{ sources: [ { type: "simulated", scenario: "$WORK/scenario.json5" } ],
  rules: [ { name: "hot\u0007", sensor: "sim:cpu", above: 85, severity: "warning" } ] }
JSON
"$BIN" simulate --config "$WORK/simulate.json5" >"$WORK/simulate.txt" 2>&1 || fail "simulate exited with $?"
clean "$WORK/simulate.txt"
no_forged_line "$WORK/simulate.txt"
has_line "$WORK/simulate.txt" 't=0s warning hot\x07 firing: sim:cpu (\x1b[2J\r\n<0>forged\u{9b}) 90 °C above 85 °C' \
    || fail "simulate: $(cat -v "$WORK/simulate.txt")"
"$BIN" simulate --config "$WORK/simulate.json5" --json | python3 -c 'import json, sys; [json.loads(l) for l in sys.stdin]' \
    || fail "simulate --json is not JSON lines"
cat >"$WORK/bad.json5" <<'JSON'
{ sources: [ { type: "simulated", scenario: "x.json5" } ],
  rules: [ { name: "r", sensor: "*", above: 1, severity: "\u001b]52;c;aGk=\u0007\n<0>forged" } ] }
JSON
"$BIN" check --config "$WORK/bad.json5" >"$WORK/check-errors.txt" 2>&1
code=$?
[ "$code" = 78 ] || fail "check of a bad configuration: exit $code, expected 78"
clean "$WORK/check-errors.txt"
no_forged_line "$WORK/check-errors.txt"
note "simulate and check: escaped"

# history, with a real journald: the daemon's entry, and one root wrote with ESC in its fields.
start_journald
mkdir -p "$WORK/state3"
STATE_DIRECTORY=$WORK/state3 "$BIN" run --config "$config" 2>"$WORK/run3.err" &
daemon=$!
wait_for "the firing entry in the journal" 100 has_state firing 1
kill -TERM "$daemon"
wait "$daemon" || fail "run exited with $? on SIGTERM"
daemon=
printf '%s\n' MESSAGE_ID=f96e031d73b04032b5e2b8ab87332769 SYSLOG_IDENTIFIER=sensorwatch MESSAGE=root-written \
    ALERT_STATE=firing ALERT_RULE=$'root\e[5m' ALERT_SEVERITY=warning SENSOR_ID=hwmon:x/temp1 \
    SENSOR_LABEL=$'\e[2J\e]52;c;aGk=\a\rroot' SENSOR_UNIT=°C SENSOR_VALUE=81 ALERT_THRESHOLD=80 >"$WORK/entry"
logger --journald="$WORK/entry" || fail "logger --journald could not write the entry"
wait_for "root's entry in the journal" 100 has_state firing 2
# The same as another user: history may leave it out (SPEC §17's trust), never show it raw.
sed -e 's/^MESSAGE=root-written$/MESSAGE=nobody-written/' -e 's/root$/nobody/' "$WORK/entry" >"$WORK/entry-nobody"
chmod 644 "$WORK/entry-nobody"
setpriv --reuid=65534 --regid=65534 --clear-groups logger --journald="$WORK/entry-nobody" \
    || fail "logger --journald could not write the entry as nobody"
wait_for "nobody's entry in the journal" 100 has_state firing 3
"$BIN" history >"$WORK/history.txt" 2>"$WORK/history.err" || fail "history exited with $?"
clean "$WORK/history.txt"
no_forged_line "$WORK/history.txt"
# Its stderr (the count of look-alikes left out, SPEC §17) is escaped too.
clean "$WORK/history.err"
no_forged_line "$WORK/history.err"
grep -vqE '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8} ' "$WORK/history.txt" \
    && fail "history: a line that is no event's: $(cat -v "$WORK/history.txt")"
has_line "$WORK/history.txt" " $rule_shown firing $id ($shown) 91 °C threshold 85 °C [critical]" \
    || fail "history: the daemon's entry: $(cat -v "$WORK/history.txt")"
has_line "$WORK/history.txt" ' root\x1b[5m firing hwmon:x/temp1 (\x1b[2J\x1b]52;c;aGk=\x07\rroot) 81 °C threshold 80 °C [warning]' \
    || fail "history: root's entry: $(cat -v "$WORK/history.txt")"
"$BIN" history --json >"$WORK/history.json"
clean "$WORK/history.json"
[ "$(grep -c . "$WORK/history.json")" = "$(grep -c . "$WORK/history.txt")" ] \
    || fail "history: not one line per event: $(cat -v "$WORK/history.txt")"
python3 - "$WORK/history.json" "$label" <<'PY' || fail "history --json: $(cat -v "$WORK/history.json")"
import json, sys
events = [json.loads(l) for l in open(sys.argv[1])]
assert [e["label"] for e in events][:2] == [sys.argv[2], "\x1b[2J\x1b]52;c;aGk=\x07\rroot"], events
PY
note "history: the daemon's and root's entries one escaped line each; --json as read"
echo "ok: labels from the tree are escaped everywhere they are shown"
