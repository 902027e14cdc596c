#!/usr/bin/env bash
# Prometheus end to end (SPEC §12), with the real parts, all on 127.0.0.1:
#   1. `sensorwatch run` with `metrics: { textfile, interval: "1s" }` under UMask 0077 plays
#      a scenario; the file is mode 0644, no temporary file is left, `promtool check
#      metrics` finds nothing.
#   2. node_exporter (textfile collector only, :19100) exports it; a real prometheus (:19090)
#      scrapes it every second; its HTTP API reads back values in base units, sensor_up (a
#      sensor whose reads all failed has no value series), alert_firing, the event counter,
#      the escaped label, the README's PromQL and its alerting rule, and that node_exporter
#      never reported a scrape error nor read any file but ours while sensorwatch wrote.
#   3. A clean stop removes the file: the series go absent in prometheus.
#   4. What node_exporter 1.5 refuses silently, shown on copies of our last file: sample
#      timestamps and one bad label each drop the whole file (node_textfile_scrape_error 1),
#      a second *.prom with one of our families loses series with nothing but a log line —
#      while our own file, and a leftover temporary file of ours beside it, are clean.
# Installs prometheus and prometheus-node-exporter with apt when missing; starts neither
# service (the binaries run as this test's own processes, killed by PID).
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
require_namespaces
require_binary
PROM_PORT=19090
NE_PORT=19100

# Debian's packages; policy-rc.d (where present) and the absent systemd keep their services
# from starting: the binaries run below as this test's own processes.
need prometheus prometheus
need promtool prometheus
need prometheus-node-exporter prometheus-node-exporter
need curl curl
enter_namespace

pids=()
cleanup() {
    local p
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
}
trap cleanup EXIT
on_fail() {
    echo "--- sensorwatch stderr"; tail -n 20 "$WORK/stderr" 2>/dev/null || true
    echo "--- node_exporter"; tail -n 10 "$WORK/node_exporter.log" 2>/dev/null || true
    echo "--- prometheus"; tail -n 10 "$WORK/prometheus.log" 2>/dev/null || true
}
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
port_free $PROM_PORT || fail "port $PROM_PORT on 127.0.0.1 is in use"
port_free $NE_PORT || fail "port $NE_PORT on 127.0.0.1 is in use"

TEXTFILES=$WORK/node-exporter
PROM=$TEXTFILES/sensorwatch.prom
mkdir -p "$TEXTFILES"

# ---- 1. sensorwatch writes the file -------------------------------------------------------
cat >"$WORK/scenario.json5" <<'JSON'
{
  duration: "600s",
  step: "1s",
  loop: false,
  sensors: [
    { id: "cpu", quantity: "temperature", label: "CPU \"package\" \\ 0",
      samples: [[0, 50], [1, 85], [2, 86], [3, 50], [4, 85], [5, 86.5]] },
    { id: "room", quantity: "humidity", label: "Living room", samples: [[0, 41.5]] },
    { id: "baro", quantity: "pressure", label: "Barometer", samples: [[0, 1013.25]] },
    { id: "dead", quantity: "humidity", label: "Cellar", samples: [[0, null], [1, null], [2, null]] },
  ],
}
JSON
cat >"$WORK/sensorwatch.json5" <<JSON
{
  sources: [ { type: "simulated", scenario: "scenario.json5", interval: "100ms" } ],
  rules: [
    { name: "cpu-hot", sensor: "sim:cpu", above: 80, severity: "critical" },
    { name: "dry-air", quantity: "humidity", below: 25, severity: "warning" },
  ],
  metrics: { textfile: "$PROM", interval: "1s" },
}
JSON
"$BIN" check --config "$WORK/sensorwatch.json5" >/dev/null || fail "check refused the test configuration"
mkdir -p "$WORK/state"
(umask 0077; STATE_DIRECTORY=$WORK/state exec "$BIN" run --config "$WORK/sensorwatch.json5") 2>"$WORK/stderr" &
sw_pid=$!; pids+=("$sw_pid")
started=$EPOCHREALTIME
wait_for "the metrics file" 100 test -s "$PROM"

