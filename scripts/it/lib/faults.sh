# Helpers of the fault-*.sh tests (sourced after common.sh): what a scenario must produce,
# what reached the journal and stderr, and a comparison that names every lost or doubled alert.

# The alert messages `simulate` says the configuration $1 must produce, one a line, in order.
expected_messages() {
    "$BIN" simulate --config "$1" | sed -E 's/^t=[^ ]+ [a-z]+ //'
}

# The alert messages in the journal (entries with ALERT_STATE), in the order journald got them.
journal_messages() {
    journal_json | jq -r 'select(.ALERT_STATE != null) | .MESSAGE'
}

# The alert messages written to the stderr file $1, without their `<N>` prefix.
stderr_messages() {
    grep -E '^<[0-7]>[^ :]+ (firing|resolved|repeat): ' "$1" | sed -E 's/^<[0-7]>//' || true
}

# Fails unless files $1 (expected) and $2 (delivered) hold the same lines the same number of
# times; names what was lost and what came twice.
expect_same_alerts() { # EXPECTED DELIVERED
    local lost doubled
    lost=$(comm -23 <(sort "$1") <(sort "$2"))
    doubled=$(comm -13 <(sort "$1") <(sort "$2"))
    if [ -n "$lost$doubled" ]; then
        fail "alerts differ from the expected $(grep -c . "$1") (delivered $(grep -c . "$2"))
lost:
$lost
extra or twice:
$doubled"
    fi
}

# Fails unless the lines of file $2 are the first lines of file $1, in order (a stop may
# cut the list short, but never leave a gap or say something twice).
expect_prefix() { # EXPECTED DELIVERED
    local n
    n=$(grep -c . "$2" || true)
    if ! diff -u <(head -n "$n" "$1") "$2" >"$WORK/prefix.diff"; then
        fail "the delivered alerts are not the first $n expected ones: $(cat "$WORK/prefix.diff")"
    fi
}

# Milliseconds since the epoch.
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
# Milliseconds from SINCE_MS to the first journal entry matching MATCH...
latency() { # SINCE_MS MATCH...
    local since=$1 us
    shift
    us=$(journal_json "$@" | head -n 1 | jq -r .__REALTIME_TIMESTAMP)
    echo $(( us / 1000 - since ))
}
# The fault scenarios' cpu-hot alerts, due 1 s and 2 s after T0_MS, come on time whatever
# else stalls.
expect_scenario_alerts_on_time() { # T0_MS
    local fired resolved
    wait_for "the scenario's resolved" 100 journal_has ALERT_RULE=cpu-hot ALERT_STATE=resolved
    fired=$(latency "$1" ALERT_RULE=cpu-hot ALERT_STATE=firing)
    resolved=$(latency "$1" ALERT_RULE=cpu-hot ALERT_STATE=resolved)
    note "scenario alerts after $fired ms and $resolved ms (due at 1000 and 2000)"
    [ "$fired" -ge 900 ] && [ "$fired" -le 2500 ] || fail "firing due at 1 s came after $fired ms"
    [ "$resolved" -ge 1900 ] && [ "$resolved" -le 3500 ] || fail "resolved due at 2 s came after $resolved ms"
}

# Sends signal $2 to PID $1 and fails unless it exits 0 within 1 s; prints the time taken.
stop_within_1s() { # PID SIGNAL
    local t0 rc=0 ms
    t0=$(now_ms)
    kill -s "$2" "$1"
    wait "$1" || rc=$?
    ms=$(( $(now_ms) - t0 ))
    [ "$rc" -eq 0 ] || fail "exit status $rc after SIG$2, expected 0"
    [ "$ms" -le 1000 ] || fail "SIG$2 took $ms ms to stop (limit 1000)"
    note "SIG$2: stopped in $ms ms"
}

# The daemon's non-alert journal lines as `PRIORITY MESSAGE`, for text assertions.
journal_notes() {
    journal_json | jq -r 'select(.ALERT_STATE == null) | "\(.PRIORITY) \(.MESSAGE)"'
}

# Whether the journal holds at least $2 (default 1) notes matching the regex $1.
has_note() { [ "$(journal_notes | grep -cE -- "$1" || true)" -ge "${2:-1}" ]; }

# The start of every fault-*.sh: private namespaces and a clean-up that kills the daemon it
# started ($pid), stops journald and unmounts what the test recorded in `mounted`.
setup_fault_test() {
    require_namespaces
    require_binary
    enter_namespace
    mounted=()
    helpers=()
    pid=
    trap fault_cleanup EXIT
    mkdir -p "$WORK/state"
}
fault_cleanup() {
    if [ -n "${pid:-}" ]; then kill -9 "$pid" 2>/dev/null || true; fi
    local h
    for h in "${helpers[@]}"; do kill "$h" 2>/dev/null || true; done
    stop_journald
    local m
    for m in "${mounted[@]}"; do umount "$m" 2>/dev/null || true; done
}

# Starts `run --config $1` with state in $WORK/state and stderr in $2; sets pid.
start_daemon() { # CONFIG STDERR
    STATE_DIRECTORY=${STATE_DIR:-$WORK/state} "$BIN" run --config "$1" 2>"$2" &
    pid=$!
}

# Writes a scenario with sim:cpu (CPU package) swinging 70 ± 20 °C: with the cpu-hot rule
# of write_config, one firing and one resolved per period.
write_sine_scenario() { # FILE DURATION STEP PERIOD
    cat >"$1" <<J
{ duration: "$2", step: "$3", loop: false,
  sensors: [ { id: "cpu", quantity: "temperature", label: "CPU package", start: 70,
               segments: [ { sine: 20, period: "$4", over: "$2" } ] } ] }
J
}
