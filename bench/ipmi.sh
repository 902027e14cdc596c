#!/usr/bin/env bash
# BMC sensors (SPEC §23, issue 37), one run, side by side with FreeIPMI's and ipmitool's
# readings and prometheus-ipmi-exporter, all against OpenIPMI's simulator on 127.0.0.1
# (ports IPMI_PORT to IPMI_PORT + 59, default 19640): agreement of values, thresholds and states; CPU per BMC sweep at
# 8 BMCs / 2 s against the exporter's CPU per scrape; one BMC frozen (SIGSTOP) and thawed, the
# others' sweeps before and during it from a capture of their datagrams (bench/ipmi-sweeps.py);
# sessions left after stop, reload and kill -9 + restart; resident memory with 20 BMCs.
# Needs root (apt), the release binary (make release). Results go to bench/README.md by hand.
# env: SENSORWATCH, SHARED, IPMI_PORT (19640), BASELINE and ROUNDS (1) for the memory figure,
#      UNIT_ENV (1: sensorwatch with its unit's Environment=, 0: without).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SW=${SENSORWATCH:-$ROOT/.build/release/sensorwatch}
# sensorwatch runs with its unit's environment (glibc's malloc settings), as the service does,
# and the peers without it; UNIT_ENV=0 runs sensorwatch without it too.
UNIT_ENVIRONMENT=()
if [ "${UNIT_ENV:-1}" = 1 ]; then
    read -ra UNIT_ENVIRONMENT < <(sed -n 's/^Environment=//p' "$ROOT/systemd/sensorwatch.service")
fi
echo "sensorwatch's environment: ${UNIT_ENVIRONMENT[*]:-(none)}"
SIM=${SHARED:-$ROOT/../shared}/fixtures/ipmi
BASE=${IPMI_PORT:-19640}
for p in openipmi freeipmi-tools ipmitool prometheus-ipmi-exporter libfreeipmi17 bc jq tcpdump; do
    dpkg -s "$p" >/dev/null 2>&1 || apt-get -o DPkg::Lock::Timeout=600 install -y "$p" >/dev/null
done
W=$(mktemp -d /tmp/sensorwatch-bench-ipmi.XXXXXX)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill -CONT "$p" 2>/dev/null || true; kill "$p" 2>/dev/null || true; done; rm -rf "$W"; }
trap cleanup EXIT
sim() { local p; p=$("$SIM/start-sim.sh" "$W/sim-$1" "$1"); PIDS+=("$p"); echo "$p"; }
cpu() { awk '{ print $14 + $15 + $16 + $17 }' "/proc/$1/stat"; }  # own + waited-for children, ticks
tick=$(getconf CLK_TCK)
held() { local n; n=$(ipmitool -I lanplus -C 3 -H 127.0.0.1 -p "$1" -U admin -P secret session info active 2>/dev/null \
    | awk -F: '/active sessions/ { gsub(/ /, "", $2); print $2; exit }'); echo $((${n:-1} - 1)); }
printf 'secret\n' >"$W/pass"; chmod 600 "$W/pass"
cfg() { # FILE INTERVAL PORTS…
    local f=$1 i=$2 hosts=""; shift 2
    for p in "$@"; do hosts+="\"127.0.0.1:$p\", "; done
    cat >"$f" <<JSON
{ sources: [ { type: "ipmi", hosts: [$hosts], user: "admin", passwordFile: "$W/pass", privilege: "admin",
               workarounds: ["opensesspriv"], interval: "$i", timeout: "1s" } ] }
JSON
}
export STATE_DIRECTORY=$W/state RUNTIME_DIRECTORY=$W/run
mkdir -p "$STATE_DIRECTORY" "$RUNTIME_DIRECTORY" "$W/sdr"; chmod 700 "$W/sdr"

echo "## agreement (one simulator)"
A=$BASE; sim $A >/dev/null
cfg "$W/one.json5" 2s $A
"$SW" sensors --config "$W/one.json5" --json >"$W/ours.json"
ipmi-sensors -h 127.0.0.1:$A -u admin -p secret -D LAN_2_0 -W opensesspriv -l admin --sdr-cache-directory="$W/sdr" --quiet-cache \
    --output-sensor-thresholds --comma-separated-output --no-header-output >"$W/freeipmi.csv"
