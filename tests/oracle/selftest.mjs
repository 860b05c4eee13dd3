#!/usr/bin/env node
/**
 * selftest.mjs — proves that check_cases.mjs can both pass and fail.
 *
 * 1. Generates, with noble alone, a cases file in the same JSON Lines format
 *    the C++ side writes (see the header of check_cases.mjs): a few cases of
 *    every op, including valid and invalid g1_decode / g2_decode cases built
 *    by mutating bytes (bad flags, x >= p, not on curve, not in the subgroup,
 *    infinity with junk, sort flag on uncompressed, wrong length, ...).
 *    The "gt" values are computed here by the slow route (naive exponentiation
 *    of noble's Miller loop by (p^12-1)/r), not by the checker's fast route.
 * 2. Runs the checker CLI on it: it must exit 0 and report every case passed.
 * 3. Probes noble's own Point.fromBytes on every invalid encoding and prints
 *    which ones noble itself rejects (informational: the checker adds its own
 *    structural, on-curve, subgroup and round-trip checks on top).
 * 4. For one case of every op, corrupts one byte of each hex field (or flips
 *    each boolean) one at a time; the checker must then fail exactly that case.
 * 5. Checks the CLI exit status on a corrupted file, an empty file, an unknown
 *    op, a malformed JSON line and a case with a missing field.
 *
 * Last line: "selftest: N passed, M failed"; exit status 1 if M > 0.
 * Set KEEP=/some/path to also write the generated (clean) cases file there,
 * e.g. as a sample of the format for the C++ side.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { checkText, GROUPS, OPS, P_MOD, R_ORDER } from './check_cases.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const CHECKER = join(HERE, 'check_cases.mjs');
const { Fp, Fp2, Fp12 } = bls12_381.fields;
const G1 = GROUPS.g1;
const G2 = GROUPS.g2;

// ---------------------------------------------------------------------------
// Small result bookkeeping
// ---------------------------------------------------------------------------

let passed = 0;
let failed = 0;
function expectTrue(cond, what) {
  if (cond) passed++;
  else {
    failed++;
    console.log(`FAIL ${what}`);
  }
}

// ---------------------------------------------------------------------------
// Deterministic randomness (splitmix64), so every run builds the same file
// ---------------------------------------------------------------------------

let seed = 0x0c0ffee1234n;
const M64 = (1n << 64n) - 1n;
function next64() {
  seed = (seed + 0x9e3779b97f4a7c15n) & M64;
  let z = seed;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
  return z ^ (z >> 31n);
}
/** Uniform-ish scalar in [1, r-1]. */
function randScalar() {
  const v = (next64() << 192n) | (next64() << 128n) | (next64() << 64n) | next64();
  return 1n + (v % (R_ORDER - 1n));
}

// ---------------------------------------------------------------------------
// Hex / encoding helpers written for the test (independent of the checker's)
// ---------------------------------------------------------------------------

const hex = (bytes) => Buffer.from(bytes).toString('hex');
const unhex = (s) => Uint8Array.from(Buffer.from(s, 'hex'));
const scalarHex = (k) => k.toString(16).padStart(64, '0');
const fpBytes = (v) => unhex(v.toString(16).padStart(96, '0'));

/** Noble point -> ZCash encoding hex. */
const enc = (pt, compressed = true) => hex(pt.toBytes(compressed));

/** "y is lexicographically largest": y > (p-1)/2, for Fp2 comparing c1 first, then c0. */
function yLargest(group, y) {
  const big = (v) => v > (P_MOD - 1n) / 2n;
  if (group === G1) return big(y);
  return y.c1 !== 0n ? big(y.c1) : big(y.c0);
}

/** Raw ZCash encoding of arbitrary affine coordinates (no validity checks at all). */
function rawEncode(group, x, y, compressed) {
  const coord = (v) => (group === G1 ? fpBytes(v) : Uint8Array.from([...fpBytes(v.c1), ...fpBytes(v.c0)]));
  const out = Uint8Array.from(compressed ? coord(x) : [...coord(x), ...coord(y)]);
  if (compressed) out[0] |= 0x80 | (yLargest(group, y) ? 0x20 : 0);
  return out;
}

/** Copy of bytes with one byte changed by f. */
function mutate(bytes, index, f) {
  const out = Uint8Array.from(bytes);
  out[index] = f(out[index]) & 0xff;
  return out;
}

