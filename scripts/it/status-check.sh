#!/usr/bin/env bash
# `sensorwatch status` against a real daemon (SPEC §19): `run` keeps status.json (0644,
# with the firing alert), `status --check` follows the monitoring-plugins development
# guidelines (one line, `SENSORWATCH STATE - text | 'label'=value;warn;crit`, exit 0/1/2/3,
# UNKNOWN when the file is missing or older than 30 s), the file goes at a clean stop, and
# a real scheduler — Nagios 4 from Debian — runs it as a check_command and records state 2.
set -u
. "$(dirname "$0")/lib/common.sh"
require_binary
need jq jq
work=$(mktemp -d /tmp/sw-status.XXXXXX)
# The daemon keeps its state here, not in the host's /var/lib/sensorwatch (where a later run
# would find this run's alerts firing and log no firing).
export STATE_DIRECTORY="$work/state"
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
    if [ -n "${KEEP:-}" ]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

# A CPU that holds 97 °C (critical above 95, warning above 85) and a humidity of 20 %RH
# (notice below 25): the check is CRITICAL while the daemon runs.
cat >"$work/hot.json5" <<'J'
{ duration: "1h", step: "1s", loop: false, sensors: [
  { id: "cpu", quantity: "temperature", label: "CPU package", start: 97 },
  { id: "room", quantity: "humidity", label: "Living room", start: 20 } ] }
J
cat >"$work/c.json5" <<J
{ sources: [ { type: "simulated", scenario: "hot.json5", interval: "200ms" } ],
  statusFile: "status.json",
  rules: [
    { name: "cpu-hot", sensor: "sim:cpu", above: 85, severity: "warning" },
    { name: "cpu-crit", sensor: "sim:cpu", above: 95, severity: "critical" },
    { name: "dry-air", sensor: "sim:room", below: 25, severity: "notice" } ] }
J
"$SENSORWATCH" run --config "$work/c.json5" 2>"$work/run.log" &
daemon=$!
pids+=("$daemon")
file=$work/status.json
has_critical() { [ -f "$file" ] && jq -e '.alerts | any(.rule == "cpu-crit" and .state == "firing")' "$file" >/dev/null 2>&1; }
wait_for "the status file with cpu-crit firing" 100 has_critical
[ "$(stat -c %a "$file")" = 644 ] || fail "status.json has mode $(stat -c %a "$file"), not 644"
jq -e --arg pid "$daemon" '.pid == ($pid | tonumber) and (.sensors | length) == 2 and (.sensors[0] | has("limits"))' "$file" >/dev/null \
    || fail "status.json lacks pid, sensors or limits: $(cat "$file")"
"$SENSORWATCH" status --config "$work/c.json5" | grep -q "CRITICAL  cpu-crit" || fail "status does not list cpu-crit first"
"$SENSORWATCH" status --json --file "$file" | jq -e . >/dev/null || fail "status --json is not the JSON file"

# check LINE CODE EXPECTED-CODE: the monitoring-plugins guidelines' output and exit code.
perf_item="'([^']|'')+'=(U|-?[0-9]+(\.[0-9]+)?)(;(-?[0-9.]+)?){0,4}"
check_plugin() {
    local out=$1 code=$2 want=$3
    [ "$code" = "$want" ] || fail "exit $code, expected $want: $out"
    [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || fail "more than one line: $out"
    local state
    case $code in 0) state=OK ;; 1) state=WARNING ;; 2) state=CRITICAL ;; 3) state=UNKNOWN ;; esac
    [[ $out =~ ^SENSORWATCH\ $state\ -\ [^|]+$ || $out =~ ^SENSORWATCH\ $state\ -\ [^|]+\ \|\ (.*)$ ]] \
        || fail "not 'SENSORWATCH $state - text [| perfdata]': $out"
    local perf=${BASH_REMATCH[1]:-} item
    for item in $perf; do
        [[ $item =~ ^$perf_item$ ]] || fail "perfdata item '$item' is not 'label'=value[UOM];warn;crit;min;max"
    done
}
out=$("$SENSORWATCH" status --check --file "$file"); check_plugin "$out" $? 2
note "$out"
case $out in *"'sim:cpu'=97"*) ;; *) fail "no perfdata for sim:cpu: $out" ;; esac

# Nagios 4 runs it as a check_command and keeps its state and output in status.dat.
if [ "$(id -u)" = 0 ]; then need nagios4 nagios4-core; fi
if command -v nagios4 >/dev/null || [ -x /usr/sbin/nagios4 ]; then
    n=$work/nagios
    mkdir -p "$n/checkresults"
    cat >"$n/nagios.cfg" <<N
log_file=$n/nagios.log
cfg_file=$n/objects.cfg
object_cache_file=$n/objects.cache
precached_object_file=$n/objects.precache
status_file=$n/status.dat
status_update_interval=1
temp_file=$n/nagios.tmp
temp_path=$n
lock_file=$n/nagios.lock
query_socket=$n/nagios.qh
check_result_path=$n/checkresults
command_file=$n/nagios.cmd
check_external_commands=0
retain_state_information=0
state_retention_file=$n/retention.dat
nagios_user=$(id -un)
nagios_group=$(id -gn)
interval_length=1
max_service_check_spread=1
max_host_check_spread=1
service_inter_check_delay_method=n
host_inter_check_delay_method=n
enable_notifications=0
use_syslog=0
N
    cat >"$n/objects.cfg" <<N
