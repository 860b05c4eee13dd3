#!/usr/bin/env node
/**
 * tamper_c1.mjs — writes a copy of a C1 output (rust-fil-proofs SealCommitPhase1Output JSON)
 * with exactly one value changed, for the end-to-end rejection tests.
 *
 * Usage: node tamper_c1.mjs IN.json OUT.json KIND
 *   label    — byte 0 of the first DRG parent's layer-1 label in partition 0, challenge 0
 *              (replica_column_proofs.drg_parents[0].column.rows[0])
 *   sibling  — byte 0 of the first sibling hash of challenge 0's comm_r_last path
 *   comm_r   — byte 0 of comm_r
 * The byte is XORed with 1, so the value always changes (and stays below the field modulus
 * for the little-endian Fr encodings, whose top byte is untouched).
 */
import { readFileSync, writeFileSync } from 'node:fs';

const [, , input, output, kind] = process.argv;
if (!input || !output || !kind) {
  console.error('usage: node tamper_c1.mjs IN.json OUT.json label|sibling|comm_r');
  process.exit(2);
}
const c1 = JSON.parse(readFileSync(input, 'utf8'));
const variant = Object.keys(c1.vanilla_proofs)[0];
const proof = c1.vanilla_proofs[variant][0][0];
const flip = (bytes) => { bytes[0] ^= 1; };
const data = (mp) => mp.data.Single ?? mp.data.Sub ?? mp.data.Top;
switch (kind) {
  case 'label':
    flip(proof.replica_column_proofs.drg_parents[0].column.rows[0]);
    break;
  case 'sibling': {
    const d = data(proof.comm_r_last_proof);
    const path = d.path ?? d.base_proof;
    flip(path.path[0].hashes[0]);
    break;
  }
  case 'comm_r':
    flip(c1.comm_r);
    break;
  default:
    console.error(`tamper_c1.mjs: unknown kind '${kind}'`);
    process.exit(2);
}
writeFileSync(output, JSON.stringify(c1));