// ---------------------------------------------------------------------------
// Special points for invalid encodings
// ---------------------------------------------------------------------------

/** y^2 = x^3 + b solved for the first "small" x that gives a point outside the subgroup. */
function pointOutsideSubgroup(group) {
  const { F, b } = group;
  for (let i = 0n; i < 1000n; i++) {
    const x = group === G1 ? i : Fp2.fromBigTuple([i, 1n]);
    let y;
    try {
      y = F.sqrt(F.add(F.mul(F.sqr(x), x), b));
    } catch {
      continue; // x^3 + b is not a square
    }
    const pt = group.Point.fromAffine({ x, y });
    if (!pt.isTorsionFree()) return { x, y };
  }
  throw new Error('no non-subgroup point found');
}

/** First small x for which x^3 + b is not a square (so no point has this x). */
function xNotOnCurve(group) {
  const { F, b } = group;
  for (let i = 1n; i < 1000n; i++) {
    const x = group === G1 ? i : Fp2.fromBigTuple([i, 1n]);
    try {
      F.sqrt(F.add(F.mul(F.sqr(x), x), b));
    } catch {
      return x;
    }
  }
  throw new Error('no off-curve x found');
}

/** A subgroup point whose x (G1) or x.c0 (G2) is small enough that x + p still fits in 381 bits. */
function pointWithSmallX(group) {
  const limit = (1n << 381n) - P_MOD;
  for (let k = 2n; k < 10000n; k++) {
    const pt = group.Point.BASE.multiply(k);
    const { x } = pt.toAffine();
    if ((group === G1 ? x : x.c0) < limit) return pt;
  }
  throw new Error('no point with small x found');
}

// ---------------------------------------------------------------------------
// Case generation
// ---------------------------------------------------------------------------

/** e(P,Q) in the cube convention by the slow route: MillerLoop^(3(p^12-1)/r) (independent of the checker's 3^-1 shortcut). */
function slowPairingHex(P, Q) {
  let f = Fp12.ONE;
  if (!P.is0() && !Q.is0()) f = Fp12.pow(bls12_381.pairing(P, Q, false), 3n * ((P_MOD ** 12n - 1n) / R_ORDER));
  const coeffs = [];
  for (const half of [f.c0, f.c1]) for (const e of [half.c0, half.c1, half.c2]) coeffs.push(e.c0, e.c1);
  return coeffs.map((v) => v.toString(16).padStart(96, '0')).join('');
}

