#!/usr/bin/env bash
# `sensorwatch watch` and `top` over ssh (issue 36: "any user can run it, over ssh and inside
# tmux"): an sshd of the test's own on 127.0.0.1:17122 (a temporary config, host key and
# authorized key; never the system's sshd nor port 22), a throwaway user that exists only in
# the test's mount namespace (a copy of /etc/passwd, /etc/group and /etc/shadow bound over
# them), and `run` on the live view's fake hwmon tree. Over ssh, as that user: `watch` prints
# the value and then its change; `top` through `ssh -t` in a tmux pane draws the rows, shows
# a change, and `q` ends it with exit 0 and the terminal as it was.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/tmux.sh"
require_namespaces
require_binary
need tmux tmux
need ssh openssh-client
need ssh-keygen openssh-client
need ss iproute2
# Not installed here: `make deps` installs openssh-server without starting or enabling the
# system's ssh service, which a test must not do on a machine it runs on.
[ -x /usr/sbin/sshd ] || skip "needs /usr/sbin/sshd (apt package openssh-server; make deps installs it)"
enter_namespace
PORT=17122
SSHD_PID=
daemon=
cleanup() {
    stop_tmux
    if [ -n "$daemon" ]; then kill "$daemon" 2>/dev/null || true; wait "$daemon" 2>/dev/null || true; fi
    if [ -n "$SSHD_PID" ]; then kill "$SSHD_PID" 2>/dev/null || true; wait "$SSHD_PID" 2>/dev/null || true; fi
}
trap cleanup EXIT
source "$(dirname "$0")/lib/live.sh"

note "a throwaway user, in this namespace only"
user=swssh
uid=64998
home=$WORK/home
mkdir -p "$home"
cp /etc/passwd "$WORK/passwd"
cp /etc/group "$WORK/group"
cp /etc/shadow "$WORK/shadow"
echo "$user:x:$uid:$uid:sensorwatch ssh test:$home:/bin/sh" >>"$WORK/passwd"
echo "$user:x:$uid:" >>"$WORK/group"
echo "$user:*:19000:0:99999:7:::" >>"$WORK/shadow"
mount --bind "$WORK/passwd" /etc/passwd
mount --bind "$WORK/group" /etc/group
mount --bind "$WORK/shadow" /etc/shadow
chown "$uid:$uid" "$home"
[ "$(id -u "$user")" = "$uid" ] || fail "the throwaway user is not there"

note "sshd on 127.0.0.1:$PORT with a host key and an authorized key of the test's own"
s=$WORK/ssh
mkdir -p "$s" /run/sshd
# StrictModes: every directory above the authorized keys writable by root only (the
# namespace's tmpfs on /mnt is made 1777).
chmod 755 /mnt "$WORK"
chmod 755 "$s"
ssh-keygen -q -t ed25519 -N '' -f "$s/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$s/client_key"
cp "$s/client_key.pub" "$s/authorized_keys"
chmod 644 "$s/authorized_keys"
cat >"$s/sshd_config" <<CONF
ListenAddress 127.0.0.1:$PORT
HostKey $s/host_key
AuthorizedKeysFile $s/authorized_keys
PidFile $s/sshd.pid
AllowUsers $user
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin no
X11Forwarding no
AllowTcpForwarding no
PrintMotd no
CONF
/usr/sbin/sshd -D -e -f "$s/sshd_config" 2>"$s/sshd.log" &
SSHD_PID=$!
wait_for "sshd's port" 100 sh -c "ss -ltn | grep -qF 127.0.0.1:$PORT"
ssh_opts="-i $s/client_key -p $PORT -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR"
# ssh_to COMMAND…: runs COMMAND as the throwaway user through the test's sshd.
ssh_to() { ssh $ssh_opts "$user@127.0.0.1" "$@"; }
who=$(ssh_to id -un 2>"$s/ssh.err") || fail "ssh as $user: $(cat "$s/ssh.err") $(cat "$s/sshd.log")"
[ "$who" = "$user" ] || fail "ssh ran as $who, not $user"

start_daemon
has() { grep -qE -- "$2" "$1"; }

note "watch over ssh, as $user"
ssh_to "id -un; exec $BIN watch --config $config" >"$WORK/watch.out" 2>"$WORK/watch.err" &
watcher=$!
wait_for "the value line over ssh" 100 has "$WORK/watch.out" "^[0-9]{2}:[0-9]{2}:[0-9]{2} $cpu 50 °C$"
[ "$(head -1 "$WORK/watch.out")" = "$user" ] || fail "watch did not run as $user: $(head -1 "$WORK/watch.out")"
echo 61000 >"$h/hwmon0/temp1_input"
wait_for "the change over ssh" 100 has "$WORK/watch.out" "^[0-9:]{8} $cpu 61 °C$"
kill "$watcher" 2>/dev/null || true
wait "$watcher" 2>/dev/null || true

note "top over ssh -t in tmux, as $user"
new_pane 80 24 "stty -a >$WORK/stty.before; ssh -t $ssh_opts $user@127.0.0.1 'LANG=C.UTF-8 exec $BIN top --config $config'; echo \$? >$WORK/top.rc; stty -a >$WORK/stty.after; sleep 60"
wait_screen "Package id 0"
wait_screen "61 °C"
screen_lacks "standalone" || fail "top over ssh says standalone: $(screen)"
echo 47000 >"$h/hwmon0/temp1_input"
wait_screen "47 °C"
screen | sed -n '1,5s/^/#   /p'
# The daemon sees the connection as the throwaway user's: the stream needs no privilege.
ps -o user= -C sensorwatch | grep -qx "$user" || fail "no sensorwatch of $user: $(ps -o user=,args= -C sensorwatch)"
tm send-keys -t main q
wait_for "top's exit over ssh" 50 test -s "$WORK/top.rc"
[ "$(cat "$WORK/top.rc")" = 0 ] || fail "top over ssh exited $(cat "$WORK/top.rc")"
wait_for "stty after top" 50 test -s "$WORK/stty.after"
diff "$WORK/stty.before" "$WORK/stty.after" >/dev/null || fail "stty -a differs after top over ssh"
screen_lacks "Package id 0" || fail "the alternate screen is still shown after top over ssh"
echo "ok"