# ---- 2. node_exporter and prometheus -------------------------------------------------------
prometheus-node-exporter --collector.disable-defaults --collector.textfile \
    --collector.textfile.directory="$TEXTFILES" --web.listen-address=127.0.0.1:$NE_PORT \
    >"$WORK/node_exporter.log" 2>&1 &
pids+=($!)
cat >"$WORK/alerts.yml" <<'YAML'
groups:
  - name: sensorwatch
    rules:
      - alert: SensorwatchAlertFiring
        expr: sensorwatch_alert_firing == 1
        labels:
          severity: "{{ $labels.severity }}"
        annotations:
          summary: "{{ $labels.rule }} fires for {{ $labels.sensor }} on {{ $labels.instance }}"
      - alert: SensorwatchSensorDown
        expr: sensorwatch_sensor_up == 0
        for: 5m
YAML
promtool check rules "$WORK/alerts.yml" >/dev/null || fail "promtool check rules refused the README's rules"
cat >"$WORK/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files: [ "$WORK/alerts.yml" ]
scrape_configs:
  - job_name: node
    static_configs:
      - targets: [ "127.0.0.1:$NE_PORT" ]
        labels: { instance: "host-a" }
YAML
prometheus --config.file="$WORK/prometheus.yml" --storage.tsdb.path="$WORK/tsdb" \
    --web.listen-address=127.0.0.1:$PROM_PORT >"$WORK/prometheus.log" 2>&1 &
pids+=($!)

api() { curl -sf --get --data-urlencode "query=$1" "http://127.0.0.1:$PROM_PORT/api/v1/query"; }
# The value of a one-series query ("" when it has none).
value() { api "$1" | jq -r '.data.result[0].value[1] // ""'; }
is() { [ "$(value "$1")" = "$2" ]; }
expect() { # QUERY VALUE
    local got; got=$(value "$1")
    [ "$got" = "$2" ] || fail "$1: expected $2, got '${got:-no series}'"
    printf '  %-90s %s\n' "$1" "$got"
}

wait_for "prometheus to scrape the scenario's end" 400 is \
    'sensorwatch_alert_events_total{rule="cpu-hot",event="firing"}' 2
wait_for "cpu-hot to fire in prometheus's rules" 100 is 'count(ALERTS{alertstate="firing",alertname="SensorwatchAlertFiring"})' 1
# Ten scrapes at least, so that node_exporter reads files of ours written while it scraped.
ten_scrapes() { [ "$(value 'count_over_time(up{job="node"}[10m])')" -ge 10 ] 2>/dev/null; }
wait_for "ten scrapes" 200 ten_scrapes

# The file itself, as node_exporter reads it.
[ "$(stat -c %a "$PROM")" = 644 ] || fail "mode $(stat -c %a "$PROM") under umask 0077, expected 644"
# Beside it only the temporary name, which keeps the file replaced last (to be overwritten
# next time); node_exporter reads only *.prom.
[ "$(ls -A "$TEXTFILES" | paste -sd' ')" = ".sensorwatch.prom.tmp sensorwatch.prom" ] \
    || fail "files beside ours: $(ls -A "$TEXTFILES" | paste -sd' ')"
# Reused, not made anew: the file written next has the temporary file's inode.
# (A write between the two looks swaps them: look again until the spare stayed put.)
spare_stayed() {
    spare=$(stat -c %i "$TEXTFILES/.sensorwatch.prom.tmp")
    current=$(stat -c %i "$PROM")
    [ "$(stat -c %i "$TEXTFILES/.sensorwatch.prom.tmp")" = "$spare" ] && [ "$spare" != "$current" ]
}
WAIT_EVERY=0 wait_for "a spare file that stayed put between two looks" 200 spare_stayed
wait_for "the next metrics file" 60 eval '[ "$(stat -c %i "$PROM")" != "$current" ]'
[ "$(stat -c %i "$PROM")" = "$spare" ] || fail "the next file is a new inode $(stat -c %i "$PROM"), not the spare $spare"
cp "$PROM" "$WORK/last.prom"
lint=$(promtool check metrics <"$WORK/last.prom" 2>&1) || fail "promtool check metrics: $lint"
[ -z "$lint" ] || fail "promtool check metrics: $lint"
grep -q '^# HELP sensorwatch_temperature_celsius ' "$WORK/last.prom" || fail "no HELP"
note "the file (mode 644, promtool clean):"
sed 's/^/  /' "$WORK/last.prom"

