#!/usr/bin/env node
/**
 * verify_groth16.mjs — an independent Groth16 verifier (BLS12-381) for cuzk's files,
 * built only on @noble/curves.
 *
 * Usage:  node verify_groth16.mjs VK_FILE PROOF_FILE PUBLIC_INPUTS.json
 *
 * VK_FILE: bellperson's .vk layout (spec/porep-c2-circuit.md §4.5), parsed here:
 *   α₁ 96 ‖ β₁ 96 ‖ β₂ 192 ‖ γ₂ 192 ‖ δ₁ 96 ‖ δ₂ 192 ‖ u32 big-endian len(ic) ‖ ic × 96
 *   every point UNCOMPRESSED in the ZCash encoding; no trailing bytes; len(ic) ≥ 1 (ic[0] for ONE).
 * PROOF_FILE: 192·k bytes, k ≥ 1 proofs, each A (G1, 48) ‖ B (G2, 96) ‖ C (G1, 48) COMPRESSED.
 *   The point at infinity is refused in A, B and C (as bellperson's proof reader does).
 * PUBLIC_INPUTS.json: the public inputs x_1..x_n, ONE EXCLUDED, as canonical decimal strings
 *   ("0" or no leading zero; each < r), n = len(ic) − 1. Either
 *     - one flat array of strings: the same inputs for every proof in PROOF_FILE, or
 *     - an array of k arrays of strings: inputs[j] for proof j.
 *   An empty array [] is the flat form (a key without public inputs).
 *
 * Every point goes through noble's Point.fromBytes (flags, canonical coordinates, curve
 * equation, prime-order subgroup) after the flag bits have been checked here against the
 * expected form (compressed or not). A proof j is valid iff
 *     e(A, B) · e(−α₁, β₂) · e(−IC, γ₂) · e(−C, δ₂) == 1,   IC = ic_0 + Σ_{i≥1} x_i·ic_i,
 * computed with noble's pairingBatch (one multi-Miller loop and one final exponentiation; noble
 * returns the cube of the textbook reduced pairing, which is 1 exactly when the textbook
 * value is, GT having prime order r). Terms with an identity side pair to 1 and are left out
 * (noble refuses them).
 *
 * Output: "proof j: valid" or "proof j: INVALID" for each proof j (from 0), then a summary line.
 * Exit status: 0 if every proof is valid, 1 if any is invalid, 2 on malformed input (usage,
 * unreadable file, bad length, bad point, bad JSON, wrong number of inputs, an input ≥ r),
 * with a message on stderr naming the problem.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bls12_381 } from '@noble/curves/bls12-381.js';

const { Fp12, Fr } = bls12_381.fields;
const G1 = bls12_381.G1.Point;
const G2 = bls12_381.G2.Point;
const R_ORDER = Fr.ORDER;

const G1_COMP = 48;
const G1_UNCOMP = 96;
const G2_COMP = 96;
const G2_UNCOMP = 192;
const PROOF_BYTES = G1_COMP + G2_COMP + G1_COMP;  // 192
const VK_FIXED = 3 * G1_UNCOMP + 3 * G2_UNCOMP;    // 864

/** Malformed input: reported with exit status 2. */
class Malformed extends Error {}

function fail(msg) {
  throw new Malformed(msg);
}

/**
 * Decodes one point of `Point` (G1 or G2) from `bytes`, which must be `compressed` or not as
 * the layout says. `what` names it in errors, e.g. "vk ic[3]".
 */
function decodePoint(Point, groupName, bytes, compressed, what) {
  const flags = bytes[0];
  if (compressed && (flags & 0x80) === 0) fail(`${what}: ${groupName} compression flag missing (expected compressed)`);
  if (!compressed && (flags & 0x80) !== 0) fail(`${what}: ${groupName} compression flag set (expected uncompressed)`);
  let pt;
  try {
    pt = Point.fromBytes(bytes);
    pt.assertValidity();
  } catch (e) {
    fail(`${what}: invalid ${groupName} point: ${e && e.message ? e.message : e}`);
  }
  return pt;
}

/** Parses the .vk bytes; returns { alpha1, beta1, beta2, gamma2, delta1, delta2, ic }. */
export function parseVk(bytes) {
  if (bytes.length < VK_FIXED + 4) fail(`vk: ${bytes.length} bytes, shorter than the ${VK_FIXED + 4}-byte fixed part`);
  let off = 0;
  const take = (n) => {
    const s = bytes.subarray(off, off + n);
    off += n;
    return s;
  };
  const alpha1 = decodePoint(G1, 'G1', take(G1_UNCOMP), false, 'vk alpha_g1');
  const beta1 = decodePoint(G1, 'G1', take(G1_UNCOMP), false, 'vk beta_g1');
  const beta2 = decodePoint(G2, 'G2', take(G2_UNCOMP), false, 'vk beta_g2');
  const gamma2 = decodePoint(G2, 'G2', take(G2_UNCOMP), false, 'vk gamma_g2');
  const delta1 = decodePoint(G1, 'G1', take(G1_UNCOMP), false, 'vk delta_g1');
  const delta2 = decodePoint(G2, 'G2', take(G2_UNCOMP), false, 'vk delta_g2');
  const n = ((bytes[off] << 24) >>> 0) + (bytes[off + 1] << 16) + (bytes[off + 2] << 8) + bytes[off + 3];
  off += 4;
  if (n < 1) fail('vk: len(ic) is 0 (ic[0] for ONE is required)');
  const want = VK_FIXED + 4 + n * G1_UNCOMP;
  if (bytes.length !== want)
    fail(`vk: len(ic) = ${n} needs ${want} bytes but the file has ${bytes.length}`);
  const ic = [];
  for (let i = 0; i < n; i++) ic.push(decodePoint(G1, 'G1', take(G1_UNCOMP), false, `vk ic[${i}]`));
  return { alpha1, beta1, beta2, gamma2, delta1, delta2, ic };
}

