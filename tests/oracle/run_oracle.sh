#!/usr/bin/env bash
# Generates cases with cuzk (oracle_gen_cases) and checks them with the Node oracle.
# Usage: run_oracle.sh PATH/TO/oracle_gen_cases WORKDIR
set -euo pipefail
gen="$1"
work="$2"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ ! -d "$here/node_modules/@noble/curves" ]; then
  echo "oracle: @noble/curves is not installed; run 'npm ci' in $here (./scripts/test does)" >&2
  exit 1
fi
mkdir -p "$work"
"$gen" "$work/oracle_cases.jsonl"
node "$here/check_cases.mjs" "$work/oracle_cases.jsonl"
