#!/usr/bin/env bash
# What a person sees on a terminal (SPEC §19, last paragraph), through a pseudo-terminal:
# `run` shows each event as local time, the severity word in colour (critical red, warning
# yellow) and the message; NO_COLOR=1 keeps the words uncoloured; not a terminal, the
# `<N>`-prefixed lines stay as they are. `simulate` of a long scenario shows its progress
# on a terminal's stderr and nothing else changes. Runs in a private mount namespace whose
# /run has no journald, so events go to stderr.
set -u
. "$(dirname "$0")/lib/common.sh"
require_binary
need python3 python3
if [ -z "${SW_IT_IN_NAMESPACE:-}" ]; then
    [ "$(id -u)" = 0 ] || skip "needs root for a mount namespace"
    export SW_IT_IN_NAMESPACE=1
    exec unshare -m --propagation private bash "$0" "$@"
fi
mount -t tmpfs none /run
cd "$ROOT"
# The daemon keeps its state here, not in the host's /var/lib/sensorwatch (where a later run
# would find this run's alerts firing and log no firing).
export STATE_DIRECTORY
STATE_DIRECTORY=$(mktemp -d /tmp/sw-it-terminal.XXXXXX)
g=scripts/it/golden/terminal
pty() { python3 scripts/it/lib/pty_run.py "$@"; }
# The clock differs from run to run: HH:MM:SS stands for it; the escape character shows as ^[;
# the open-file limit is the machine's: N stands for it.
masked() { sed -E 's/^[0-9]{2}:[0-9]{2}:[0-9]{2} /HH:MM:SS /; s/\x1b/^[/g; s/open-file limit [0-9]+ \((also the hard limit|hard limit [0-9]+)\)/open-file limit N/'; }
# Each run is stopped once it showed the scenario's last event (crit resolved).
run_tty() { pty --until "crit resolved" --stop 30 -- env -u NO_COLOR TZ=UTC "$SENSORWATCH" run --config "$g/run.json5" | masked; }
run_tty_no_color() { pty --until "crit resolved" --stop 30 -- env NO_COLOR=1 TZ=UTC "$SENSORWATCH" run --config "$g/run.json5" | masked; }
run_pipe() {
    local out p
    out=$(mktemp)
    "$SENSORWATCH" run --config "$g/run.json5" >"$out" 2>&1 &
    p=$!
    wait_for_line "$out" "crit resolved" 300
    kill -TERM $p
    wait $p
    masked <"$out"
    rm -f "$out"
}
expect_golden "$g/run-tty.txt" run_tty
expect_golden "$g/run-tty-no-color.txt" run_tty_no_color
expect_golden "$g/run-pipe.txt" run_pipe

# With journald listening, the events go to the journal and show on the terminal too; the
# daemon's own messages go to the journal only.
need jq jq
start_journald
trap 'stop_journald; rm -rf "$STATE_DIRECTORY"' EXIT
expect_golden "$g/run-tty-journal.txt" run_tty
[ "$(journalctl --sync; journalctl -o json --no-pager -t sensorwatch ALERT_RULE=crit | jq -r .MESSAGE | head -n 1)" = \
    "crit firing: sim:cpu (CPU) 99 °C above 95 °C" ] || fail "the journal did not get the events shown on the terminal"
stop_journald

# simulate: progress on the terminal's stderr, cleared at the end; stdout unchanged.
plain=$("$SENSORWATCH" simulate --config "$g/long.json5" 2>&1)
shown=$(pty -- "$SENSORWATCH" simulate --config "$g/long.json5")
tty_part=${shown%%--- stdout*}
stdout_part=${shown#*--- stdout
}
case $tty_part in *"simulating: "*" of 720h ("*"%)"*) ;; *) fail "no progress line on the terminal: $(printf '%q' "$tty_part")" ;; esac
case $tty_part in *$'\r\e[K') ;; *) fail "the progress line is not cleared at the end: $(printf '%q' "$tty_part")" ;; esac
[ "$stdout_part" = "$plain" ] || fail "stdout differs on a terminal: '$stdout_part' vs '$plain'"
# A short run shows no progress at all.
shown=$(pty -- "$SENSORWATCH" simulate --config config/sensorwatch.json5)
[ "${shown%%--- stdout*}" = "" ] || fail "a short simulate showed progress: $(printf '%q' "$shown")"
echo "ok: run and simulate on a terminal and a pipe are as the golden files"
