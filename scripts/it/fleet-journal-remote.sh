#!/usr/bin/env bash
# A fleet's alerts in one journal (SPEC §13): two hosts, web1 and db2, each in its own mount
# and UTS namespace (own hostname, tmpfs /run, journald), run `sensorwatch run` on a scenario
# and ship their journals with systemd-journal-upload to one systemd-journal-remote on
# 127.0.0.1. web1's events happen at 1, 3, 5 s and db2's at 2, 4, 6 s, but web1 uploads
# first: the collected file holds them in arrival order. `history --directory` must print
# them in time order, each with its host; `--host` separates them; `--since` filters. Also:
# a repeated upload with the same --save-state sends nothing twice, and a second collector
# started the way Debian's socket unit starts it (fd 3, --listen-http=-3) gets the same from
# uploads that take the URL from journal-upload.conf.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
REMOTE=/lib/systemd/systemd-journal-remote
UPLOAD=/lib/systemd/systemd-journal-upload
PORT=19532
PORT2=19533

# One host, run as `unshare -m -u --propagation private bash THIS host NAME SAMPLES`: its
# own hostname, /run and journal, sensorwatch on the samples; then, when the test says so
# (file `upload`), it sends its journal to the collector and stops.
host_main() { # NAME SAMPLES
    local name=$1 dir=$WORK/$1 pid
    hostname "$name"
    mount -t tmpfs none /run
    if [ -d /var/log/journal ]; then mount -t tmpfs none /var/log/journal; fi
    trap 'stop_journald' EXIT
    start_journald
    write_scenario "$dir/scenario.json5" "$2"
    write_config "$dir/sensorwatch.json5" "scenario.json5"
    mkdir -p "$dir/state"
    touch "$dir/ready"
    wait_for "the start signal" 600 test -e "$WORK/go"
    STATE_DIRECTORY=$dir/state "$BIN" run --config "$dir/sensorwatch.json5" 2>"$dir/stderr" &
    pid=$!
    wait_for "$name's third event" 200 has_state firing 2
    kill -TERM "$pid"
    wait "$pid" || fail "$name: run exited with $? on SIGTERM"
    journal_json >"$dir/entries.json"
    touch "$dir/done"
    wait_for "the upload signal" 600 test -e "$dir/upload"
    upload "$PORT" upload.state
    # Again with the same state: nothing new to send (the checks below would see doubles).
    upload "$PORT" upload.state
    # And to the socket-activated collector, from the start, with the URL in the config file
    # as Debian's unit reads it (bound over the host's only in this mount namespace).
    printf '[Upload]\nURL=http://127.0.0.1:%s\n' "$PORT2" >"$dir/journal-upload.conf"
    mount --bind "$dir/journal-upload.conf" /etc/systemd/journal-upload.conf
    upload "" upload2.state
}

upload() { # PORT (empty: the URL of journal-upload.conf) STATEFILE
    "$UPLOAD" ${1:+--url="http://127.0.0.1:$1"} --save-state="$WORK/$(hostname)/$2" --follow=no \
        || fail "$(hostname): systemd-journal-upload ${1:+to port $1 }exited with $?"
}

if [ "${1:-}" = host ]; then
    host_main "$2" "$3"
    exit 0
fi

require_namespaces
require_binary
need "$REMOTE" systemd-journal-remote
need "$UPLOAD" systemd-journal-remote
enter_namespace

stop_all() {
    for p in ${HOST_PIDS:-} ${REMOTE_PID:-} ${REMOTE2_PID:-}; do kill "$p" 2>/dev/null || true; done
    for p in ${HOST_PIDS:-} ${REMOTE_PID:-} ${REMOTE2_PID:-}; do wait "$p" 2>/dev/null || true; done
}
trap stop_all EXIT
on_fail() {
    for h in web1 db2; do echo "--- $h"; cat "$WORK/$h/log" "$WORK/$h/stderr" 2>/dev/null || true; done
    echo "--- journal-remote"; cat "$WORK/remote.log" "$WORK/remote2.log" 2>/dev/null || true
}


