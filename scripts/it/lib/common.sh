# Shared helpers of the integration tests in scripts/it/ (sourced, never run by itself).
#
# Every test re-runs itself in new mount and PID namespaces (enter_namespace): journald, the
# user manager and sensorwatch die with the test, and the tmpfs on /run, /mnt and
# /var/log/journal hide the host's. Nothing here starts `systemd --system` or kills by name.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
SENSORWATCH=${SENSORWATCH:-$ROOT/.build/release/sensorwatch}
JOURNALD=${JOURNALD:-/lib/systemd/systemd-journald}
SYSTEMD=${SYSTEMD:-/lib/systemd/systemd}
# Inside the namespace: a tmpfs, outside /tmp (PrivateTmp= would hide it from the unit).
WORK=/mnt/sensorwatch-it
BIN=$WORK/bin/sensorwatch

# The one harness of scripts/it: a test fails at its first failed expectation (fail exits
# 1; print context before calling it), passes by reaching its end, and waits for events with
# wait_for, never for a fixed time.
# A skip (exit 77) is a failure under CI=true (scripts/run-integration): CI has every part.
skip() { echo "skip: $*" >&2; exit 77; }
# A test may define on_fail (e.g. dump_unit) to print context first.
fail() {
    if declare -F on_fail >/dev/null; then on_fail >&2 || true; fi
    echo "FAIL: $*" >&2
    exit 1
}
note() { echo "# $*"; }

# --- expectations on a command --------------------------------------------------------

# Fails unless the command exits with status $1.
expect_exit() { # STATUS COMMAND...
    local want=$1 got
    shift
    "$@" >/dev/null 2>&1
    got=$?
    [ "$got" -eq "$want" ] || fail "exit $got, expected $want: $*"
}
# Fails unless the command's stdout contains $1.
expect_out_contains() { # TEXT COMMAND...
    local want=$1 out
    shift
    out=$("$@" 2>/dev/null)
    grep -qF -- "$want" <<<"$out" || fail "stdout of '$*' lacks '$want'"
}
# Fails unless the command's stderr contains $1.
expect_err_contains() { # TEXT COMMAND...
    local want=$1 err
    shift
    err=$("$@" 2>&1 >/dev/null)
    grep -qF -- "$want" <<<"$err" || fail "stderr of '$*' lacks '$want': $err"
}
# Fails unless the command's stdout and stderr are the golden file $1 (the diff printed).
expect_golden() { # GOLDEN COMMAND...
    local golden=$1 out diff
    shift
    out=$("$@" 2>&1)
    diff=$(diff -u "$golden" <(printf '%s\n' "$out") 2>&1) || { printf '%s\n' "$diff" >&2; fail "output of '$*' differs from $golden"; }
}

# Installs a missing tool with apt (as root), else skips: `need COMMAND PACKAGE`.
need() {
    command -v "$1" >/dev/null && return 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "# installing $2 for $1" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get -o DPkg::Lock::Timeout=600 install -y "$2" >/dev/null 2>&1 \
            || { apt-get -o DPkg::Lock::Timeout=600 update >/dev/null 2>&1 \
                 && apt-get -o DPkg::Lock::Timeout=600 install -y "$2" >/dev/null 2>&1; } || true
    fi
    command -v "$1" >/dev/null || skip "needs $1 (apt package $2)"
}

require_namespaces() {
    [ "$(id -u)" = 0 ] || skip "needs root for mount namespaces"
    need unshare util-linux
    need jq jq
    [ -x "$JOURNALD" ] || need journalctl systemd
    [ -x "$JOURNALD" ] || skip "no systemd-journald at $JOURNALD"
}

# The start of a test against a private journald: skips without root or the binary,
# re-runs in its namespaces, stops journald at exit (start it with start_journald).
setup_journal_test() {
    require_namespaces
    require_binary
    enter_namespace
    trap 'stop_journald' EXIT
}

require_binary() {
    [ -x "$SENSORWATCH" ] || skip "no release binary at $SENSORWATCH (make release)"
}