function generateCases() {
  const cases = [];
  const invalidKinds = []; // {group, kind, bytes} for the noble strictness probe

  for (const [tag, group] of [['g1', G1], ['g2', G2]]) {
    const { Point } = group;
    const B = Point.BASE;
    const ZERO = Point.ZERO;

    // ---- *_mul: random k, k = 0, 1, r-1
    for (const k of [randScalar(), randScalar(), 0n, 1n, R_ORDER - 1n]) {
      const q = k === 0n ? ZERO : B.multiply(k);
      cases.push({ op: `${tag}_mul`, k: scalarHex(k), compressed: enc(q, true), uncompressed: enc(q, false) });
    }

    // ---- *_add: random, doubling, P + (-P), with infinity on either side / both
    const a = B.multiply(randScalar());
    const b = B.multiply(randScalar());
    const addPairs = [
      [a, b],
      [a, a],
      [a, a.negate()],
      [ZERO, b],
      [a, ZERO],
      [ZERO, ZERO],
    ];
    for (const [p, q] of addPairs) {
      const s = p.add(q);
      cases.push({ op: `${tag}_add`, p: enc(p), q: enc(q), sum: enc(s.is0() ? ZERO : s) });
    }

    // ---- *_msm: random, with zero scalar / r-1 / infinity point, and empty
    const msmSets = [
      [[randScalar(), randScalar(), randScalar()], null],
      [[0n, R_ORDER - 1n, randScalar(), 5n], 2],
      [[], null],
    ];
    for (const [ks, zeroAt] of msmSets) {
      const pts = ks.map((_, i) => (i === zeroAt ? ZERO : B.multiply(randScalar())));
      let acc = ZERO;
      pts.forEach((p, i) => {
        acc = acc.add(p.multiplyUnsafe(ks[i]));
      });
      cases.push({
        op: `${tag}_msm`,
        points: pts.map((p) => enc(p)),
        scalars: ks.map(scalarHex),
        result: enc(acc.is0() ? ZERO : acc),
      });
    }

    // ---- *_decode: valid encodings
    const v = B.multiply(randScalar());
    const valid = [
      enc(v, true),
      enc(v, false),
      enc(v.negate(), true), // other sign bit
      enc(v.negate(), false),
      enc(B, true),
      enc(ZERO, true), // 0xc0 || 0...
      enc(ZERO, false), // 0x40 || 0...
    ];
    for (const h of valid) cases.push({ op: `${tag}_decode`, bytes: h, valid: true, reason: 'valid' });

    // ---- *_decode: invalid encodings, each labelled with its kind
    const comp = v.toBytes(true);
    const unc = v.toBytes(false);
    const infC = ZERO.toBytes(true);
    const infU = ZERO.toBytes(false);
    const outside = pointOutsideSubgroup(group);
    const offX = xNotOnCurve(group);
    const small = pointWithSmallX(group);
    const smallC = small.toBytes(true);
    const smallU = small.toBytes(false);
    // Adds p to the last (for G1: only; for G2: c0) Fp chunk of the x coordinate.
    const xPlusP = (bytes) => {
      const out = Uint8Array.from(bytes);
      const off = group === G1 ? 0 : 48;
      const flags = out[off] & (off === 0 ? 0xe0 : 0);
      const chunk = Uint8Array.from(out.subarray(off, off + 48));
      chunk[0] &= off === 0 ? 0x1f : 0xff;
      const x = BigInt('0x' + hex(chunk)) + P_MOD;
      out.set(fpBytes(x), off);
      out[off] |= flags;
      return out;
    };
    // y + p in the uncompressed form (last Fp chunk of y).
    const yPlusP = (bytes) => {
      const out = Uint8Array.from(bytes);
      const off = bytes.length - 48;
      const y = BigInt('0x' + hex(out.subarray(off))) + P_MOD;
      if (y >= 1n << 384n) return null;
      out.set(fpBytes(y), off);
      return out;
    };
    const { x: vx, y: vy } = v.toAffine();
    const invalid = [
      ['compressed length without compression flag', mutate(comp, 0, (x) => x & 0x7f)],
      ['uncompressed length with compression flag', mutate(unc, 0, (x) => x | 0x80)],
      ['sort flag on uncompressed', mutate(unc, 0, (x) => x | 0x20)],
      ['infinity flag on a non-zero compressed point', mutate(comp, 0, (x) => x | 0x40)],
      ['infinity flag, sort flag cleared, non-zero x', mutate(comp, 0, (x) => (x | 0x40) & ~0x20)],
      ['infinity flag on a non-zero uncompressed point', mutate(unc, 0, (x) => x | 0x40)],
      ['compressed infinity with sort flag (0xe0)', mutate(infC, 0, (x) => x | 0x20)],
      ['compressed infinity with junk in last byte', mutate(infC, infC.length - 1, () => 1)],
      ['compressed infinity with junk in low bits of byte 0', mutate(infC, 0, (x) => x | 0x01)],
      ['uncompressed infinity with junk in y', mutate(infU, infU.length - 1, () => 1)],
      ['uncompressed infinity with sort flag (0x60)', mutate(infU, 0, (x) => x | 0x20)],
      ['uncompressed infinity with compression flag', mutate(infU, 0, (x) => x | 0x80)],
      ['infinity flag alone at compressed length (0x40)', mutate(infC, 0, () => 0x40)],
      ['all-zero uncompressed without infinity flag', new Uint8Array(group.uncompLen)],
      ['all-zero compressed-length without flags', new Uint8Array(group.compLen)],
      ['compressed x >= p (x + p)', xPlusP(smallC)],
      ['uncompressed x >= p (x + p)', xPlusP(smallU)],
      ['compressed x = p exactly', (() => {
        const o = new Uint8Array(group.compLen);
        o.set(fpBytes(P_MOD), group === G1 ? 0 : 48);
        o[0] |= 0x80;
        return o;
      })()],
      ['uncompressed y >= p (y + p)', yPlusP(unc)],
      ['uncompressed point not on curve (y + 1)', rawEncode(group, vx, group.F.add(vy, group.F.ONE), false)],
      ['compressed x with no point on the curve', rawEncode(group, offX, group.F.ONE, true)],
      ['compressed point not in the subgroup', rawEncode(group, outside.x, outside.y, true)],
      ['uncompressed point not in the subgroup', rawEncode(group, outside.x, outside.y, false)],
      ['wrong length: compressed + 1 byte', Uint8Array.from([...comp, 0])],
      ['wrong length: compressed - 1 byte', comp.subarray(0, comp.length - 1)],
      ['wrong length: uncompressed - 1 byte', unc.subarray(0, unc.length - 1)],
      ['wrong length: empty', new Uint8Array(0)],
      ['wrong length: the other group\'s compressed size', group === G1 ? G2.Point.BASE.toBytes(true) : G1.Point.BASE.toBytes(true)],
    ];
    for (const [kind, bytes] of invalid) {
      if (bytes === null) continue;
      cases.push({ op: `${tag}_decode`, bytes: hex(bytes), valid: false, reason: kind });
      invalidKinds.push({ group, kind, bytes });
    }
  }

  // ---- pairing: random, generators, infinity on either side
  const g1 = G1.Point.BASE;
  const g2 = G2.Point.BASE;
  const pa = g1.multiply(randScalar());
  const qa = g2.multiply(randScalar());
  for (const [P, Q] of [[g1, g2], [pa, qa], [G1.Point.ZERO, qa], [pa, G2.Point.ZERO]]) {
    cases.push({ op: 'pairing', p: enc(P), q: enc(Q), gt: slowPairingHex(P, Q) });
  }

  // ---- pairing_check: e(aP, bQ) * e(-abP, Q) == 1, and variants that are != 1
  const x = randScalar();
  const y = randScalar();
  const ab = (x * y) % R_ORDER;
  const good = [
    [enc(g1.multiply(x)), enc(g2.multiply(y))],
    [enc(g1.multiply(ab).negate()), enc(g2)],
  ];
  const checks = [
    [good, true],
    [[good[0], [enc(g1.multiply(ab)), enc(g2)]], false],
    [[...good, [enc(G1.Point.ZERO), enc(qa)]], true], // identity term
    [[[enc(pa), enc(qa)]], false],
    [[[enc(G1.Point.ZERO), enc(qa)], [enc(pa), enc(G2.Point.ZERO)]], true],
    [[], true],
  ];
  for (const [pairs, expect] of checks) cases.push({ op: 'pairing_check', pairs, expect });

  return { cases, invalidKinds };
}