ipmitool -I lanplus -C 3 -H 127.0.0.1 -p $A -U admin -P secret sensor >"$W/ipmitool.txt"
cat >"$W/exporter.yml" <<YML
modules:
  default:
    user: admin
    pass: secret
    privilege: admin
    driver: LAN_2_0
    workaround_flags: [opensesspriv]
    timeout: 10000
    collectors: [ipmi]
YML
prometheus-ipmi-exporter --config.file="$W/exporter.yml" --web.listen-address=127.0.0.1:$((BASE + 59)) >"$W/exporter.log" 2>&1 &
EXP=$!; PIDS+=("$EXP")
for _ in $(seq 50); do curl -s -o /dev/null 127.0.0.1:$((BASE + 59))/metrics && break; sleep 0.1; done
curl -s "127.0.0.1:$((BASE + 59))/ipmi?target=127.0.0.1:$A" >"$W/exporter.prom"
printf '%-12s %-10s %-10s %-10s %-10s  %s\n' sensor sensorwatch ipmi-sensors ipmitool exporter thresholds-agree
jq -r '.[] | [.label, (.value // (.state | join("+"))), ((.limits // {}) | [.lcrit, .min, .max, .crit, .emergency] | map(. // "na" | tostring) | join("/"))] | @tsv' \
    "$W/ours.json" | while IFS=$'\t' read -r name value limits; do
    fi=$(awk -F, -v n="$name" '$2 == n { print ($4 == "N/A" ? $12 : $4 + 0) }' "$W/freeipmi.csv")
    fit=$(awk -F, -v n="$name" '$2 == n { s = ""; for (i = 7; i <= 11; i++) { if (i == 9) continue } 
        printf "%s/%s/%s/%s/%s", ($7=="N/A"?"na":$7+0), ($8=="N/A"?"na":$8+0), ($9=="N/A"?"na":$9+0), ($10=="N/A"?"na":$10+0), ($11=="N/A"?"na":$11+0) }' "$W/freeipmi.csv")
    it=$(awk -F'|' -v n="$name" '{ gsub(/^ +| +$/, "", $1); gsub(/^ +| +$/, "", $2) } $1 == n { print $2 + 0 }' "$W/ipmitool.txt")
    ex=$(grep -E "^ipmi_[a-z_]+\{[^}]*name=\"$name\"" "$W/exporter.prom" | grep -v '_state{' | sed -E 's/.*\} //' | head -1)
    st=$(grep -E "^ipmi_[a-z_]*state\{[^}]*name=\"$name\"" "$W/exporter.prom" | sed -E 's/.*\} //' | head -1)
    [ "$ex" = NaN ] && ex="state=$st"
    printf '%-12s %-10s %-10s %-10s %-10s  %s\n' "$name" "$value" "$fi" "$it" "${ex:-state=$st}" \
        "$([ "$limits" = "$fit" ] && echo yes || echo "no: $limits vs $fit")"
done

echo "## CPU: 8 BMCs at 2 s against the exporter's scrapes"
PORTS=(); for i in $(seq 0 7); do PORTS+=($((BASE + 2 + 2 * i))); sim "${PORTS[-1]}" >/dev/null; done
cfg "$W/eight.json5" 2s "${PORTS[@]}"
env "${UNIT_ENVIRONMENT[@]}" "$SW" run --config "$W/eight.json5" 2>"$W/run.log" &
D=$!; PIDS+=("$D")
sleep 5; c0=$(cpu $D); sleep 60; c1=$(cpu $D)
sweeps=$((8 * 30))
per_sweep=$(echo "scale=3; ($c1 - $c0) * 1000 / $tick / $sweeps" | bc)
echo "sensorwatch: $(( (c1 - c0) )) ticks in 60 s, ${per_sweep} ms CPU per BMC sweep (8 BMCs, 2 s)"
e0=$(cpu $EXP); for _ in $(seq 20); do curl -s -o /dev/null "127.0.0.1:$((BASE + 59))/ipmi?target=127.0.0.1:$A"; done; e1=$(cpu $EXP)
per_scrape=$(echo "scale=3; ($e1 - $e0) * 1000 / $tick / 20" | bc)
echo "prometheus-ipmi-exporter: ${per_scrape} ms CPU per scrape of one BMC (itself and its ipmimonitoring children)"
echo "ratio: $(echo "scale=4; $per_sweep / $per_scrape" | bc)"