# Re-executes the calling script in private mount and PID namespaces, once.
enter_namespace() {
    if [ -z "${SW_IT_IN_NAMESPACE:-}" ]; then
        export SW_IT_IN_NAMESPACE=1
        exec unshare -m -p -f --mount-proc --propagation private bash "$0" "$@"
    fi
    mount -t tmpfs none /run
    mount -t tmpfs none /mnt
    if [ -d /var/log/journal ]; then mount -t tmpfs none /var/log/journal; fi
    mkdir -p "$WORK/bin"
    if [ -x "$SENSORWATCH" ]; then cp "$SENSORWATCH" "$BIN"; fi
}

# The one wait: `wait_for WHAT [TRIES] COMMAND...` runs the command every 0.1 s until it
# succeeds, up to TRIES times (default 300: 30 s and more on a loaded machine, as each try's
# own time adds), then fails with "timed out waiting for WHAT". Pass a command (like
# has_state), not an expanded "$(...)", so every try looks again. A test that proves that
# something did NOT happen waits for a later event that would follow it (the next sample,
# a later log line: wait_for_line), then looks. WAIT_EVERY=0 looks again at once, for a
# test that must act the moment something holds.
wait_for() {
    local what=$1 tries=300 i
    shift
    if [[ $1 =~ ^[0-9]+$ ]]; then tries=$1; shift; fi
    for ((i = 0; i < tries; i++)); do
        if "$@"; then return 0; fi
        if [ "${WAIT_EVERY:-0.1}" != 0 ]; then sleep "${WAIT_EVERY:-0.1}"; fi
    done
    fail "timed out waiting for $what (${tries} tries, ${WAIT_EVERY:-0.1} s apart)"
}

# Waits until the daemon wrote file $1 anew (another inode or mtime), $2 times (default 1): a
# later event for a file it rewrites as it samples (the metrics file, the status file).
wait_for_rewrite() { # FILE [TIMES]
    local _file=$1 _was _n
    for ((_n = 0; _n < ${2:-1}; _n++)); do
        _was=$(stat -c '%i %.9Y' "$_file" 2>/dev/null || true)
        wait_for "$_file written anew" 300 eval '[ "$(stat -c "%i %.9Y" "$_file" 2>/dev/null)" != "$_was" ]'
    done
}

# Waits until file $1 has a line containing the text $2.
wait_for_line() { # FILE TEXT [TRIES]
    wait_for "'$2' in $1" "${3:-300}" grep -qF -- "$2" "$1"
}

# Waits until process $2 has ended (it need not be our child), for up to $3 tries.
wait_for_exit() { # WHAT PID [TRIES]
    wait_for "$1" "${3:-300}" ended "$2"
}
ended() { ! kill -0 "$1" 2>/dev/null; }

# Whether something accepts connections on 127.0.0.1:$1.
listening() { # PORT
    python3 -c "import socket; socket.create_connection(('127.0.0.1', $1), 1)" 2>/dev/null
}

# Starts the namespace's journald (again, after stop_journald or a kill) and waits for its
# socket; a socket the last one left is removed first, so the wait is for the new one.
start_journald() {
    mkdir -p /run/systemd/journal /run/log/journal
    rm -f /run/systemd/journal/socket
    "$JOURNALD" >/dev/null 2>&1 &
    JOURNALD_PID=$!
    wait_for "journald's socket" 100 test -S /run/systemd/journal/socket
}

stop_journald() {
    if [ -n "${JOURNALD_PID:-}" ]; then
        kill "$JOURNALD_PID" 2>/dev/null || true
        wait "$JOURNALD_PID" 2>/dev/null || true
        JOURNALD_PID=
    fi
}

# sensorwatch's journal entries as JSON lines; extra arguments are journalctl matches.
journal_json() {
    journalctl --sync 2>/dev/null || true
    journalctl -o json --no-pager -t sensorwatch "$@"
}

# How many alert entries with ALERT_STATE=$1 (and further matches) the journal holds.
count_state() {
    local state=$1
    shift
    journal_json ALERT_STATE="$state" "$@" | grep -c . || true
}

# Whether the journal holds a sensorwatch entry with all the given matches.
journal_has() { [ -n "$(journal_json "$@")" ]; }

