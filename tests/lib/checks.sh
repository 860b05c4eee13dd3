# Shared helpers of the shell tests (sourced). The caller starts with begin_checks (or sets DIR,
# a scratch directory, and failures=0 itself) and ends with finish_checks (or reports $failures).

begin_checks() {  # begin_checks DIR: DIR emptied for this run's files, no failures yet
    DIR=$1
    rm -rf "$DIR"
    mkdir -p "$DIR"
    failures=0
}

finish_checks() {  # exits 1 with the number of failed checks, else 0
    if [ "$failures" -ne 0 ]; then
        echo "$failures check(s) failed"
        exit 1
    fi
    echo "all checks passed"
    exit 0
}

check() {  # check DESCRIPTION EXPECTED_EXIT COMMAND...
    local what=$1 want=$2
    shift 2
    "$@" >"$DIR/last.out" 2>"$DIR/last.err"
    local got=$?
    if [ "$got" -ne "$want" ]; then
        echo "FAIL: $what: exit $got, expected $want"
        sed 's/^/   stderr: /' "$DIR/last.err" | tail -20
        failures=$((failures + 1))
    else
        echo "ok:   $what (exit $got)"
    fi
}

expect_text() {  # expect_text DESCRIPTION FILE REGEX
    if grep -Eq -- "$3" "$2"; then
        echo "ok:   $1"
    else
        echo "FAIL: $1: /$3/ not found in:"
        sed 's/^/   /' "$2" | tail -20
        failures=$((failures + 1))
    fi
}

gpu_part_exit() {  # gpu_part_exit DESCRIPTION CODE STDERR_FILE: after a command's GPU part
    # Without a usable CUDA device (its stderr says so): skip — exit 77 if every earlier check
    # passed, else 1. Any other non-zero exit counts as a failure and shows the stderr's tail.
    local what=$1 code=$2 err=$3
    if [ "$code" -ne 0 ] && grep -Eq 'cudaGetDeviceCount|no usable CUDA device' "$err"; then
        echo "skip: no usable CUDA device (the GPU part)"
        [ "$failures" -eq 0 ] && exit 77
        exit 1
    fi
    if [ "$code" -ne 0 ]; then
        echo "FAIL: $what: exit $code"
        tail -20 "$err"
        failures=$((failures + 1))
    fi
}
