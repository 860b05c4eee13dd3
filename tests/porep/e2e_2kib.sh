#!/usr/bin/env bash
# End to end on the CPU for a 2 KiB sector (issue: the PoRep circuit):
#   cuzk seal → C1 JSON → cuzk setup --circuit porep:2KiB (test parameters, kept in KEYDIR
#   between runs) → cuzk prove --c1 → 192-byte proof → cuzk verify and the independent Node
#   verifier (tests/oracle/verify_groth16.mjs) accept it; then C1s with one label, one sibling
#   or comm_r changed are rejected — by the vanilla check (naming the item) and, with that
#   check skipped, by the circuit (naming the first unsatisfied constraint) — and no proof is
#   written.
# Usage: e2e_2kib.sh CUZK_BINARY WORKDIR KEYDIR
set -u
CUZK=$1
DIR=$2
KEYS=$3
ORACLE="$(cd "$(dirname "${BASH_SOURCE[0]}")/../oracle" && pwd)"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ ! -d "$ORACLE/node_modules/@noble/curves" ]; then
    echo "e2e_2kib: @noble/curves is not installed; run 'npm ci' in $ORACLE (./scripts/test does)" >&2
    exit 1
fi
rm -rf "$DIR"
mkdir -p "$DIR" "$KEYS"
failures=0

source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/../lib/checks.sh"

check "seal 2KiB" 0 "$CUZK" seal --sector-size 2KiB --out "$DIR" --json
expect_text "seal wrote c1.json" "$DIR/last.out" '"ok":true'
if [ ! -s "$KEYS/porep_2KiB.params" ] || [ ! -s "$KEYS/porep_2KiB.vk" ]; then
    check "setup porep:2KiB" 0 "$CUZK" setup --circuit porep:2KiB --out "$KEYS" --json
    expect_text "setup domain 2^22" "$DIR/last.out" '"constraints":2687921,"inputs":40,.*"domain":4194304'
fi
check "prove --c1" 0 "$CUZK" prove --c1 "$DIR/c1.json" --params "$KEYS/porep_2KiB.params" \
    --out "$DIR/sector.proof" --public-inputs "$DIR/sector.json" --no-subgroup-check --json
size=$(wc -c <"$DIR/sector.proof" 2>/dev/null || echo 0)
[ "$size" -eq 192 ] && echo "ok:   proof is 192 bytes" ||
    { echo "FAIL: proof is $size bytes"; failures=$((failures + 1)); }
check "cuzk verify" 0 "$CUZK" verify --vk "$KEYS/porep_2KiB.vk" --proof "$DIR/sector.proof" \
    --public-inputs "$DIR/sector.json"
check "node oracle verify" 0 node "$ORACLE/verify_groth16.mjs" "$KEYS/porep_2KiB.vk" \
    "$DIR/sector.proof" "$DIR/sector.json"
# The same proof against another sector's public inputs must fail.
check "seal another sector" 0 "$CUZK" seal --sector-size 2KiB --out "$DIR/other" --data-seed 2
check "prove other sector" 0 "$CUZK" prove --c1 "$DIR/other/c1.json" \
    --params "$KEYS/porep_2KiB.params" --out "$DIR/other.proof" --public-inputs "$DIR/other.json" \
    --no-subgroup-check
check "proof vs other inputs" 1 "$CUZK" verify --vk "$KEYS/porep_2KiB.vk" \
    --proof "$DIR/sector.proof" --public-inputs "$DIR/other.json"
check "node: proof vs other inputs" 1 node "$ORACLE/verify_groth16.mjs" \
    "$KEYS/porep_2KiB.vk" "$DIR/sector.proof" "$DIR/other.json"

for kind in label sibling comm_r; do
    node "$HERE/tamper_c1.mjs" "$DIR/c1.json" "$DIR/c1_$kind.json" "$kind" ||
        { echo "FAIL: tamper $kind"; failures=$((failures + 1)); continue; }
    rm -f "$DIR/bad_$kind.proof"
    check "tampered $kind: rejected" 2 "$CUZK" prove --c1 "$DIR/c1_$kind.json" \
        --params "$KEYS/porep_2KiB.params" --out "$DIR/bad_$kind.proof" --no-subgroup-check
    expect_text "tampered $kind: vanilla check names it" "$DIR/last.err" 'partition 0|comm_r'
    check "tampered $kind: circuit rejects" 1 "$CUZK" prove --c1 "$DIR/c1_$kind.json" \
        --params "$KEYS/porep_2KiB.params" --out "$DIR/bad_$kind.proof" --no-subgroup-check \
        --no-vanilla-check
    expect_text "tampered $kind: constraint named" "$DIR/last.err" \
        "does not satisfy constraint '[^']+'"
    [ ! -e "$DIR/bad_$kind.proof" ] && echo "ok:   tampered $kind: no proof written" ||
        { echo "FAIL: tampered $kind: a proof was written"; failures=$((failures + 1)); }
done

if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
