# Helpers of the BMC tests (scripts/it/ipmi-*.sh), sourced after common.sh: OpenIPMI's
# simulator from ../shared/fixtures/ipmi on 127.0.0.1, ports IPMI_PORTS to IPMI_PORTS + 99
# only (default 19600; another range where other tests run beside ours), each simulator
# started fresh and killed by its pid.

SHARED=${SHARED:-$ROOT/../shared}
IPMI_PORTS=${IPMI_PORTS:-19600}
SIM=$SHARED/fixtures/ipmi
SIM_PIDS=()

# Installs what the BMC tests use (apt), else skips: the simulator, both peers' tools and
# the library sensorwatch opens at run time.
need_ipmi() {
    need ipmi_sim openipmi
    need ipmitool ipmitool
    need ipmi-sensors freeipmi-tools
    [ -d "$SIM" ] || skip "no simulator fixtures at $SIM"
    if ! ldconfig -p | grep -q 'libfreeipmi\.so\.17'; then
        apt-get -o DPkg::Lock::Timeout=600 install -y libfreeipmi17 >/dev/null 2>&1 || true
        ldconfig -p | grep -q 'libfreeipmi\.so\.17' || skip "needs libfreeipmi17"
    fi
}

# Starts a simulator on 127.0.0.1:PORT (console PORT+1), its state in $WORK/sim-PORT, from
# FIXTURES (default: the shared fixtures; a copy with another SDR); sets SIM_PID and remembers
# it for stop_sims.
start_sim() { # PORT [FIXTURES]
    SIM_PID=$("${2:-$SIM}/start-sim.sh" "$WORK/sim-$1" "$1") || fail "simulator on port $1 did not start"
    SIM_PIDS+=("$SIM_PID")
}

# Kills every simulator this test started (a stopped one is continued first).
stop_sims() {
    local p
    for p in "${SIM_PIDS[@]}"; do
        kill -CONT "$p" 2>/dev/null || true
        kill "$p" 2>/dev/null || true
    done
    SIM_PIDS=()
}

# Sends console commands to the simulator on port $1 (its console on $1 + 1).
simctl() { # PORT COMMAND…
    local port=$1
    shift
    "$SIM/simctl.sh" -p $((port + 1)) "$@" >/dev/null
}

# The sessions a simulator holds besides the one this asks with.
sessions_held() { # PORT
    local n
    n=$(ipmitool -I lanplus -C 3 -N 2 -R 1 -H 127.0.0.1 -p "$1" -U admin -P secret session info active 2>/dev/null \
        | awk -F: '/active sessions/ && !found { gsub(/ /, "", $2); print $2; found = 1 }')
    echo $((${n:-1} - 1))
}

# A password file of mode 0600 holding the simulator's password, with a trailing newline.
write_password() { # FILE
    printf 'secret\n' >"$1"
    chmod 600 "$1"
}