/** Parses 192·k bytes into k proofs { a, b, c }. */
export function parseProofs(bytes) {
  if (bytes.length === 0 || bytes.length % PROOF_BYTES !== 0)
    fail(`proof: ${bytes.length} bytes is not a positive multiple of ${PROOF_BYTES}`);
  const proofs = [];
  for (let j = 0; j < bytes.length / PROOF_BYTES; j++) {
    const base = j * PROOF_BYTES;
    const a = decodePoint(G1, 'G1', bytes.subarray(base, base + G1_COMP), true, `proof ${j}: A`);
    const b = decodePoint(G2, 'G2', bytes.subarray(base + G1_COMP, base + G1_COMP + G2_COMP), true, `proof ${j}: B`);
    const c = decodePoint(G1, 'G1', bytes.subarray(base + G1_COMP + G2_COMP, base + PROOF_BYTES), true, `proof ${j}: C`);
    for (const [name, p] of [['A', a], ['B', b], ['C', c]])
      if (p.is0()) fail(`proof ${j}: ${name} is the point at infinity`);
    proofs.push({ a, b, c });
  }
  return proofs;
}

const DEC_RE = /^(?:0|[1-9][0-9]*)$/;

function parseScalarArray(arr, what) {
  return arr.map((s, i) => {
    if (typeof s !== 'string' || !DEC_RE.test(s)) fail(`${what}[${i}]: not a canonical decimal string: ${JSON.stringify(s)}`);
    const v = BigInt(s);
    if (v >= R_ORDER) fail(`${what}[${i}]: ${s} is not below r`);
    return v;
  });
}

/**
 * Parses the public-inputs JSON text for `numProofs` proofs and `numInputs` inputs (ONE
 * excluded); returns one bigint array per proof.
 */
export function parseInputs(text, numProofs, numInputs) {
  let json;
  try {
    json = JSON.parse(text);
  } catch (e) {
    fail(`inputs: not JSON: ${e.message}`);
  }
  if (!Array.isArray(json)) fail('inputs: top level must be an array');
  const perProof = json.length > 0 && json.every((x) => Array.isArray(x));
  let lists;
  if (perProof) {
    if (json.length !== numProofs)
      fail(`inputs: ${json.length} input arrays for ${numProofs} proof(s)`);
    lists = json.map((arr, j) => parseScalarArray(arr, `inputs[${j}]`));
  } else {
    if (json.some((x) => Array.isArray(x))) fail('inputs: mixes strings and arrays');
    const flat = parseScalarArray(json, 'inputs');
    lists = Array.from({ length: numProofs }, () => flat);
  }
  lists.forEach((xs, j) => {
    if (xs.length !== numInputs)
      fail(`inputs${perProof ? `[${j}]` : ''}: ${xs.length} public input(s) but the vk has ${numInputs} (len(ic) − 1)`);
  });
  return lists;
}

/** Whether the product of e(P, Q) over `pairs` is 1 (identity terms contribute 1). */
function productIsOne(pairs) {
  const terms = pairs.filter(({ g1, g2 }) => !g1.is0() && !g2.is0());
  return terms.length === 0 || Fp12.eql(bls12_381.pairingBatch(terms), Fp12.ONE);
}

/** Verifies one proof under a parsed vk with inputs xs (bigints, ONE excluded). */
export function verifyProof(vk, proof, xs) {
  let acc = vk.ic[0];
  xs.forEach((x, i) => {
    acc = acc.add(vk.ic[i + 1].multiplyUnsafe(x));
  });
  return productIsOne([
    { g1: proof.a, g2: proof.b },
    { g1: vk.alpha1.negate(), g2: vk.beta2 },
    { g1: acc.negate(), g2: vk.gamma2 },
    { g1: proof.c.negate(), g2: vk.delta2 },
  ]);
}

function readFile(path, what) {
  try {
    return new Uint8Array(readFileSync(path));
  } catch (e) {
    fail(`${what}: cannot read ${path}: ${e.message}`);
  }
}

export function main(argv) {
  if (argv.length !== 3) {
    console.error('usage: node verify_groth16.mjs VK_FILE PROOF_FILE PUBLIC_INPUTS.json');
    return 2;
  }
  let vk, proofs, inputs;
  try {
    vk = parseVk(readFile(argv[0], 'vk'));
    proofs = parseProofs(readFile(argv[1], 'proof'));
    inputs = parseInputs(new TextDecoder().decode(readFile(argv[2], 'inputs')), proofs.length, vk.ic.length - 1);
  } catch (e) {
    if (e instanceof Malformed) {
      console.error(`verify_groth16: malformed input: ${e.message}`);
      return 2;
    }
    throw e;
  }
  let invalid = 0;
  proofs.forEach((p, j) => {
    const ok = verifyProof(vk, p, inputs[j]);
    if (!ok) invalid++;
    console.log(`proof ${j}: ${ok ? 'valid' : 'INVALID'}`);
  });
  console.log(`verify_groth16: ${proofs.length - invalid} valid, ${invalid} invalid`);
  return invalid === 0 ? 0 : 1;
}

// Run as a program (not when imported).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
