# The set-up of the live view's tests (scripts/it/live-*.sh; sourced after common.sh, inside
# the namespace): a fake hwmon tree of two chips — coretemp (labelled, with max and crit) and
# one whose label holds ESC[2J — a configuration with the live socket in $WORK and a rule
# that fires above 85 °C on coretemp, and start_daemon (its PID in $daemon).

h=$WORK/hwmon
mkdir -p "$h/hwmon0" "$h/hwmon1"
echo coretemp >"$h/hwmon0/name"
echo "Package id 0" >"$h/hwmon0/temp1_label"
echo 50000 >"$h/hwmon0/temp1_input"
echo 80000 >"$h/hwmon0/temp1_max"
echo 100000 >"$h/hwmon0/temp1_crit"
echo evil >"$h/hwmon1/name"
printf 'bad\e[2Jlabel\n' >"$h/hwmon1/temp1_label"
echo 30000 >"$h/hwmon1/temp1_input"
config=$WORK/sensorwatch.json5
cat >"$config" <<JSON
{
  interval: "200ms",
  liveSocket: "$WORK/live.sock",
  statusFile: "$WORK/status.json",
  sources: [ { type: "hwmon", root: "$h" } ],
  rules: [ { name: "cpu-hot", sensor: "hwmon:coretemp*", above: 85, severity: "critical" } ],
}
JSON
# User nobody reads the tree and the configuration, and connects to the socket.
chmod 755 "$WORK" "$h" "$h"/hwmon*
cpu=hwmon:coretemp-virtual-0/temp1
daemon=

start_daemon() {
    "$BIN" run --config "$config" >"$WORK/run.log" 2>&1 &
    daemon=$!
    wait_for "the live socket" 100 test -S "$WORK/live.sock"
}

stop_daemon() {
    kill "$daemon"
    wait "$daemon" || true
    daemon=
}
