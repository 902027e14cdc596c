#!/usr/bin/env bash
# The tour's `make run`, then `sensorwatch status` in another terminal (issue 34): outside
# systemd RUNTIME_DIRECTORY is unset, so `run` keeps status.json by the runtime-directory
# rule (SPEC §19) and `status` finds it there with no path given — as root
# (/run/sensorwatch, on a tmpfs /run of a private mount namespace) and as a user who is not
# root ($XDG_RUNTIME_DIR/sensorwatch, setpriv to nobody). `make -n run` keeps the demo's
# state under .build, never in the installed service's /var/lib/sensorwatch.
set -u
. "$(dirname "$0")/lib/common.sh"
[ "$(id -u)" = 0 ] || skip "needs root for mount namespaces and setpriv"
need unshare util-linux
need setpriv util-linux
need make make
require_binary

# Before the namespace: the Makefile's run target, dry (nothing built or started).
dry=$(make -n -C "$ROOT" run 2>&1 | grep -E '(^|[ /])sensorwatch run ') || fail "make -n run shows no run command"
case $dry in
    *"STATE_DIRECTORY=$ROOT/.build/run-state "*) ;;
    *) fail "make run's state is not under .build/run-state: $dry" ;;
esac
case $dry in *"/var/lib/sensorwatch"*) fail "make run uses /var/lib/sensorwatch: $dry" ;; esac
note "make -n run: $dry"

enter_namespace
unset RUNTIME_DIRECTORY XDG_RUNTIME_DIR
on_fail() {
    for f in root.log nobody.log status.err status.out; do
        [ -s "$WORK/$f" ] && { echo "--- $f"; tail -n 20 "$WORK/$f"; }
    done
    ls -la /run/sensorwatch "$WORK"/xdg-nobody/sensorwatch 2>/dev/null || true
}
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
}
trap cleanup EXIT

cat >"$WORK/hot.json5" <<'J'
{ duration: "1h", step: "1s", loop: false, sensors: [ { id: "cpu", quantity: "temperature", label: "CPU", start: 97 } ] }
J
cat >"$WORK/c.json5" <<'J'
{ sources: [ { type: "simulated", scenario: "hot.json5", interval: "200ms" } ],
  rules: [ { name: "cpu-crit", sensor: "sim:cpu", above: 95, severity: "critical" } ] }
J
chmod 0644 "$WORK/hot.json5" "$WORK/c.json5"

# status_works AS-USER FILE: `status` (no --file, no --config) shows the firing alert, and
# --check says CRITICAL; `as` runs a command as that user with the environment given.
status_works() {
    local file=$1
    shift
    [ -f "$file" ] || return 1
    "$@" "$BIN" status 2>"$WORK/status.err" >"$WORK/status.out" || return 1
    grep -q "CRITICAL  cpu-crit  sim:cpu  97 °C  threshold 95 °C" "$WORK/status.out"
}

# Root, RUNTIME_DIRECTORY unset: /run/sensorwatch/status.json.
STATE_DIRECTORY=$WORK/state-root "$BIN" run --config "$WORK/c.json5" 2>"$WORK/root.log" &
daemon=$!
pids+=("$daemon")
wait_for "status beside a root run" 100 status_works /run/sensorwatch/status.json env
code=0
"$BIN" status --check >/dev/null || code=$?
[ "$code" = 2 ] || fail "status --check beside a root run: exit $code"
kill "$daemon"
wait "$daemon" 2>/dev/null || true
[ ! -e /run/sensorwatch/status.json ] || fail "status.json left at a clean stop"
note "root: run and status meet in /run/sensorwatch"

# A user who is not root, with XDG_RUNTIME_DIR a directory of its own: there, not /run.
xdg=$WORK/xdg-nobody
mkdir -p "$xdg" "$WORK/state-nobody"
chown 65534:65534 "$xdg" "$WORK/state-nobody"
chmod 0700 "$xdg"
as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups env -u RUNTIME_DIRECTORY
    XDG_RUNTIME_DIR="$xdg" STATE_DIRECTORY="$WORK/state-nobody")
"${as_nobody[@]}" "$BIN" run --config "$WORK/c.json5" 2>"$WORK/nobody.log" &
daemon=$!
pids+=("$daemon")
wait_for "status beside a run as nobody" 100 status_works "$xdg/sensorwatch/status.json" "${as_nobody[@]}"
[ "$(stat -c %u "$xdg/sensorwatch/status.json")" = 65534 ] || fail "status.json not nobody's"
[ ! -e /run/sensorwatch/status.json ] || fail "a run as nobody wrote /run/sensorwatch/status.json"
kill "$daemon"
wait "$daemon" 2>/dev/null || true
note "nobody: run and status meet in \$XDG_RUNTIME_DIR/sensorwatch"
echo "ok: run and status meet without a path, as root and as a user; make run keeps its state under .build"