note "read back through prometheus's HTTP API:"
expect 'sensorwatch_temperature_celsius{sensor="sim:cpu"}' 86.5
expect 'sensorwatch_humidity_ratio{sensor="sim:room",label="Living room"}' 0.415
expect 'sensorwatch_pressure_pascals{sensor="sim:baro"}' 101325
expect 'sensorwatch_sensor_up{sensor="sim:cpu",quantity="temperature"}' 1
expect 'sensorwatch_sensor_up{sensor="sim:dead",quantity="humidity"}' 0
expect 'count(sensorwatch_humidity_ratio{sensor="sim:dead"}) or vector(0)' 0
expect 'count(sensorwatch_sensor_last_reading_timestamp_seconds{sensor="sim:dead"}) or vector(0)' 0
expect 'sensorwatch_alert_firing{rule="cpu-hot",sensor="sim:cpu",severity="critical"}' 1
expect 'sensorwatch_alert_firing{rule="dry-air",sensor="sim:room",severity="warning"}' 0
expect 'count(sensorwatch_alert_firing)' 3
expect 'sensorwatch_alert_events_total{rule="cpu-hot",event="firing"}' 2
expect 'sensorwatch_alert_events_total{rule="cpu-hot",event="resolved"}' 1
expect 'sensorwatch_alert_events_total{rule="cpu-hot",event="repeat"}' 0
expect 'sensorwatch_alert_events_total{rule="dry-air",event="firing"}' 0
expect 'sensorwatch_build_info{version="'"$("$BIN" --version | awk '{print $2}')"'"}' 1
expect 'max by (instance) (sensorwatch_temperature_celsius)' 86.5
expect 'count(sensorwatch_temperature_celsius{sensor="sim:cpu",label="CPU \"package\" \\ 0"})' 1
# The reading's time is within the run, in Unix seconds.
ts=$(value 'sensorwatch_sensor_last_reading_timestamp_seconds{sensor="sim:cpu"}')
awk -v t="$ts" -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { exit !(t >= a - 1 && t <= b) }' \
    || fail "last reading timestamp $ts not within the run ($started..$EPOCHREALTIME)"
alert=$(curl -sf "http://127.0.0.1:$PROM_PORT/api/v1/alerts" \
    | jq -c '[.data.alerts[] | select(.labels.alertname == "SensorwatchAlertFiring" and .state == "firing")
              | {rule: .labels.rule, sensor: .labels.sensor, severity: .labels.severity, summary: .annotations.summary}]')
[ "$alert" = '[{"rule":"cpu-hot","sensor":"sim:cpu","severity":"critical","summary":"cpu-hot fires for sim:cpu on host-a"}]' ] \
    || fail "prometheus alert: $alert"
note "  prometheus alert: $alert"
# While sensorwatch wrote (a new file every second), node_exporter never failed a file nor
# read one but ours (the temporary file's name does not end in .prom).
expect 'max_over_time(node_textfile_scrape_error[10m])' 0
files=$(api 'group by (file) (last_over_time(node_textfile_mtime_seconds[10m]))' | jq -r '[.data.result[].metric.file] | join(" ")')
[ "$files" = "$PROM" ] || fail "node_exporter read: $files"
# One expression, so both counts are taken at one evaluation time (a scrape may land between
# two queries).
missing=$(value 'sum(count_over_time(up{job="node"}[10m])) - sum(count_over_time(sensorwatch_build_info[10m]))')
scrapes=$(value 'count_over_time(up{job="node"}[10m])')
[ "$missing" = 0 ] || fail "sensorwatch_build_info missing from $missing of about $scrapes scrapes"
note "  sensorwatch's series were in all $scrapes scrapes; node_exporter read only $files"