echo "## one BMC frozen (SIGSTOP) among 8"
F=${PIDS[2]}  # the first of the eight (PIDS: the agreement's simulator, the exporter, the eight)
S=$RUNTIME_DIRECTORY/status.json
ok() { jq -e --arg id "ipmi:127.0.0.1:$1/Inlet_Temp" '.sensors[] | select(.id == $id) | .ok' "$S" >/dev/null 2>&1; }
timed_out() { jq -e --arg id "ipmi:127.0.0.1:$1/Inlet_Temp" --arg e "127.0.0.1:$1: session timeout after 1 s" \
    '.sensors[] | select(.id == $id) | .error == $e' "$S" >/dev/null 2>&1; }
until ok "${PORTS[0]}"; do sleep 0.05; done
# The other BMCs' sweeps, seen on the wire: 20 s before the freeze and 20 s of it.
tcpdump -i lo -n -tt -l "udp and portrange ${PORTS[0]}-$((PORTS[7] + 1))" >"$W/sweeps.txt" 2>"$W/tcpdump.log" & CAP=$!
PIDS+=("$CAP")
until grep -q listening "$W/tcpdump.log"; do sleep 0.05; done
sleep 20
t0=$(date +%s.%N); kill -STOP "$F"
until timed_out "${PORTS[0]}"; do sleep 0.05; done
echo "frozen BMC's sensors a fault after $(echo "$(date +%s.%N) - $t0" | bc) s (timeout 1 s, interval 2 s)"
sleep "$(echo "20 - ($(date +%s.%N) - $t0)" | bc)"
t1=$(date +%s.%N); kill -CONT "$F"
until ok "${PORTS[0]}"; do sleep 0.05; done
echo "back $(echo "$(date +%s.%N) - $t1" | bc) s after SIGCONT"
kill "$CAP"; wait "$CAP" 2>/dev/null || true
python3 "$ROOT/bench/ipmi-sweeps.py" "$W/sweeps.txt" "${PORTS[0]}" "$t0" "$t1" "$(IFS=,; echo "${PORTS[*]}")"

echo "## sessions left"
kill -TERM $D; wait $D || true
echo "after stop: $(held "${PORTS[1]}")"
env "${UNIT_ENVIRONMENT[@]}" "$SW" run --config "$W/eight.json5" 2>>"$W/run.log" & D=$!; PIDS+=("$D"); sleep 3
cfg "$W/eight.json5" 2s "${PORTS[@]:1}"; kill -HUP $D; sleep 2
echo "after a reload that drops a BMC: $(held "${PORTS[0]}")"
kill -KILL $D; wait $D 2>/dev/null || true
env "${UNIT_ENVIRONMENT[@]}" "$SW" run --config "$W/eight.json5" 2>>"$W/run.log" & D=$!; PIDS+=("$D"); sleep 3; kill -TERM $D; wait $D || true
echo "after kill -9 + restart + stop: $(held "${PORTS[1]}")"

echo "## resident memory, 20 BMCs"
P20=("${PORTS[@]}"); for i in $(seq 0 11); do P20+=($((BASE + 20 + 2 * i))); sim "${P20[-1]}" >/dev/null; done
cfg "$W/twenty.json5" 2s "${P20[@]}"
# BASELINE (another build, e.g. the parent commit's, copied to /tmp) is measured on the same
# simulators, alternating with this one, ROUNDS times.
for round in $(seq "${ROUNDS:-1}"); do
    for bin in "$SW" ${BASELINE:+"$BASELINE"}; do
        env "${UNIT_ENVIRONMENT[@]}" "$bin" run --config "$W/twenty.json5" 2>>"$W/run.log" & D=$!; PIDS+=("$D")
        # At 20 s, and at 60 s, when it has stopped growing (malloc's arenas and the threads'
        # stacks reach their size over the first half minute).
        for at in 20 60; do
            sleep $((at == 20 ? 20 : 40))
            echo "resident with 20 BMCs at ${at} s ($bin, round $round): $(awk '/VmRSS/ { print $2 / 1024 " MiB" }' /proc/$D/status)" \
                "(peak $(awk '/VmHWM/ { print $2 / 1024 " MiB" }' /proc/$D/status); anonymous $(awk '/RssAnon/ { print $2 / 1024 " MiB" }' /proc/$D/status)," \
                "files $(awk '/RssFile/ { print $2 / 1024 " MiB" }' /proc/$D/status))"
        done
        kill -TERM $D; wait $D || true
    done
done
