#!/usr/bin/env bash
# End-to-end test of `cuzk setup | prove | verify | inspect-params` and their exit codes.
# usage: cli_groth16_roundtrip.sh CUZK_BINARY TMPDIR
set -u
CUZK=$1
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/../../tests/lib/checks.sh"
begin_checks "$2"

for circuit in cubic random:8 sha256:3; do
    safe=${circuit//:/_}
    check "$circuit: setup" 0 "$CUZK" setup --circuit "$circuit" --out "$DIR/keys" --json
    expect_text "$circuit: setup --json" "$DIR/last.out" '^\{"ok":true,"command":"setup"'
    expect_text "$circuit: insecure note" "$DIR/last.err" 'INSECURE'
    check "$circuit: prove" 0 "$CUZK" prove --circuit "$circuit" --params "$DIR/keys/$safe.params" \
        --out "$DIR/$safe.proof" --public-inputs "$DIR/$safe.json" --json
    expect_text "$circuit: prove --json" "$DIR/last.out" '^\{"ok":true,"command":"prove".*"msm_h"'
    size=$(wc -c <"$DIR/$safe.proof")
    [ "$size" -eq 192 ] && echo "ok:   $circuit: proof is 192 bytes" ||
        { echo "FAIL: $circuit: proof is $size bytes"; failures=$((failures + 1)); }
    check "$circuit: verify" 0 "$CUZK" verify --vk "$DIR/keys/$safe.vk" --proof "$DIR/$safe.proof" \
        --public-inputs "$DIR/$safe.json" --json
    expect_text "$circuit: verify --json" "$DIR/last.out" '"valid":true'
done

# cubic with x = 3 has the public input y = 35.
expect_text "cubic public inputs" "$DIR/cubic.json" '^\["35"\]$'
check "cubic: wrong public input" 1 "$CUZK" verify --vk "$DIR/keys/cubic.vk" \
    --proof "$DIR/cubic.proof" --public-inputs <(echo '["36"]')
expect_text "cubic: NOT VALID reported" "$DIR/last.err" 'NOT VALID'

# random:8: change the first public input (add one to its last digit, modulo 10).
python_free_tamper() {
    sed -E 's/^\["([0-9]*)([0-9])"/["\1X\2"/' "$1" | awk '{
        i = index($0, "X"); d = substr($0, i + 1, 1); d = (d + 1) % 10;
        print substr($0, 1, i - 1) d substr($0, i + 2) }'
}
python_free_tamper "$DIR/random_8.json" >"$DIR/random_8.bad.json"
if cmp -s "$DIR/random_8.json" "$DIR/random_8.bad.json"; then
    echo "FAIL: tampering did not change the inputs"; failures=$((failures + 1))
fi
check "random:8: changed public input" 1 "$CUZK" verify --vk "$DIR/keys/random_8.vk" \
    --proof "$DIR/random_8.proof" --public-inputs "$DIR/random_8.bad.json" --json
expect_text "random:8: changed input --json" "$DIR/last.out" '"valid":false'
check "random:8: proof checked against cubic's key" 2 "$CUZK" verify --vk "$DIR/keys/cubic.vk" \
    --proof "$DIR/random_8.proof" --public-inputs "$DIR/random_8.json"

head -c 100 "$DIR/cubic.proof" >"$DIR/truncated.proof"
check "truncated proof" 2 "$CUZK" verify --vk "$DIR/keys/cubic.vk" --proof "$DIR/truncated.proof" \
    --public-inputs "$DIR/cubic.json"
expect_text "truncated proof message" "$DIR/last.err" '192 bytes'
check "non-decimal public input" 2 "$CUZK" verify --vk "$DIR/keys/cubic.vk" \
    --proof "$DIR/cubic.proof" --public-inputs <(echo '["3x5"]')
check "public input >= r" 2 "$CUZK" verify --vk "$DIR/keys/cubic.vk" --proof "$DIR/cubic.proof" \
    --public-inputs <(echo '["52435875175126190479447740508185965837690552500527637822603658699938581184513"]')
