#!/usr/bin/env bash
# `cuzk bench gpu-prove --variants`: a bad spec is refused (exit 2, naming it) before any device
# is looked for; on a GPU, two variants (one setting switches, one the defaults) each get their
# table in the JSON and their proofs verified. Without a usable device the second part is
# skipped (exit 77).
# usage: cli_bench_variants.sh CUZK_BINARY TMPDIR
set -u
CUZK=$1
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/../../tests/lib/checks.sh"
begin_checks "$2"

check "bad spec refused" 2 "$CUZK" bench gpu-prove --circuit cubic --variants PATH=1
expect_text "bad spec named" "$DIR/last.err" 'variants: "PATH=1" does not set a CUZK_ switch'
check "half an assignment refused" 2 "$CUZK" bench gpu-prove --circuit cubic --variants 'CUZK_X=1,CUZK_Y'
expect_text "half an assignment named" "$DIR/last.err" '"CUZK_Y" is not NAME=VALUE'

"$CUZK" bench gpu-prove --circuit random:10 --count 2 --reps 2 --json \
    --variants 'CUZK_MSM_CACHE_SCRATCH=1,CUZK_NTT_REGISTER_STAGES=1;' >"$DIR/gpu.out" 2>"$DIR/gpu.err"
gpu_part_exit "two variants on the GPU" $? "$DIR/gpu.err"
expect_text "proofs verified" "$DIR/gpu.out" '"verified":true'
expect_text "first variant's table" "$DIR/gpu.out" \
    '"variants":\[\{"env":"CUZK_MSM_CACHE_SCRATCH=1,CUZK_NTT_REGISTER_STAGES=1","median_call_ms":\{'
expect_text "defaults' table" "$DIR/gpu.out" '\{"env":"defaults","median_call_ms":\{'
expect_text "four proving calls" "$DIR/gpu.err" 'rep 1 defaults: total'
finish_checks