# Whether at least $2 alert entries with ALERT_STATE=$1 are in the journal.
has_state() { [ "$(count_state "$1")" -ge "${2:-1}" ]; }

# Fails unless field $2 of the journal entry $1 (one JSON object) is $3 ("<missing>": absent).
expect_field() { # JSON FIELD VALUE
    local got
    got=$(jq -r --arg f "$2" '.[$f] // "<missing>"' <<<"$1")
    [ "$got" = "$3" ] || fail "$2: expected '$3', got '$got'"
}

# Writes a scenario with one sensor sim:cpu (°C) and the given explicit samples, no loop.
write_scenario() { # FILE SAMPLES
    cat >"$1" <<JSON
{
  duration: "60s",
  step: "1s",
  loop: false,
  sensors: [
    { id: "cpu", quantity: "temperature", label: "CPU package", samples: $2 },
  ],
}
JSON
}

# Writes a configuration with the scenario source and rule cpu-hot (sim:cpu above 80, critical).
write_config() { # FILE SCENARIO
    cat >"$1" <<JSON
{
  interval: "100ms",
  sources: [ { type: "simulated", scenario: "$2", interval: "100ms" } ],
  rules: [ { name: "cpu-hot", sensor: "sim:cpu", above: 80, severity: "critical" } ],
}
JSON
}

# --- a fake sysfs tree -----------------------------------------------------------------

# Writes $2 and a newline over the start of file $1 with one write(2) and no truncation, so
# a poll never reads it half-written or empty (values of one length only).
put() { printf '%s\n' "$2" | dd of="$1" conv=notrunc status=none; }