check "verify without --vk" 2 "$CUZK" verify --proof "$DIR/cubic.proof" \
    --public-inputs "$DIR/cubic.json"

# Deterministic proofs with --seed.
check "cubic: prove --seed 5 (1)" 0 "$CUZK" prove --circuit cubic --params "$DIR/keys/cubic.params" \
    --out "$DIR/s1.proof" --seed 5 --no-subgroup-check
check "cubic: prove --seed 5 (2)" 0 "$CUZK" prove --circuit cubic --params "$DIR/keys/cubic.params" \
    --out "$DIR/s2.proof" --seed 5
cmp -s "$DIR/s1.proof" "$DIR/s2.proof" && echo "ok:   --seed is deterministic" ||
    { echo "FAIL: --seed proofs differ"; failures=$((failures + 1)); }
check "prove with another circuit's params" 1 "$CUZK" prove --circuit random:8 \
    --params "$DIR/keys/cubic.params" --out "$DIR/never.proof"
[ ! -e "$DIR/never.proof" ] && echo "ok:   no proof written on failure" ||
    { echo "FAIL: a proof was written on failure"; failures=$((failures + 1)); }

# inspect-params: cubic has 3 constraints + 2 input rows → m = 8, h = 7; ic = 2 (ONE, y);
# l = 3 aux; a = 2 inputs + 3 aux; b = ONE (B of "y") + x (B of x_sq, x_cu).
check "inspect-params cubic" 0 "$CUZK" inspect-params "$DIR/keys/cubic.params"
expect_text "inspect: ic" "$DIR/last.out" '^  ic +2 +864 +868 +1060$'
expect_text "inspect: h" "$DIR/last.out" '^  h +7 '
expect_text "inspect: l" "$DIR/last.out" '^  l +3 '
expect_text "inspect: a" "$DIR/last.out" '^  a +5 '
expect_text "inspect: b_g1" "$DIR/last.out" '^  b_g1 +2 '
expect_text "inspect: b_g2" "$DIR/last.out" '^  b_g2 +2 '
# random:8: 2^8 rows → h = 255, 3 public inputs → ic = 4, aux = 2 seeds + 249 products.
check "inspect-params random:8 --json" 0 "$CUZK" inspect-params "$DIR/keys/random_8.params" --json
expect_text "inspect json: ic" "$DIR/last.out" '"ic":\{"count":4,'
expect_text "inspect json: h" "$DIR/last.out" '"h":\{"count":255,'
expect_text "inspect json: l" "$DIR/last.out" '"l":\{"count":251,'
check "inspect-params vk" 0 "$CUZK" inspect-params "$DIR/keys/cubic.vk"
check "inspect-params truncated" 2 "$CUZK" inspect-params "$DIR/truncated.proof"

check "unknown circuit" 2 "$CUZK" setup --circuit nope --out "$DIR/keys"
expect_text "unknown circuit message" "$DIR/last.err" "unknown circuit 'nope'.*known: cubic, random:K"
check "sha256 N too large" 2 "$CUZK" setup --circuit sha256:65537 --out "$DIR/keys"
expect_text "sha256 N message" "$DIR/last.err" "unknown circuit 'sha256:65537': N out of range"
# sha256:3 exposes the multipacked digest of its preimage: tampering with it must fail.
check "sha256:3: wrong digest input" 1 "$CUZK" verify --vk "$DIR/keys/sha256_3.vk" \
    --proof "$DIR/sha256_3.proof" --public-inputs <(sed -E 's/^\["1/["2/;t;s/^\["[02-9]/["1/' "$DIR/sha256_3.json")
check "bad random K" 2 "$CUZK" prove --circuit random:x --params "$DIR/keys/cubic.params" \
    --out "$DIR/never.proof"
check "unknown option" 2 "$CUZK" setup --circuit cubic --out "$DIR/keys" --bogus
check "setup --help" 0 "$CUZK" setup --help
expect_text "setup --help text" "$DIR/last.out" 'INSECURE'

finish_checks
