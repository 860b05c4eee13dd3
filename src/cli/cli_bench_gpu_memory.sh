#!/usr/bin/env bash
# The bench options about device memory. `cuzk bench gpu-msm --windows-per-pass` and
# `--device-memory-gib` of gpu-prove and pipeline: a bad value is refused (exit 2, naming the
# range) before any device is looked for; on a GPU, a 2^12 G1 MSM (13-bit windows: 20 of them) in passes
# of 3 windows takes 7 passes, and the bench's result equals the CPU's (it fails otherwise).
# Without a usable device the second part is skipped (exit 77).
# usage: cli_bench_gpu_memory.sh CUZK_BINARY TMPDIR
set -u
CUZK=$1
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/../../tests/lib/checks.sh"
begin_checks "$2"

check "--windows-per-pass 0 refused" 2 "$CUZK" bench gpu-msm --windows-per-pass 0 --log-min 12 --log-max 12
expect_text "range named" "$DIR/last.err" '--windows-per-pass 1..256'
check "--windows-per-pass 999 refused" 2 "$CUZK" bench gpu-msm --windows-per-pass 999 --log-min 12 --log-max 12
check "gpu-prove --device-memory-gib 0 refused" 2 "$CUZK" bench gpu-prove --circuit cubic --device-memory-gib 0
expect_text "its range named" "$DIR/last.err" '--device-memory-gib must be 1..4096'
check "pipeline --device-memory-gib x refused" 2 "$CUZK" bench pipeline --sector-size 2KiB --gpu-setup --device-memory-gib x
check "pipeline --device-memory-gib with --cpu refused" 2 "$CUZK" bench pipeline --sector-size 2KiB --cpu --params-dir "$DIR" --device-memory-gib 8
expect_text "--cpu named" "$DIR/last.err" 'not with --cpu'

"$CUZK" bench gpu-msm --windows-per-pass 3 --log-min 12 --log-max 12 --reps 1 --json \
    >"$DIR/gpu.out" 2>"$DIR/gpu.err"
gpu_part_exit "--windows-per-pass 3 on the GPU" $? "$DIR/gpu.err"
expect_text "20 windows in 7 passes of 3" "$DIR/gpu.out" '"window_bits":13,.*"passes":7,"windows_per_pass":3'
finish_checks