# ---- 3. a clean stop removes the file ------------------------------------------------------
kill -TERM "$sw_pid"
wait "$sw_pid" || fail "run exited with $? on SIGTERM"
[ -z "$(ls -A "$TEXTFILES")" ] || fail "left after a clean stop: $(ls -A "$TEXTFILES")"
wait_for "the series to go absent" 50 is 'absent(sensorwatch_build_info)' 1
note "after SIGTERM: no file, absent(sensorwatch_build_info) = 1"

# ---- 4. what node_exporter 1.5 refuses silently --------------------------------------------
# node_exporter's own view of one file set: "ERROR SERIES" (scrape_error and how many
# sensorwatch series it exports).
exported() {
    curl -sf "http://127.0.0.1:$NE_PORT/metrics" \
        | awk '/^node_textfile_scrape_error / { e = $2 } /^sensorwatch_/ { n++ } END { print e + 0, n + 0 }'
}
ours=$(grep -c '^sensorwatch_' "$WORK/last.prom")
only() { rm -f "$TEXTFILES"/* "$TEXTFILES"/.[!.]*; for f in "$@"; do cp "$WORK/$f" "$TEXTFILES/$f"; done; }
cp "$WORK/last.prom" "$WORK/sensorwatch.prom"
# Our file plus a leftover temporary file of ours: all our series, no error.
cp "$WORK/last.prom" "$WORK/.sensorwatch.prom.tmp"
only sensorwatch.prom .sensorwatch.prom.tmp
[ "$(exported)" = "0 $ours" ] || fail "our file + our temporary file: $(exported), expected 0 $ours"
# Sample timestamps: the whole file is dropped.
sed -E '/^sensorwatch_/ s/$/ 1764583466000/' "$WORK/last.prom" >"$WORK/timestamps.prom"
only timestamps.prom
[ "$(exported)" = "1 0" ] || fail "file with timestamps: $(exported), expected 1 0"
grep -q 'unsupported client-side timestamps' "$WORK/node_exporter.log" || fail "no timestamp error logged"
# One unescaped quote in one label value: the whole file is dropped.
sed 's/CPU \\"package\\"/CPU "package"/' "$WORK/last.prom" >"$WORK/badlabel.prom"
[ "$(grep -c 'CPU "package"' "$WORK/badlabel.prom")" -ge 1 ] || fail "could not make the bad label"
only badlabel.prom
[ "$(exported)" = "1 0" ] || fail "file with a bad label: $(exported), expected 1 0"
# A second *.prom with one of our families under another HELP (another exporter, or a
# temporary file named *.prom): no scrape error at all, yet a series is lost — here ours,
# since node_exporter reads other.prom first — and only node_exporter's log says so.
cat >"$WORK/other.prom" <<'PROM'
# HELP sensorwatch_temperature_celsius Temperature.
# TYPE sensorwatch_temperature_celsius gauge
sensorwatch_temperature_celsius{sensor="other:probe",label=""} 20
PROM
only sensorwatch.prom other.prom
scrape=$(curl -sf "http://127.0.0.1:$NE_PORT/metrics")
grep -q '^node_textfile_scrape_error 0$' <<<"$scrape" || fail "a second .prom set scrape_error"
! grep -q '^sensorwatch_temperature_celsius{.*sim:cpu' <<<"$scrape" || fail "our series survived the collision?"
grep -q 'has help ."Latest successful temperature reading.* but should have ."Temperature' "$WORK/node_exporter.log" \
    || fail "node_exporter did not log the collision"
only sensorwatch.prom
[ "$(exported)" = "0 $ours" ] || fail "our file again: $(exported)"
note "node_exporter: timestamps and a bad label drop the whole file (scrape_error 1), a second"
note "*.prom makes a series vanish silently (scrape_error 0); our file and our temporary name: clean"
note "took $(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s after sensorwatch started"
