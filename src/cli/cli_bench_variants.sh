#!/usr/bin/env bash
# `cuzk bench gpu-prove --variants` and `--h-basis`: a bad spec or basis list is refused (exit 2,
# naming it) before any device is looked for; on a GPU, two variants (one setting switches, one
# the defaults) each get their table in the JSON and their proofs verified, and so do both H
# bases from one setup, a .params file's set converted on the GPU, and a generated set converted
# from its points (--convert-on-gpu). Without a usable device the GPU parts are skipped (exit 77).
# usage: cli_bench_variants.sh CUZK_BINARY TMPDIR
set -u
CUZK=$1
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/../../tests/lib/checks.sh"
begin_checks "$2"

check "bad spec refused" 2 "$CUZK" bench gpu-prove --circuit cubic --variants PATH=1
expect_text "bad spec named" "$DIR/last.err" 'variants: "PATH=1" does not set a CUZK_ switch'
check "half an assignment refused" 2 "$CUZK" bench gpu-prove --circuit cubic --variants 'CUZK_X=1,CUZK_Y'
expect_text "half an assignment named" "$DIR/last.err" '"CUZK_Y" is not NAME=VALUE'
check "unknown H basis refused" 2 "$CUZK" bench gpu-prove --circuit cubic --h-basis lagrange
expect_text "unknown H basis named" "$DIR/last.err" "unknown H basis 'lagrange'"
check "H bases out of order refused" 2 "$CUZK" bench gpu-prove --circuit cubic \
    --h-basis coset-lagrange,monomial
expect_text "order named" "$DIR/last.err" 'list monomial before coset-lagrange'

"$CUZK" bench gpu-prove --circuit random:10 --count 2 --reps 2 --json \
    --variants 'CUZK_MSM_CACHE_SCRATCH=1,CUZK_NTT_REGISTER_STAGES=1;' >"$DIR/gpu.out" 2>"$DIR/gpu.err"
gpu_part_exit "two variants on the GPU" $? "$DIR/gpu.err"
expect_text "proofs verified" "$DIR/gpu.out" '"verified":true'
expect_text "first variant's table" "$DIR/gpu.out" \
    '"variants":\[\{"env":"CUZK_MSM_CACHE_SCRATCH=1,CUZK_NTT_REGISTER_STAGES=1","median_call_ms":\{'
expect_text "defaults' table" "$DIR/gpu.out" '\{"env":"defaults","median_call_ms":\{'
expect_text "four proving calls" "$DIR/gpu.err" 'rep 1 defaults: total'

# Both H bases from one setup: a table each, the proofs of both verified.
"$CUZK" bench gpu-prove --circuit sha256:2 --count 2 --reps 2 --json --compiled \
    --h-basis monomial,coset-lagrange >"$DIR/bases.out" 2>"$DIR/bases.err"
gpu_part_exit "both H bases on the GPU" $? "$DIR/bases.err"
expect_text "both bases' proofs verified" "$DIR/bases.out" '"verified":true'
expect_text "monomial table" "$DIR/bases.out" \
    '"variants":\[\{"env":"defaults","median_call_ms":\{.*"h_basis":"monomial"\}'
expect_text "coset-Lagrange table" "$DIR/bases.out" '"h_basis":"coset-lagrange"\}\]'
expect_text "coset-Lagrange set made" "$DIR/bases.err" 'setup_coset_lagrange'

# The coset-Lagrange set converted from points on the GPU: from a .params file (the shape recorded
# for it), and from generated parameters with --convert-on-gpu.
check "test parameters written" 0 "$CUZK" setup --circuit random:9 --out "$DIR" --seed 4
"$CUZK" bench gpu-prove --circuit random:9 --count 2 --reps 1 --json \
    --params "$DIR/random_9.params" --h-basis monomial,coset-lagrange >"$DIR/file.out" 2>"$DIR/file.err"
gpu_part_exit "a file's H bases converted on the GPU" $? "$DIR/file.err"
expect_text "converted file's proofs verified" "$DIR/file.out" '"verified":true'
expect_text "file converted" "$DIR/file.err" 'converting the H bases to coset-Lagrange on the GPU'
expect_text "conversion phases" "$DIR/file.err" 'coset_r [0-9]+ coset_s [0-9]+ coset_q [0-9]+'
"$CUZK" bench gpu-prove --circuit sha256:2 --count 1 --reps 1 --json --compiled \
    --h-basis coset-lagrange --convert-on-gpu >"$DIR/conv.out" 2>"$DIR/conv.err"
gpu_part_exit "generated H bases converted on the GPU" $? "$DIR/conv.err"
expect_text "converted set's proofs verified" "$DIR/conv.out" '"verified":true'
expect_text "converted set's table" "$DIR/conv.out" '"h_basis":"coset-lagrange"'
finish_checks
