# Helpers shared by the integration tests (sourced). Each expectation prints what failed;
# `finish` exits 1 if any did.
: "${SENSORWATCH:?SENSORWATCH must point at the release binary}"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
expect_exit() {
    local want=$1; shift
    "$@" >/dev/null 2>&1
    local got=$?
    [ "$got" -eq "$want" ] || fail "exit $got, expected $want: $*"
}
expect_out_contains() {
    local want=$1; shift
    local out; out=$("$@" 2>/dev/null)
    grep -qF -- "$want" <<<"$out" || fail "stdout of '$*' lacks '$want'"
}
expect_err_contains() {
    local want=$1; shift
    local err; err=$("$@" 2>&1 >/dev/null)
    grep -qF -- "$want" <<<"$err" || fail "stderr of '$*' lacks '$want': $err"
}
# Compares a command's stdout with a golden file (diff shown on mismatch).
expect_golden() {
    local golden=$1; shift
    local out; out=$("$@" 2>&1)
    if ! diff -u "$golden" <(printf '%s\n' "$out") >/tmp/sw-golden-diff.$$ 2>&1; then
        fail "output of '$*' differs from $golden"; cat /tmp/sw-golden-diff.$$
    fi
    rm -f /tmp/sw-golden-diff.$$
}
finish() {
    if [ "$failures" -gt 0 ]; then echo "$failures expectation(s) failed"; exit 1; fi
    exit 0
}
