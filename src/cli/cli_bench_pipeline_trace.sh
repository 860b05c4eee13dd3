#!/usr/bin/env bash
# `cuzk bench pipeline --trace-dir`: two 2 KiB jobs through the engine on the CPU prover, with
# the parameters of the engine fixture (read without the subgroup check: ~5 min of the 2-core
# machine otherwise); both complete and verify, and each leaves a Chrome trace
# in the directory (created by the engine) holding its own witness and prove events. A trace
# directory that cannot be made is refused with its path named; --h-basis-dir without
# --h-basis coset-lagrange is refused.
# usage: cli_bench_pipeline_trace.sh CUZK_BINARY PARAMS_DIR TMPDIR
set -u
CUZK=$1
PARAMS=$2
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/../../tests/lib/checks.sh"
begin_checks "$3"

check "two jobs with traces" 0 "$CUZK" bench pipeline --sector-size 2KiB --params-dir "$PARAMS" \
    --cpu --no-subgroup-check --jobs 2 --trace-dir "$DIR/traces" --json
expect_text "both jobs completed" "$DIR/last.out" '"jobs":2,"completed":2,"failed":0'
count=$(ls "$DIR/traces"/*.trace.json 2>/dev/null | wc -l)
if [ "$count" -eq 2 ]; then
    echo "ok:   one trace per job"
else
    echo "FAIL: one trace per job: $count files in $DIR/traces"
    failures=$((failures + 1))
fi
for f in "$DIR/traces"/*.trace.json; do
    [ -e "$f" ] || continue
    expect_text "$(basename "$f"): Chrome trace" "$f" '"traceEvents":\['
    expect_text "$(basename "$f"): witness event" "$f" '"name":"(witness|synthesis)"'
    expect_text "$(basename "$f"): prove event" "$f" '"name":"prove"'
done

touch "$DIR/a_file"
check "trace dir under a file refused" 1 "$CUZK" bench pipeline --sector-size 2KiB \
    --params-dir "$PARAMS" --cpu --no-subgroup-check --jobs 1 --trace-dir "$DIR/a_file/traces"
expect_text "trace dir named" "$DIR/last.err" "a_file/traces"

check "--h-basis-dir without coset-lagrange refused" 2 "$CUZK" bench pipeline --sector-size 2KiB \
    --params-dir "$PARAMS" --cpu --jobs 1 --h-basis-dir "$DIR/converted"
expect_text "says what it goes with" "$DIR/last.err" "goes with --h-basis coset-lagrange"
finish_checks
