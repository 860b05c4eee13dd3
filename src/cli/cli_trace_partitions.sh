#!/usr/bin/env bash
# scripts/trace-partitions on two hand-made job traces that share a prover call's events (as the
# engine writes them): the copies are kept once, each partition's span runs from its spmv to its
# last GPU phase, the idle gap between partitions is measured, traces of different time bases are
# aligned (by their recorded origin, or their job ids' times), and a trace without GPU phases is
# refused by name. Skipped (77) without python3.
# usage: cli_trace_partitions.sh TMPDIR
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$ROOT/tests/lib/checks.sh"
command -v python3 >/dev/null 2>&1 || { echo "skip: no python3"; exit 77; }
begin_checks "$1"
mkdir -p "$DIR/jobs"
# Call 1 (both jobs): partition 0 at 1.000 s, spmv 20 ms, ntt_h 300, msm_h 650 back to back
# (span 970 ms; the H MSM in 3 window passes, a tail in 1); partition 1 at 2.020 s (gap 50 ms),
# spmv 20, ntt_h 290, split_msms 240 (span 550 ms; no passes named). The witness and h2d events
# are not GPU phases.
ev='{"name":"witness","ph":"X","ts":0,"dur":990000,"pid":1,"tid":1},
{"name":"h2d","ph":"X","ts":990000,"dur":10000,"pid":1,"tid":3},
{"name":"spmv","ph":"X","ts":1000000,"dur":20000,"pid":1,"tid":3},
{"name":"ntt_h","ph":"X","ts":1020000,"dur":300000,"pid":1,"tid":3},
{"name":"msm_h","ph":"X","ts":1320000,"dur":650000,"pid":1,"tid":3},
{"name":"msm.buckets","ph":"X","ts":1400000,"dur":500000,"pid":1,"tid":3,"args":{"msm_h.passes":3}},
{"name":"tail_msm","ph":"X","ts":1900000,"dur":50000,"pid":1,"tid":7,"args":{"tail.passes":1}},
{"name":"spmv","ph":"X","ts":2020000,"dur":20001,"pid":1,"tid":3},
{"name":"ntt_h","ph":"X","ts":2040000,"dur":290000,"pid":1,"tid":3},
{"name":"split_msms","ph":"X","ts":2330000,"dur":240000,"pid":1,"tid":7},
{"name":"total","ph":"X","ts":0,"dur":3000000,"pid":1,"tid":3}'
echo "{\"traceEvents\":[$ev]}" >"$DIR/jobs/a.trace.json"
echo "{\"traceEvents\":[$ev]}" >"$DIR/jobs/b.trace.json"
check "two job traces" 0 python3 "$ROOT/scripts/trace-partitions" "$DIR/jobs"
expect_text "copies kept once" "$DIR/last.out" '^2 file\(s\), 11 events, 2 partitions'
expect_text "partition 0" "$DIR/last.out" '^ +0 +1\.00 +970\.0 +0\.0 +300\.0 +650\.0 +0\.0 +0\.0 +0\.0 +3/1$'
expect_text "partition 1" "$DIR/last.out" '^ +1 +2\.02 +550\.0 +50\.0 +290\.0 +0\.0 +240\.0 +0\.0 +0\.0 +-/-$'
expect_text "summary" "$DIR/last.out" 'median span 760\.0 ms; gaps: sum 50\.0 ms'
# The same two partitions from two jobs whose time bases differ by 0.5 s (the second job made
# 0.5 s later holds partition 1 at 1.52 s of its own time): aligned by otherData.origin_unix_us,
# and for traces without it by the job ids' times in their file names.
p0=$(echo "$ev" | sed -n 1,5p | tr -d '\n' | sed 's/,$//')
p1='{"name":"spmv","ph":"X","ts":1520000,"dur":20001,"pid":1,"tid":3},
{"name":"ntt_h","ph":"X","ts":1540000,"dur":290000,"pid":1,"tid":3},
{"name":"split_msms","ph":"X","ts":1830000,"dur":240000,"pid":1,"tid":7}'
mkdir -p "$DIR/origins" "$DIR/names"
echo "{\"otherData\":{\"origin_unix_us\":1.7e15},\"traceEvents\":[$p0]}" >"$DIR/origins/a.trace.json"
echo "{\"otherData\":{\"origin_unix_us\":1.7000000005e15},\"traceEvents\":[$p1]}" >"$DIR/origins/b.trace.json"
echo "{\"traceEvents\":[$p0]}" >"$DIR/names/20261203T204043-250000-0000-aa.trace.json"
echo "{\"traceEvents\":[$p1]}" >"$DIR/names/20261203T204043-750000-0001-bb.trace.json"
for how in origins names; do
    check "job traces aligned by $how" 0 python3 "$ROOT/scripts/trace-partitions" "$DIR/$how"
    expect_text "$how: partition 0" "$DIR/last.out" '^ +0 +1\.00 +970\.0 +0\.0 +300\.0 +650\.0'
    expect_text "$how: partition 1" "$DIR/last.out" '^ +1 +2\.02 +550\.0 +50\.0 +290\.0 +0\.0 +240\.0'
done
echo '{"traceEvents":[{"name":"prove","ph":"X","ts":0,"dur":5,"pid":1,"tid":1}]}' >"$DIR/cpu.json"
check "CPU-prover trace refused" 1 python3 "$ROOT/scripts/trace-partitions" "$DIR/cpu.json"
expect_text "refusal says why" "$DIR/last.err" 'no spmv or ntt_h events'
finish_checks