// ---------------------------------------------------------------------------
// Running the checker
// ---------------------------------------------------------------------------

const workDir = mkdtempSync(join(tmpdir(), 'cuzk-oracle-selftest-'));
let fileNo = 0;
function runCli(text) {
  const file = join(workDir, `cases-${fileNo++}.jsonl`);
  writeFileSync(file, text);
  const r = spawnSync(process.execPath, [CHECKER, file], { encoding: 'utf8' });
  const lines = (r.stdout || '').trimEnd().split('\n');
  return { status: r.status, out: r.stdout, last: lines[lines.length - 1] };
}
const toJsonl = (cases) => cases.map((c) => JSON.stringify(c)).join('\n') + '\n';

/** All ways to corrupt one case: one byte of every hex string (nested too), every boolean flipped. */
function corruptions(c) {
  const out = [];
  const walk = (val, path) => {
    if (typeof val === 'boolean') out.push({ path, what: 'flip boolean', apply: () => !val });
    else if (typeof val === 'string' && path[0] !== 'op' && path[0] !== 'reason' && val.length >= 2) {
      // Flip the lowest bit of the last byte, and (for point-sized values) the sign bit.
      const bytes = unhex(val);
      out.push({ path, what: 'last byte ^ 0x01', apply: () => hex(mutate(bytes, bytes.length - 1, (b) => b ^ 0x01)) });
      if (bytes.length >= 48 && bytes.length !== 576 && path[0] !== 'bytes')
        out.push({ path, what: 'byte 0 ^ 0x20', apply: () => hex(mutate(bytes, 0, (b) => b ^ 0x20)) });
      if (bytes.length === 576)
        out.push({ path, what: 'byte 100 ^ 0x10', apply: () => hex(mutate(bytes, 100, (b) => b ^ 0x10)) });
    } else if (Array.isArray(val)) val.forEach((v, i) => walk(v, [...path, i]));
    else if (val && typeof val === 'object') for (const k of Object.keys(val)) walk(val[k], [...path, k]);
  };
  walk(c, []);
  return out.map(({ path, what, apply }) => {
    const copy = structuredClone(c);
    let target = copy;
    for (const k of path.slice(0, -1)) target = target[k];
    target[path[path.length - 1]] = apply();
    return { label: `${c.op} ${path.join('.')} ${what}`, c: copy };
  });
}