# The collector: one journal-remote, files under $WORK/remote/ (which must exist).
mkdir -p "$WORK/remote" "$WORK/remote2"
"$REMOTE" --listen-http="127.0.0.1:$PORT" --output="$WORK/remote/" >"$WORK/remote.log" 2>&1 &
REMOTE_PID=$!
wait_for "journal-remote on port $PORT" 100 listening "$PORT"
kill -0 "$REMOTE_PID" 2>/dev/null || fail "journal-remote exited (port $PORT taken by another process?)"
# A second one as Debian's socket unit runs it (the README's drop-in): the listening socket
# is passed as fd 3, `--listen-http=-3`. systemd-socket-activate execs it, so the PID stays.
systemd-socket-activate -l "127.0.0.1:$PORT2" \
    "$REMOTE" --listen-http=-3 --output="$WORK/remote2/" >"$WORK/remote2.log" 2>&1 &
REMOTE2_PID=$!
wait_for "the socket on port $PORT2" 100 listening "$PORT2"

HOST_PIDS=
start_host() { # NAME SAMPLES
    mkdir -p "$WORK/$1"
    unshare -m -u --propagation private bash "$0" host "$1" "$2" >"$WORK/$1/log" 2>&1 &
    HOST_PIDS="$HOST_PIDS $!"
    eval "PID_$1=\$!"
}
start_host web1 "[[0, 50], [1, 85], [3, 50], [5, 85]]"
start_host db2 "[[0, 50], [2, 85], [4, 50], [6, 85]]"
wait_for "both hosts' journald" 300 test -e "$WORK/web1/ready" -a -e "$WORK/db2/ready"
touch "$WORK/go"
started=$(date +%s%N)
wait_for "both hosts' events" 300 test -e "$WORK/web1/done" -a -e "$WORK/db2/done"
for h in web1 db2; do
    [ "$(jq -r 'select(.ALERT_STATE) | ._HOSTNAME' "$WORK/$h/entries.json" | sort -u)" = "$h" ] \
        || fail "$h's own journal does not name it as _HOSTNAME"
done

# web1 uploads everything first, then db2.
touch "$WORK/web1/upload"
wait "$PID_web1" || fail "host web1 failed"
touch "$WORK/db2/upload"
wait "$PID_db2" || fail "host db2 failed"
HOST_PIDS=
kill -TERM "$REMOTE_PID" "$REMOTE2_PID"
wait "$REMOTE_PID" "$REMOTE2_PID" || true
REMOTE_PID= REMOTE2_PID=
note "events and uploads took $((($(date +%s%N) - started) / 1000000)) ms; collected: $(cd "$WORK/remote" && echo *)"

# The collected file really is in arrival order, not time order (else this test proves little).
arrival=$(journalctl -D "$WORK/remote" -o json --no-pager -t sensorwatch | jq -r 'select(.ALERT_STATE) | ._HOSTNAME' | paste -sd,)
[ "$arrival" = "web1,web1,web1,db2,db2,db2" ] || fail "arrival order in the collected file: $arrival"

# history: oldest first across hosts, each line with its host, the host column aligned.
"$BIN" history --directory "$WORK/remote" >"$WORK/history.txt"
note "history --directory $WORK/remote"
cat "$WORK/history.txt"
cut -d' ' -f3- "$WORK/history.txt" >"$WORK/history-untimed.txt"
diff -u - "$WORK/history-untimed.txt" <<'EXPECTED' || fail "history --directory: events not in time order"
web1 cpu-hot firing sim:cpu (CPU package) 85 °C threshold 80 °C [critical]
db2  cpu-hot firing sim:cpu (CPU package) 85 °C threshold 80 °C [critical]
web1 cpu-hot resolved sim:cpu (CPU package) 50 °C threshold 80 °C [critical]
db2  cpu-hot resolved sim:cpu (CPU package) 50 °C threshold 80 °C [critical]
web1 cpu-hot firing sim:cpu (CPU package) 85 °C threshold 80 °C [critical]
db2  cpu-hot firing sim:cpu (CPU package) 85 °C threshold 80 °C [critical]
EXPECTED

