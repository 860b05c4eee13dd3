#!/usr/bin/env bash
# Makes Groth16 keys and proofs with cuzk (oracle_gen_groth16_cases) and checks every case of its
# manifest with the independent Node verifier verify_groth16.mjs: a case expected valid must exit
# 0, one expected invalid must exit 1 (2 = malformed input is a failure either way).
# Usage: run_groth16_oracle.sh PATH/TO/oracle_gen_groth16_cases WORKDIR
set -euo pipefail
if [ "$#" -ne 2 ]; then
  echo "usage: $0 PATH/TO/oracle_gen_groth16_cases WORKDIR" >&2
  exit 2
fi
gen="$1"
work="$2"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ ! -d "$here/node_modules/@noble/curves" ]; then
  echo "oracle: @noble/curves is not installed; run 'npm ci' in $here (./scripts/test does)" >&2
  exit 1
fi
mkdir -p "$work"
# Stale files of an earlier run must not be checked again.
rm -f "$work/manifest.txt" "$work"/*.vk "$work"/*.proof "$work"/*.inputs.json
"$gen" "$work"
manifest="$work/manifest.txt"
if [ ! -s "$manifest" ]; then
  echo "oracle_groth16: no manifest written at $manifest" >&2
  exit 1
fi
pass=0
failed=0
while read -r vk proof inputs expect; do
  [ -z "${vk:-}" ] && continue
  case "$expect" in
    valid) want=0 ;;
    invalid) want=1 ;;
    *) echo "oracle_groth16: bad expectation '$expect' in $manifest" >&2; exit 1 ;;
  esac
  set +e
  out="$(node "$here/verify_groth16.mjs" "$work/$vk" "$work/$proof" "$work/$inputs" 2>&1)"
  rc=$?
  set -e
  if [ "$rc" -eq "$want" ]; then
    pass=$((pass + 1))
    echo "ok    $proof $inputs: expected $expect, exit $rc"
  else
    failed=$((failed + 1))
    echo "FAIL  $proof $inputs: expected $expect (exit $want) but exit $rc"
    printf '%s\n' "$out" | sed 's/^/      /'
  fi
done < "$manifest"
echo "oracle_groth16: $pass passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$pass" -gt 0 ]