function main() {
  const t0 = Date.now();
  const { cases, invalidKinds } = generateCases();
  console.log(`generated ${cases.length} cases in ${Date.now() - t0} ms`);

  // 2. The clean file must pass completely.
  const clean = runCli(toJsonl(cases));
  expectTrue(clean.status === 0, `clean file: checker exit status ${clean.status}\n${clean.out}`);
  expectTrue(clean.last === `oracle: ${cases.length} passed, 0 failed`, `clean file: last line "${clean.last}"`);
  for (const op of OPS) expectTrue(cases.some((c) => c.op === op), `generated no ${op} case`);

  // 3. noble's own strictness on the invalid encodings (informational).
  const lenient = [];
  for (const { group, kind, bytes } of invalidKinds) {
    try {
      group.Point.fromBytes(bytes);
      lenient.push(`${group.name}: ${kind}`);
    } catch {
      // rejected, as it should be
    }
  }
  console.log(
    `noble Point.fromBytes rejected ${invalidKinds.length - lenient.length}/${invalidKinds.length} invalid encodings` +
      (lenient.length ? `; accepted (checker rejects them itself): ${lenient.join(', ')}` : '')
  );

  // 4. One case per op: every single-byte corruption must fail exactly that case.
  let corrupted = 0;
  for (const op of OPS) {
    // Prefer a case with non-trivial content (e.g. a valid decode case, a non-empty msm).
    const pick = cases.find((c) => c.op === op && c.valid !== false && !(Array.isArray(c.points) && c.points.length < 2) &&
      !(Array.isArray(c.pairs) && c.pairs.length < 2));
    const base = checkText(JSON.stringify(pick));
    expectTrue(base.passed === 1 && base.failed === 0, `${op}: picked case does not pass on its own`);
    for (const { label, c } of corruptions(pick)) {
      const res = checkText(JSON.stringify(c));
      corrupted++;
      expectTrue(res.failed === 1 && res.passed === 0, `corruption not detected: ${label}`);
    }
    // An invalid decode case with its verdict flipped must fail too.
    if (op.endsWith('_decode')) {
      const inv = cases.find((c) => c.op === op && c.valid === false);
      const res = checkText(JSON.stringify({ ...inv, valid: true }));
      corrupted++;
      expectTrue(res.failed === 1, `${op}: invalid case claimed valid was not detected (${inv.reason})`);
    }
  }
  console.log(`checked ${corrupted} single corruptions`);

  // 5. CLI exit statuses on bad files.
  const oneBad = structuredClone(cases);
  const i = oneBad.findIndex((c) => c.op === 'g2_mul');
  oneBad[i].compressed = hex(mutate(unhex(oneBad[i].compressed), 95, (b) => b ^ 0x80));
  const cliCases = [
    ['file with one corrupted case', toJsonl(oneBad), `oracle: ${cases.length - 1} passed, 1 failed`],
    ['empty file', '', 'oracle: 0 passed, 0 failed'],
    ['unknown op', toJsonl([...cases.slice(0, 2), { op: 'g3_mul' }]), 'oracle: 2 passed, 1 failed'],
    ['malformed JSON line', toJsonl(cases.slice(0, 2)) + '{"op": "g1_mul", \n', 'oracle: 2 passed, 1 failed'],
    ['missing field', toJsonl([{ op: 'g1_add', p: cases[0].compressed, q: cases[0].compressed }]), 'oracle: 0 passed, 1 failed'],
    ['uppercase hex', toJsonl([{ ...cases[0], compressed: cases[0].compressed.toUpperCase() }]), 'oracle: 0 passed, 1 failed'],
  ];
  for (const [what, text, last] of cliCases) {
    const r = runCli(text);
    expectTrue(r.status === 1, `${what}: exit status ${r.status}, expected 1`);
    expectTrue(r.last === last, `${what}: last line "${r.last}", expected "${last}"`);
  }

  if (process.env.KEEP) writeFileSync(process.env.KEEP, toJsonl(cases));
  rmSync(workDir, { recursive: true, force: true });
  console.log(`elapsed ${Date.now() - t0} ms`);
  console.log(`selftest: ${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

process.exitCode = main();