# --json: every object has its host; times never go back.
"$BIN" history --directory "$WORK/remote" --json >"$WORK/history.jsonl"
[ "$(jq -r .host "$WORK/history.jsonl" | paste -sd,)" = "web1,db2,web1,db2,web1,db2" ] || fail "history --json hosts"
jq -r .time "$WORK/history.jsonl" | sort -c || fail "history --json times are not in order"
sed -n 1,2p "$WORK/history.jsonl"

# --host keeps one host's events.
note "history --directory $WORK/remote --host web1"
"$BIN" history --directory "$WORK/remote" --host web1 | tee "$WORK/web1.txt"
[ "$(cut -d' ' -f3-5 "$WORK/web1.txt" | paste -sd,)" \
    = "web1 cpu-hot firing,web1 cpu-hot resolved,web1 cpu-hot firing" ] || fail "history --host web1"
[ "$("$BIN" history --directory "$WORK/remote" --host db2 --json | jq -r '.host + " " + .event' | paste -sd,)" \
    = "db2 firing,db2 resolved,db2 firing" ] || fail "history --host db2 --json"

# --since from db2's resolved (4 s): web1's firing at 5 s arrived before it and still counts.
since=$(date -d "$(jq -r .time "$WORK/history.jsonl" | sed -n 4p)" +%s.%6N)
note "history --directory $WORK/remote --since @$since"
"$BIN" history --directory "$WORK/remote" --since "@$since" | tee "$WORK/since.txt"
[ "$(tr -s ' ' <"$WORK/since.txt" | cut -d' ' -f3-5 | paste -sd,)" \
    = "db2 cpu-hot resolved,web1 cpu-hot firing,db2 cpu-hot firing" ] || fail "history --since @$since"
# --until is inclusive too; --lines keeps the newest; --file reads the collected file itself.
[ "$("$BIN" history --directory "$WORK/remote" --until "@$since" | tr -s ' ' | cut -d' ' -f3-5 | paste -sd,)" \
    = "web1 cpu-hot firing,db2 cpu-hot firing,web1 cpu-hot resolved,db2 cpu-hot resolved" ] || fail "history --until @$since"
[ "$("$BIN" history --directory "$WORK/remote" --lines 2 --json | jq -r '.host + " " + .event' | paste -sd,)" \
    = "web1 firing,db2 firing" ] || fail "history --lines 2"
"$BIN" history --file "$WORK/remote/remote-127.0.0.1.journal" | diff -u "$WORK/history.txt" - \
    || fail "history --file differs from history --directory"
# For comparison (not a requirement): journalctl seeks, and on this file may skip events.
seek=$(journalctl -D "$WORK/remote" --since "@$since" -o json --no-pager -t sensorwatch \
    | jq -r 'select(.ALERT_STATE) | ._HOSTNAME + " " + .ALERT_STATE' | paste -sd,)
note "journalctl --since @$since on the same file: ${seek:-nothing}"

# --directory is repeatable: each host's entries in a directory of its own, merged again.
for h in web1 db2; do
    mkdir -p "$WORK/split-$h"
    journalctl -D "$WORK/remote" -o export --no-pager _HOSTNAME="$h" >"$WORK/$h.export"
    "$REMOTE" --output="$WORK/split-$h/$h.journal" "$WORK/$h.export" 2>/dev/null
done
"$BIN" history --directory "$WORK/split-db2" --directory "$WORK/split-web1" >"$WORK/merged.txt"
diff -u "$WORK/history.txt" "$WORK/merged.txt" || fail "two directories merged differ from the one collected file"
# The socket-activated collector got the same events.
"$BIN" history --directory "$WORK/remote2" | diff -u "$WORK/history.txt" - \
    || fail "the socket-activated journal-remote (--listen-http=-3) got other events"

note "two hosts through journal-upload and journal-remote: time order, hosts, --host, --since, merged directories"