# Whether file $1 of a fake tree was read since it was last written: a read moved its atime
# past its mtime (relatime, the default of a tmpfs and of /tmp, updates the atime at the
# first read after a write). The event "the reader has seen this value".
read_since_written() { # FILE
    local t
    t=$(stat -c '%.9X %.9Y' "$1") || return 1
    t=${t//./}
    (( ${t% *} > ${t#* } ))
}

# Writes $2 over file $1 (put) and waits until a reader has read it.
put_and_wait_read() { # FILE VALUE
    put "$1" "$2"
    wait_for "a read of $1 after it was written" 100 read_since_written "$1"
}

# Writes file $1 of a fake tree (its directories made) with $2 and a newline.
tree_file() { # PATH VALUE
    mkdir -p "${1%/*}"
    printf '%s\n' "$2" >"$1"
}

# A fake thermal zone: directory $1 with `type` $2 and, when given, `temp` $3; "fifo" for
# either makes that file a FIFO (a read that hangs until a writer comes).
zone() { # DIR TYPE [TEMP]
    mkdir -p "$1"
    if [ "$2" = fifo ]; then mkfifo "$1/type"; else echo "$2" >"$1/type"; fi
    if [ "${3:-}" = fifo ]; then mkfifo "$1/temp"; elif [ -n "${3:-}" ]; then put "$1/temp" "$3"; fi
}

# --- systemd user manager -------------------------------------------------------------

# Starts `systemd --user` (never --system) with sensorwatch.service and the test drop-in.
start_user_manager() {
    mkdir -p /run/systemd/system
    export XDG_RUNTIME_DIR=/run/user/0 HOME=$WORK/home
    mkdir -p -m 0700 "$XDG_RUNTIME_DIR"
    USER_UNITS=$HOME/.config/systemd/user
    mkdir -p "$USER_UNITS/sensorwatch.service.d"
    cp "$ROOT/systemd/sensorwatch.service" "$USER_UNITS/"
    cp "$ROOT/systemd/test/user-mode.conf" "$USER_UNITS/sensorwatch.service.d/"
    "$SYSTEMD" --user >"$WORK/user-manager.log" 2>&1 &
    USER_MANAGER_PID=$!
    wait_for "the user manager" 100 test -S "$XDG_RUNTIME_DIR/systemd/private"
}

stop_user_manager() {
    if [ -n "${USER_MANAGER_PID:-}" ]; then
        systemctl --user stop sensorwatch.service 2>/dev/null || true
        kill "$USER_MANAGER_PID" 2>/dev/null || true
        wait "$USER_MANAGER_PID" 2>/dev/null || true
        USER_MANAGER_PID=
    fi
}

# The start of every unit-*.sh: namespaces, journald, user manager, clean-up, and a dump of
# the unit's state when the test fails.
setup_unit_test() {
    require_namespaces
    require_binary
    enter_namespace
    trap 'stop_user_manager; stop_journald' EXIT
    on_fail() { dump_unit; }
    start_journald
    start_user_manager
}

# Writes the test's drop-in: ExecStart running the copied binary on $WORK/sensorwatch.json5,
# plus any [Service] lines from stdin; then reloads the manager.
test_dropin() {
    {
        printf '[Service]\nExecStart=\nExecStart=%s run --config %s\n' "$BIN" "$WORK/sensorwatch.json5"
        cat
    } >"$USER_UNITS/sensorwatch.service.d/test.conf"
    systemctl --user daemon-reload
}

# One property of the unit under test: $UNIT, sensorwatch.service unless a test sets it.
unit_prop() {
    systemctl --user show -P "$1" "${UNIT:-sensorwatch.service}"
}

# Whether property $1 of the unit is $2.
prop_is() { [ "$(unit_prop "$1")" = "$2" ]; }

# Whether numeric property $1 of the unit is at least $2.
prop_at_least() { [ "$(unit_prop "$1")" -ge "$2" ]; }

# Whether the unit's main process has fed the watchdog for $1 seconds: its last ping
# (WATCHDOG=1) came that long after it started. The later event of a test that proves the
# manager did not restart a running service.
fed_for() { # SECONDS
    local start ping
    start=$(unit_prop ExecMainStartTimestampMonotonic)
    ping=$(unit_prop WatchdogTimestampMonotonic)
    [ "${ping:-0}" -gt 0 ] && [ $((ping - start)) -ge $(($1 * 1000000)) ]
}

# Whether the unit's STATUS= text contains $1.
status_has() { grep -q -- "$1" <<<"$(unit_prop StatusText)"; }

# Prints the unit's status and recent journal, for a failing test's log.
dump_unit() {
    systemctl --user status --no-pager sensorwatch.service 2>&1 || true
    journalctl --no-pager -n 40 _PID="$(unit_prop MainPID)" 2>/dev/null || true
    journalctl --no-pager -n 40 -t sensorwatch || true
}

# Fails unless unit file $1 has an exposure of at most $2 (`systemd-analyze security
# --offline=yes`) and `systemd-analyze verify` is clean, its Documentation= man pages
# included; sets `exposure_line` and `exposure`.
check_unit_hardening() { # UNIT MAX
    local unit=$1 max=$2 exe=/bin/true tmp out
    exposure_line=$(systemd-analyze security --offline=yes "$unit" 2>&1 | grep 'Overall exposure level') \
        || fail "systemd-analyze security printed no overall exposure"
    echo "$exposure_line"
    exposure=$(sed -E 's/.*: ([0-9]+\.[0-9]+).*/\1/' <<<"$exposure_line")
    awk -v s="$exposure" -v m="$max" 'BEGIN { exit !(s <= m) }' || fail "exposure $exposure is above $max"
    # verify wants the ExecStart binary to exist: point it at the built one, or at /bin/true.
    if [ -x "$SENSORWATCH" ]; then exe=$SENSORWATCH; fi
    tmp=$(mktemp -d)
    sed "s|/usr/local/bin/sensorwatch|$exe|" "$unit" >"$tmp/${unit##*/}"
    # verify also runs `man` on each Documentation=man:… page: find them in the repository's man/.
    mkdir -p "$tmp/man/man8" "$tmp/man/man5"
    cp "$ROOT/man/sensorwatch.8" "$tmp/man/man8/"
    cp "$ROOT/man/sensorwatch.json5.5" "$tmp/man/man5/"
    out=$(MANPATH=$tmp/man systemd-analyze verify "$tmp/${unit##*/}" 2>&1) || { rm -rf "$tmp"; fail "systemd-analyze verify: $out"; }
    rm -rf "$tmp"
    [ -z "$out" ] || fail "systemd-analyze verify is not clean: $out"
}