define timeperiod {
    timeperiod_name always
    alias always
    sunday 00:00-24:00
    monday 00:00-24:00
    tuesday 00:00-24:00
    wednesday 00:00-24:00
    thursday 00:00-24:00
    friday 00:00-24:00
    saturday 00:00-24:00
}
define command {
    command_name ok
    command_line /bin/true
}
define command {
    command_name check_sensorwatch
    command_line $SENSORWATCH status --check --file \$ARG1\$
}
define contact {
    contact_name nobody
    host_notifications_enabled 0
    service_notifications_enabled 0
    host_notification_period always
    service_notification_period always
    host_notification_options n
    service_notification_options n
    host_notification_commands ok
    service_notification_commands ok
}
define host {
    host_name localhost
    address 127.0.0.1
    check_command ok
    max_check_attempts 1
    check_period always
    notification_period always
    contacts nobody
}
define service {
    host_name localhost
    service_description sensorwatch
    check_command check_sensorwatch!$file
    max_check_attempts 1
    check_interval 2
    retry_interval 2
    check_period always
    notification_period always
    contacts nobody
}
N
    nagios=$(command -v nagios4 || echo /usr/sbin/nagios4)
    "$nagios" -v "$n/nagios.cfg" >"$n/verify.log" 2>&1 || { cat "$n/verify.log"; fail "nagios4 rejects the test configuration"; }
    "$nagios" "$n/nagios.cfg" >"$n/out.log" 2>&1 &
    pids+=($!)
    # Its log records each hard state change with the plugin's output (";" shown as ":").
    nagios_says_critical() {
        grep -q "SERVICE ALERT: localhost;sensorwatch;CRITICAL;HARD;1;SENSORWATCH CRITICAL - 1 critical: cpu-crit on sim:cpu" "$n/nagios.log" 2>/dev/null
    }
    wait_for "Nagios to record the check as CRITICAL" 300 nagios_says_critical
    note "nagios4: $(grep -m1 'SERVICE ALERT' "$n/nagios.log")"
else
    note "nagios4 is not installed and cannot be: the check ran from this shell only"
fi

# A clean stop removes the file; then the check is UNKNOWN (3).
kill -TERM "$daemon"
wait "$daemon" 2>/dev/null
pids=("${pids[@]/$daemon}")
[ ! -e "$file" ] || fail "status.json is still there after a clean stop"
out=$("$SENSORWATCH" status --check --file "$file"); check_plugin "$out" $? 3
[ "$out" = "SENSORWATCH UNKNOWN - no status file at $file (is sensorwatch running?)" ] || fail "unexpected: $out"
"$SENSORWATCH" status --file "$file" >/dev/null 2>&1 && fail "status without a file exited 0"

# Older than 30 s: a frozen daemon, UNKNOWN. A warning alone: WARNING (1); nothing: OK (0).
now=$(date -u +%Y-%m-%dT%H:%M:%S.000Z)
old=$(date -u -d '-31 seconds' +%Y-%m-%dT%H:%M:%S.000Z)
write_status() { # FILE UPDATED ALERTS-JSON
    printf '{"version":"t","pid":1,"started":"%s","updated":"%s","sensors":[{"id":"sim:cpu","label":"","quantity":"temperature","unit":"°C","value":90,"time":"%s","ok":true,"error":null,"limits":{"max":85,"crit":95}}],"alerts":%s}\n' \
        "$2" "$2" "$2" "$3" >"$1"
}
warn='[{"rule":"cpu-hot","sensor":"sim:cpu","severity":"warning","state":"firing","since":"'$now'","value":90,"threshold":85}]'
pend='[{"rule":"cpu-hot","sensor":"sim:cpu","severity":"critical","state":"pending","since":"'$now'","value":90,"threshold":85}]'
write_status "$work/old.json" "$old" "$warn"
out=$("$SENSORWATCH" status --check --file "$work/old.json"); check_plugin "$out" $? 3
write_status "$work/warn.json" "$now" "$warn"
out=$("$SENSORWATCH" status --check --file "$work/warn.json"); check_plugin "$out" $? 1
[ "$out" = "SENSORWATCH WARNING - 1 warning: cpu-hot on sim:cpu (90 °C); 1 sensor | 'sim:cpu'=90;85;95" ] || fail "unexpected: $out"
write_status "$work/pending.json" "$now" "$pend"
out=$("$SENSORWATCH" status --check --file "$work/pending.json"); check_plugin "$out" $? 0
echo 'not json' >"$work/bad.json"
out=$("$SENSORWATCH" status --check --file "$work/bad.json"); check_plugin "$out" $? 3
out=$("$SENSORWATCH" status --check --no-such-option 2>/dev/null); check_plugin "$out" $? 3
exit 0
