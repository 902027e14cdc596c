#!/usr/bin/env bash
# The README's five-minute tour, re-run (issue 34): every `$ COMMAND` the README shows is
# executed as written (from a copy of config/ and docs/), and the lines the README says it
# prints must come out, in that order (other lines may come between; `…` stands for any
# text; runs of spaces count as one, so columns may be wider on a machine with more
# sensors). The `make run` block is the daemon's stderr without journald; the journalctl
# block, a daemon's entries in a private journald; `status`, a daemon on
# docs/status-example.json5, compared with its numbers masked (they move with time). The
# three daemons run side by side, each until the event its block ends with (~40 s).
set -u
. "$(dirname "$0")/lib/common.sh"
setup_journal_test
tour=$WORK/tour
mkdir -p "$tour"
cp -r "$ROOT/config" "$ROOT/docs" "$ROOT/README.md" "$tour/"
README=$tour/README.md
# After the copies: the clone itself may be under /tmp (a CI's may be).
mount -t tmpfs none /tmp   # docs/status-example.json5 writes /tmp/sensorwatch-status.json
cd "$tour"
# The README's `sensorwatch` is this binary; `journalctl` is the real one.
mkdir -p "$WORK/path"
ln -sf "$BIN" "$WORK/path/sensorwatch"
export PATH=$WORK/path:$PATH
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
    stop_journald
}
trap cleanup EXIT

# The commands the tour shows, in its order; a new one must be added here (and checked).
tour_commands=(
    "sensorwatch sensors --config config/sensorwatch.json5"
    "journalctl ALERT_RULE=sim-cpu-hot"
    "journalctl ALERT_RULE=sim-cpu-hot -o verbose | grep -E 'PRIORITY|ALERT_STATE'"
    "sensorwatch simulate --config config/sensorwatch.json5 --plot demo.svg"
    "sensorwatch test config/tests/*.json5 --junit report.xml"
    "sensorwatch status --config docs/status-example.json5"
    "sensorwatch status --config docs/status-example.json5 --check; echo \$?"
)
shown=$(grep '^\$ ' "$README" | cut -c3-)
[ "$shown" = "$(printf '%s\n' "${tour_commands[@]}")" ] \
    || fail "the README's commands are not the ones this test runs:"$'\n'"$shown"

# The lines the README shows after `$ CMD` (up to the next `$ ` or the block's end).
readme_output() {
    awk -v cmd="\$ $1" 'index($0, "```") == 1 { if (on) exit; next } $0 == cmd { on = 1; next } on && /^\$ / { exit } on { print }' "$README"
}
# The README block that holds the line matching $1 (an ERE).
readme_block_with() {
    awk -v re="$1" 'index($0, "```") == 1 { if (found) exit; n = 0; inb = !inb; next } inb { lines[++n] = $0; if ($0 ~ re) found = 1 }
        END { if (found) for (i = 1; i <= n; i++) print lines[i] }' "$README"
}
squeeze() { sed -E 's/ +/ /g; s/ $//'; }
mask_numbers() { sed -E 's/[0-9]+(\.[0-9]+)?/N/g'; }
# in_order WHAT EXPECTED-FILE ACTUAL-FILE: each expected line (`…` alone skipped, `…` within
# a line any text) in the actual file, in order, as a whole line.
in_order() {
    local what=$1 expected=$2 actual=$3 pos=0 line pat n
    while IFS= read -r line; do
        [ "$line" = "…" ] && continue
        pat=$(printf '%s\n' "$line" | sed 's/[][\.*^$/]/\\&/g; s/…/.*/g')
        n=$(tail -n +$((pos + 1)) "$actual" | grep -n -m1 -x -- "$pat" | cut -d: -f1)
        [ -n "$n" ] || { echo "--- output of $what:"; cat "$actual"; fail "README line not printed by $what (in order): $line"; }
        pos=$((pos + n))
    done <"$expected"
}
# check_command CMD [FILTER]: runs CMD as the README writes it, compares through FILTER.
check_command() {
    local cmd=$1 filter=${2:-squeeze}
    readme_output "$cmd" | $filter >"$WORK/expected"
    [ -s "$WORK/expected" ] || fail "the README shows no output for: $cmd"
    bash -c "$cmd" 2>&1 | $filter >"$WORK/actual" || true
    in_order "$cmd" "$WORK/expected" "$WORK/actual"
    note "README's output of: $cmd"
}

# --- the daemons, side by side -----------------------------------------------------------
# `make run` without journald: its own mount namespace with an empty /run.
STATE_DIRECTORY=$WORK/state-run unshare -m --propagation private \
    sh -c 'mount -t tmpfs none /run && exec sensorwatch run --config config/sensorwatch.json5' 2>"$WORK/run.err" &
pids+=($!)
start_journald
STATE_DIRECTORY=$WORK/state-journal sensorwatch run --config config/sensorwatch.json5 2>/dev/null &
pids+=($!)
STATE_DIRECTORY=$WORK/state-status sensorwatch run --config docs/status-example.json5 2>/dev/null &
pids+=($!)

# --- the commands that need no daemon ------------------------------------------------------
check_command "sensorwatch sensors --config config/sensorwatch.json5"
check_command "sensorwatch simulate --config config/sensorwatch.json5 --plot demo.svg"
grep -q '<svg' demo.svg || fail "simulate --plot wrote no SVG to demo.svg"
check_command "sensorwatch test config/tests/*.json5 --junit report.xml"
grep -q '<testsuites' report.xml || fail "test --junit wrote no JUnit XML"

# --- status, once both rules fire ------------------------------------------------------------
both_fire() {
    jq -e '[.alerts[] | select(.state == "firing") | .rule] | contains(["cpu-crit", "sim-cpu-hot"])' \
        /tmp/sensorwatch-status.json >/dev/null 2>&1
}
wait_for "cpu-crit and sim-cpu-hot firing in the status file" 400 both_fire
masked() { squeeze | mask_numbers; }
check_command "sensorwatch status --config docs/status-example.json5" masked
check_command "sensorwatch status --config docs/status-example.json5 --check; echo \$?" masked

# --- make run's lines, and the journal --------------------------------------------------------
words=(emerg alert critical error warning notice info debug)
run_done() { grep -q 'sim-cpu-hot resolved' "$WORK/run.err"; }
wait_for "run to log sim-cpu-hot resolved" 600 run_done
# <N>message as the terminal shows it: the priority's word, then the message (no time).
while IFS= read -r line; do
    if [[ $line =~ ^\<([0-7])\>(.*)$ ]]; then echo "${words[${BASH_REMATCH[1]}]} ${BASH_REMATCH[2]}"; fi
done <"$WORK/run.err" | squeeze >"$WORK/actual"
readme_block_with 'no journal socket at' | sed -E 's/^[0-9]{2}:[0-9]{2}:[0-9]{2} //' | squeeze >"$WORK/expected"
[ -s "$WORK/expected" ] || fail "the README has no make run block"
in_order "make run" "$WORK/expected" "$WORK/actual"
note "README's make run block"
journal_fired() { journal_has ALERT_RULE=sim-cpu-hot ALERT_STATE=firing; }
wait_for "sim-cpu-hot firing in the journal" 100 journal_fired
journalctl --sync
after_pid() { sed -E 's/^.*\]: //' | squeeze; }
check_command "journalctl ALERT_RULE=sim-cpu-hot" after_pid
check_command "journalctl ALERT_RULE=sim-cpu-hot -o verbose | grep -E 'PRIORITY|ALERT_STATE'"
echo "ok: the README tour's ${#tour_commands[@]} commands and make run print what it says"
