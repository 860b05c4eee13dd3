#!/usr/bin/env bash
# `cuzk bench gpu-ntt --mul`: a bad value is refused (exit 2, naming the choices) before any
# device is looked for; on a GPU, `--mul all` times the four field arithmetics (sparse,
# karatsuba, ptx, wide), each checked against the CPU transform first. Without a usable device
# the second part is skipped (exit 77).
# usage: cli_bench_gpu_ntt.sh CUZK_BINARY TMPDIR
set -u
CUZK=$1
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/../../tests/lib/checks.sh"
begin_checks "$2"

check "bad --mul refused" 2 "$CUZK" bench gpu-ntt --mul fast --log-min 10 --log-max 10
expect_text "bad --mul named" "$DIR/last.err" '--mul must be sparse, karatsuba, ptx, wide, both or all'

"$CUZK" bench gpu-ntt --mul all --log-min 12 --log-max 12 --reps 1 --json \
    >"$DIR/gpu.out" 2>"$DIR/gpu.err"
gpu_part_exit "--mul all on the GPU" $? "$DIR/gpu.err"
for mul in sparse karatsuba ptx wide; do
    expect_text "$mul timed and checked" "$DIR/gpu.out" \
        "\"mul\":\"$mul\".*\"verified\":\"equal to the CPU reference"
done
finish_checks
