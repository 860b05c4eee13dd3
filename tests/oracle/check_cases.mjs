#!/usr/bin/env node
/**
 * check_cases.mjs — independent BLS12-381 oracle for cuzk test cases.
 *
 * Usage:  node check_cases.mjs FILE
 *
 * FILE is JSON Lines: one JSON object per line, each with an "op" field.
 * Blank lines are ignored. All byte strings are lowercase hex without "0x".
 * Scalars are exactly 32 bytes, big-endian (reduced mod r before use: every
 * point involved lies in the order-r subgroup, so k and k mod r act alike).
 * Points use the ZCash / bellperson BLS12-381 encoding:
 *   G1: 48 bytes compressed, 96 bytes uncompressed;
 *   G2: 96 bytes compressed, 192 bytes uncompressed;
 *   Fp is 48 bytes big-endian; Fp2 = c0 + c1*u is written c1 || c0;
 *   top three bits of byte 0: 0x80 = compressed, 0x40 = point at infinity,
 *   0x20 = "y is lexicographically largest" (compressed form only).
 *
 * Ops (field names exactly as listed; extra fields are ignored):
 *   {"op":"g1_mul","k":S,"compressed":H,"uncompressed":H}      (also g2_mul)
 *       k*G (standard generator) must encode to exactly both strings.
 *   {"op":"g1_add","p":H,"q":H,"sum":H}                         (also g2_add)
 *       p, q, sum compressed; p + q must encode to exactly "sum".
 *   {"op":"g1_msm","points":[H,...],"scalars":[S,...],"result":H} (also g2_msm)
 *       points/result compressed; sum_i scalars[i]*points[i] == result.
 *   {"op":"pairing","p":H,"q":H,"gt":H}
 *       p compressed G1, q compressed G2, gt = e(p,q) as 576 bytes: twelve
 *       48-byte big-endian Fp values (normal form) in the order
 *       c0.c0.c0, c0.c0.c1, c0.c1.c0, c0.c1.c1, c0.c2.c0, c0.c2.c1,
 *       c1.c0.c0, c1.c0.c1, c1.c1.c0, c1.c1.c1, c1.c2.c0, c1.c2.c1
 *       of the tower Fp2=Fp[u]/(u^2+1), Fp6=Fp2[v]/(v^3-(u+1)),
 *       Fp12=Fp6[w]/(w^2-v). The value is the optimal-ate Miller loop raised
 *       to 3*(p^12-1)/r, the convention of blst, zkcrypto/bls12_381 and noble
 *       (see "Pairing convention" below).
 *   {"op":"pairing_check","pairs":[[P,Q],...],"expect":true|false}
 *       P compressed G1, Q compressed G2; expect == (prod_i e(P_i,Q_i) == 1).
 *   {"op":"g1_decode","bytes":H,"valid":true|false,"reason":"..."} (also g2_decode)
 *       the C++ decoder's verdict on an arbitrary byte string (compressed or
 *       uncompressed chosen by length). The oracle must reach the same verdict
 *       and, for a valid encoding, re-encode the point to the same bytes.
 *
 * Output: every mismatch as "line N (op): ...", a per-op table, and as the last
 * line exactly "oracle: N passed, M failed". Exit status 1 on any failure
 * (mismatch, malformed line, unknown op, unreadable file) or when the file
 * holds zero cases; 0 otherwise.
 *
 * Pairing convention: noble's pairing() applies a fast final exponentiation
 * whose hard part is 3*(p^4-p^2+1)/r, so it yields the CUBE of the exact
 * reduced pairing, i.e. f^(3*(p^12-1)/r) (verified with noble 2.4.0 by naive
 * exponentiation of its Miller loop output). Since GT has prime order r
 * and gcd(3, r) = 1, the exact value is noble's value raised to 3^-1 mod r.
 * Before the first "pairing" case the oracle re-derives this: it compares
 * (a) noble's Miller loop output raised naively to (p^12-1)/r,
 * (b) noble's pairing() raised to 3^-1 mod r, and
 * (c) the published e(G1, G2) test vector of
 *     draft-irtf-cfrg-pairing-friendly-curves-11 (section on BLS12_381),
 * and refuses to check anything if they disagree. cuzk computes the same
 * hard part, so a "pairing" case's gt must equal exact^3 = noble's pairing();
 * the exact value is still derived so that the comparison is anchored to the
 * published vector and not only to noble. pairing_check does not
 * depend on the exponent: x == 1 iff x^3 == 1 in a group of order r.
 *
 * The module also exports checkText() and decodeVerdict() for selftest.mjs.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bls12_381 } from '@noble/curves/bls12-381.js';

const { Fp, Fp2, Fp12, Fr } = bls12_381.fields;
/** Base field modulus p. */
export const P_MOD = Fp.ORDER;
/** Prime subgroup order r. */
export const R_ORDER = Fr.ORDER;

// ---------------------------------------------------------------------------
// Hex and byte helpers (strict: lowercase, even length, no 0x prefix)
// ---------------------------------------------------------------------------

const HEX_RE = /^(?:[0-9a-f]{2})*$/;

/** Parses strict lowercase hex into bytes; returns null if the text is not such hex. */
export function hexToBytesStrict(s) {
  if (typeof s !== 'string' || !HEX_RE.test(s)) return null;
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Bytes to lowercase hex. */
export function toHex(bytes) {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

/** Big-endian bytes to bigint. */
function bytesToBigint(bytes) {
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return v;
}

/** bigint to fixed-length big-endian bytes (value must fit). */
function bigintToBytes(v, len) {
  const out = new Uint8Array(len);
  for (let i = len - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  if (v !== 0n) throw new Error('bigintToBytes: value does not fit');
  return out;
}

// ---------------------------------------------------------------------------
// Curve descriptors
// ---------------------------------------------------------------------------

/**
 * Everything the checker needs to know about one source group.
 * `b` is the curve constant of y^2 = x^3 + b (G1: 4, G2: 4(u+1)).
 */
const GROUPS = {
  g1: {
    name: 'G1',
    Point: bls12_381.G1.Point,
    F: Fp,
    b: 4n,
    compLen: 48,
    uncompLen: 96,
  },
  g2: {
    name: 'G2',
    Point: bls12_381.G2.Point,
    F: Fp2,
    b: Fp2.fromBigTuple([4n, 4n]),
    compLen: 96,
    uncompLen: 192,
  },
};

/** Noble may return the identity with non-canonical projective coordinates; normalise it. */
function canon(group, pt) {
  return pt.is0() ? group.Point.ZERO : pt;
}

/** Scalar multiplication by any bigint k >= 0 on a subgroup point (k reduced mod r). */
function mulSubgroup(group, pt, k) {
  return canon(group, pt.multiplyUnsafe(k % R_ORDER));
}

/**
 * Plain double-and-add, written here on purpose instead of using noble's
 * multiplication: used for the independent subgroup check r*P == O, where the
 * point may lie outside the prime-order subgroup (so no endomorphism tricks).
 * Noble's add/double are complete projective formulas, valid for any curve point.
 */
function mulDoubleAndAdd(group, pt, k) {
  let acc = group.Point.ZERO;
  for (let i = BigInt(k.toString(2).length) - 1n; i >= 0n; i--) {
    acc = acc.double();
    if ((k >> i) & 1n) acc = acc.add(pt);
  }
  return acc;
}

/** Independent curve-equation check y^2 == x^3 + b on affine coordinates. */
function onCurve(group, pt) {
  const { F, b } = group;
  const { x, y } = pt.toAffine();
  return F.eql(F.sqr(y), F.add(F.mul(F.sqr(x), x), b));
}

/** Encodes a (valid) noble point in the ZCash format. */
function encodePoint(group, pt, compressed) {
  return canon(group, pt).toBytes(compressed);
}

// ---------------------------------------------------------------------------
// Decoding with an explicit verdict
// ---------------------------------------------------------------------------

/**
 * Flag / length / range rules of the ZCash format, checked here directly on
 * the bytes, independently of noble. Returns null when the structure is fine
 * or a reason string. (On-curve and subgroup membership are checked later.)
 */
function structuralProblem(group, bytes) {
  const n = bytes.length;
  if (n !== group.compLen && n !== group.uncompLen) return `wrong length ${n}`;
  const compressed = n === group.compLen;
  const c = (bytes[0] & 0x80) !== 0;
  const inf = (bytes[0] & 0x40) !== 0;
  const sort = (bytes[0] & 0x20) !== 0;
  if (compressed && !c) return 'compression flag missing on compressed-length encoding';
  if (!compressed && c) return 'compression flag set on uncompressed-length encoding';
  if (!compressed && sort) return 'sort flag set on uncompressed encoding';
  const body = Uint8Array.from(bytes);
  body[0] &= 0x1f;
  if (inf) {
    if (sort) return 'sort flag set together with infinity flag';
    if (body.some((x) => x !== 0)) return 'infinity flag with non-zero payload';
    return null;
  }
  // Every 48-byte Fp chunk (x, and y when uncompressed; both halves of Fp2) must be < p.
  for (let off = 0; off < n; off += 48) {
    if (bytesToBigint(body.subarray(off, off + 48)) >= P_MOD)
      return `field element at byte ${off} is >= p`;
  }
  return null;
}

/**
 * Decides whether `bytes` is a valid encoding of a point of `group` (G1/G2
 * prime-order subgroup). Verdict = valid iff ALL of:
 *   - the structural rules above hold (independent of noble),
 *   - noble's Point.fromBytes accepts it (flags, range, on-curve, subgroup),
 *   - an independent y^2 = x^3 + b check and r*P == O check pass,
 *   - re-encoding in the same form gives back exactly the same bytes.
 * `nobleAccepted` / `nobleError` record noble's own opinion, and `lenient`
 * lists checks that caught something noble let through.
 */
export function decodeVerdict(group, bytes) {
  const structural = structuralProblem(group, bytes);
  let point = null;
  let nobleError = null;
  try {
    point = group.Point.fromBytes(bytes);
  } catch (e) {
    nobleError = String(e && e.message ? e.message : e);
  }
  const lenient = [];
  if (point) {
    if (structural) lenient.push(structural);
    if (!point.is0()) {
      if (!onCurve(group, point)) lenient.push('not on curve');
      else if (!mulDoubleAndAdd(group, point, R_ORDER).is0()) lenient.push('not in subgroup');
    }
    const compressed = bytes.length === group.compLen;
    const again = encodePoint(group, point, compressed);
    if (toHex(again) !== toHex(bytes)) lenient.push('does not re-encode to the same bytes');
  }
  const valid = point !== null && lenient.length === 0;
  const reason = valid ? 'valid' : structural || nobleError || lenient.join('; ');
  return { valid, reason, point: valid ? point : null, nobleAccepted: point !== null, nobleError, lenient };
}

// ---------------------------------------------------------------------------
// Pairing helpers
// ---------------------------------------------------------------------------

/** Names of the twelve Fp coefficients in serialization order. */
const GT_COEFF_NAMES = [];
for (const a of ['c0', 'c1'])
  for (const b of ['c0', 'c1', 'c2']) for (const c of ['c0', 'c1']) GT_COEFF_NAMES.push(`${a}.${b}.${c}`);

/** Fp12 element -> 576 bytes in the order documented in the header. */
export function gtToBytes(f) {
  const parts = [];
  for (const half of [f.c0, f.c1])
    for (const fp2 of [half.c0, half.c1, half.c2]) parts.push(fp2.c0, fp2.c1);
  const out = new Uint8Array(576);
  parts.forEach((v, i) => out.set(bigintToBytes(v, 48), 48 * i));
  return out;
}

/** 3^-1 mod r: turns noble's pairing() output (exact^3) into the exact value. */
const INV3_MOD_R = Fr.inv(3n);

/** Published e(G1, G2) of draft-irtf-cfrg-pairing-friendly-curves-11 (e_0 .. e_11). */
const CFRG_E_G1_G2 = [
  '11619b45f61edfe3b47a15fac19442526ff489dcda25e59121d9931438907dfd448299a87dde3a649bdba96e84d54558',
  '153ce14a76a53e205ba8f275ef1137c56a566f638b52d34ba3bf3bf22f277d70f76316218c0dfd583a394b8448d2be7f',
  '095668fb4a02fe930ed44767834c915b283b1c6ca98c047bd4c272e9ac3f3ba6ff0b05a93e59c71fba77bce995f04692',
  '16deedaa683124fe7260085184d88f7d036b86f53bb5b7f1fc5e248814782065413e7d958d17960109ea006b2afdeb5f',
  '09c92cf02f3cd3d2f9d34bc44eee0dd50314ed44ca5d30ce6a9ec0539be7a86b121edc61839ccc908c4bdde256cd6048',
  '111061f398efc2a97ff825b04d21089e24fd8b93a47e41e60eae7e9b2a38d54fa4dedced0811c34ce528781ab9e929c7',
  '01ecfcf31c86257ab00b4709c33f1c9c4e007659dd5ffc4a735192167ce197058cfb4c94225e7f1b6c26ad9ba68f63bc',
  '08890726743a1f94a8193a166800b7787744a8ad8e2f9365db76863e894b7a11d83f90d873567e9d645ccf725b32d26f',
  '0e61c752414ca5dfd258e9606bac08daec29b3e2c57062669556954fb227d3f1260eedf25446a086b0844bcd43646c10',
  '0fe63f185f56dd29150fc498bbeea78969e7e783043620db33f75a05a0a2ce5c442beaff9da195ff15164c00ab66bdde',
  '10900338a92ed0b47af211636f7cfdec717b7ee43900eee9b5fc24f0000c5874d4801372db478987691c566a8c474978',
  '1454814f3085f0e6602247671bc408bbce2007201536818c901dbd4d2095dd86c1ec8b888e59611f60a301af7776be3d',
].join('');

/**
 * Exact reduced pairing e(P, Q) = MillerLoop(P, Q)^((p^12-1)/r), with the
 * identity in GT when either input is the point at infinity.
 */
export function exactPairing(P, Q) {
  if (P.is0() || Q.is0()) return Fp12.ONE;
  return Fp12.pow(bls12_381.pairing(P, Q), INV3_MOD_R);
}

/** Same value by the slow, obvious route: naive exponentiation of noble's Miller loop. */
export function exactPairingNaive(P, Q) {
  if (P.is0() || Q.is0()) return Fp12.ONE;
  const miller = bls12_381.pairing(P, Q, false);
  return Fp12.pow(miller, (P_MOD ** 12n - 1n) / R_ORDER);
}

let pairingConventionVerified = false;
/** Cross-checks the three routes to e(G1, G2) described in the header; throws on disagreement. */
export function verifyPairingConvention() {
  if (pairingConventionVerified) return;
  const G1 = bls12_381.G1.Point.BASE;
  const G2 = bls12_381.G2.Point.BASE;
  const fast = exactPairing(G1, G2);
  const naive = exactPairingNaive(G1, G2);
  if (!Fp12.eql(fast, naive))
    throw new Error('noble pairing()^(1/3 mod r) != MillerLoop^((p^12-1)/r): noble convention changed');
  if (toHex(gtToBytes(naive)) !== CFRG_E_G1_G2)
    throw new Error('e(G1,G2) does not match the CFRG draft test vector');
  if (!Fp12.eql(Fp12.pow(fast, 3n), bls12_381.pairing(G1, G2)))
    throw new Error('noble pairing() is not the cube of the exact pairing');
  pairingConventionVerified = true;
}

/** Explains a GT mismatch: which coefficients differ and whether it is a known wrong convention. */
function describeGtMismatch(exact, gotBytes) {
  const want = gtToBytes(Fp12.pow(exact, 3n));
  const diff = [];
  for (let i = 0; i < 12; i++) {
    const a = toHex(want.subarray(48 * i, 48 * i + 48));
    const b = toHex(gotBytes.subarray(48 * i, 48 * i + 48));
    if (a !== b) diff.push(`${GT_COEFF_NAMES[i]}: expected ${a} got ${b}`);
  }
  const got = toHex(gotBytes);
  // Known wrong conventions, recognised to make the report actionable.
  const hints = [
    ['the exact e = MillerLoop^((p^12-1)/r) instead of its cube', exact],
    ['the inverse/conjugate of the exact value e^-1', Fp12.conjugate(exact)],
    ['the conjugate of the cube e^-3 (Miller loop not conjugated for x < 0?)', Fp12.conjugate(Fp12.pow(exact, 3n))],
  ];
  let hint = '';
  for (const [what, v] of hints) {
    if (toHex(gtToBytes(v)) === got) hint = ` [value equals ${what}]`;
  }
  return `gt differs in ${diff.length}/12 coefficients${hint}: ${diff.join('; ')}`;
}

// ---------------------------------------------------------------------------
// Field readers: throw MalformedCase when the JSON does not follow the format
// ---------------------------------------------------------------------------

class MalformedCase extends Error {}

function need(cond, msg) {
  if (!cond) throw new MalformedCase(msg);
}

/** Reads a hex string field, optionally of one required byte length. */
function hexField(obj, key, len) {
  need(key in obj, `missing field "${key}"`);
  const bytes = hexToBytesStrict(obj[key]);
  need(bytes !== null, `field "${key}" is not lowercase even-length hex`);
  if (len !== undefined)
    need(bytes.length === len, `field "${key}" has ${bytes.length} bytes, expected ${len}`);
  return bytes;
}

/** Reads a 32-byte big-endian scalar given as hex (value, not the raw string). */
function scalarValue(s, where) {
  const bytes = hexToBytesStrict(s);
  need(bytes !== null && bytes.length === 32, `${where} is not a 32-byte lowercase hex scalar`);
  return bytesToBigint(bytes);
}

function boolField(obj, key) {
  need(typeof obj[key] === 'boolean', `field "${key}" must be true or false`);
  return obj[key];
}

function arrayField(obj, key) {
  need(Array.isArray(obj[key]), `field "${key}" must be an array`);
  return obj[key];
}

/**
 * Decodes a compressed point given as an input of an op. An input that is not
 * a valid encoding is a mismatch (the C++ side produced it), reported via the
 * returned error string.
 */
function inputPoint(group, hex, where) {
  const bytes = hexToBytesStrict(hex);
  need(bytes !== null, `${where} is not lowercase even-length hex`);
  if (bytes.length !== group.compLen)
    return { err: `${where}: expected a ${group.compLen}-byte compressed ${group.name} point, got ${bytes.length} bytes` };
  const v = decodeVerdict(group, bytes);
  if (!v.valid) return { err: `${where}: not a valid ${group.name} point (${v.reason})` };
  return { point: v.point };
}

/** Compares an expected encoding against the given bytes; pushes a message on mismatch. */
function compareBytes(out, what, want, got) {
  const a = toHex(want);
  const b = toHex(got);
  if (a !== b) out.push(`${what} differs: expected ${a} got ${b}`);
}

// ---------------------------------------------------------------------------
// Op handlers: each returns a list of mismatch messages (empty = pass)
// ---------------------------------------------------------------------------

function checkMul(group, c) {
  const k = scalarValue(c.k, 'field "k"');
  const compressed = hexField(c, 'compressed');
  const uncompressed = hexField(c, 'uncompressed');
  const out = [];
  const q = k % R_ORDER === 0n ? group.Point.ZERO : group.Point.BASE.multiply(k % R_ORDER);
  compareBytes(out, 'compressed', encodePoint(group, q, true), compressed);
  compareBytes(out, 'uncompressed', encodePoint(group, q, false), uncompressed);
  return out;
}

function checkAdd(group, c) {
  const sum = hexField(c, 'sum');
  const p = inputPoint(group, c.p, 'field "p"');
  const q = inputPoint(group, c.q, 'field "q"');
  const errs = [p.err, q.err].filter(Boolean);
  if (errs.length) return errs;
  const out = [];
  compareBytes(out, 'sum', encodePoint(group, p.point.add(q.point), true), sum);
  return out;
}

function checkMsm(group, c) {
  const points = arrayField(c, 'points');
  const scalars = arrayField(c, 'scalars');
  const result = hexField(c, 'result');
  need(points.length === scalars.length, `points (${points.length}) and scalars (${scalars.length}) differ in length`);
  const ks = scalars.map((s, i) => scalarValue(s, `scalars[${i}]`));
  const errs = [];
  let acc = group.Point.ZERO;
  points.forEach((h, i) => {
    const p = inputPoint(group, h, `points[${i}]`);
    if (p.err) errs.push(p.err);
    else acc = acc.add(mulSubgroup(group, p.point, ks[i]));
  });
  if (errs.length) return errs;
  const out = [];
  compareBytes(out, 'result', encodePoint(group, acc, true), result);
  return out;
}

function checkPairing(c) {
  const gt = hexField(c, 'gt', 576);
  const p = inputPoint(GROUPS.g1, c.p, 'field "p"');
  const q = inputPoint(GROUPS.g2, c.q, 'field "q"');
  const errs = [p.err, q.err].filter(Boolean);
  if (errs.length) return errs;
  verifyPairingConvention();
  const exact = exactPairing(p.point, q.point);
  const want = Fp12.pow(exact, 3n);  // cuzk's (and noble's) convention: the cube
  return toHex(gtToBytes(want)) === toHex(gt) ? [] : [describeGtMismatch(exact, gt)];
}

function checkPairingCheck(c) {
  const pairs = arrayField(c, 'pairs');
  const expect = boolField(c, 'expect');
  const errs = [];
  const terms = [];
  pairs.forEach((pair, i) => {
    need(Array.isArray(pair) && pair.length === 2, `pairs[${i}] must be a [P, Q] array`);
    const p = inputPoint(GROUPS.g1, pair[0], `pairs[${i}][0]`);
    const q = inputPoint(GROUPS.g2, pair[1], `pairs[${i}][1]`);
    if (p.err || q.err) errs.push(...[p.err, q.err].filter(Boolean));
    // e(O, Q) = e(P, O) = 1: such terms do not change the product (noble refuses them).
    else if (!p.point.is0() && !q.point.is0()) terms.push({ g1: p.point, g2: q.point });
  });
  if (errs.length) return errs;
  // noble's pairingBatch yields (exact product)^3; it is 1 iff the exact product is 1.
  const isOne = terms.length === 0 || Fp12.eql(bls12_381.pairingBatch(terms), Fp12.ONE);
  return isOne === expect ? [] : [`product of pairings ${isOne ? 'is' : 'is not'} 1 but expect=${expect}`];
}

function checkDecode(group, c) {
  const bytes = hexField(c, 'bytes');
  const valid = boolField(c, 'valid');
  need(!('reason' in c) || typeof c.reason === 'string', 'field "reason" must be a string');
  const v = decodeVerdict(group, bytes);
  const out = [];
  if (v.lenient.length)
    out.push(`note: noble accepted this encoding but the oracle rejects it (${v.lenient.join('; ')})`);
  if (v.valid !== valid) {
    const theirs = c.reason !== undefined ? ` (C++ reason: ${JSON.stringify(c.reason)})` : '';
    out.push(`C++ says valid=${valid}${theirs}, oracle says valid=${v.valid} (${v.reason})`);
  }
  // For a valid encoding decodeVerdict already required the round trip to the same bytes.
  return out;
}

/** op name -> handler(case) returning mismatch messages. */
const HANDLERS = {
  g1_mul: (c) => checkMul(GROUPS.g1, c),
  g2_mul: (c) => checkMul(GROUPS.g2, c),
  g1_add: (c) => checkAdd(GROUPS.g1, c),
  g2_add: (c) => checkAdd(GROUPS.g2, c),
  g1_msm: (c) => checkMsm(GROUPS.g1, c),
  g2_msm: (c) => checkMsm(GROUPS.g2, c),
  pairing: checkPairing,
  pairing_check: checkPairingCheck,
  g1_decode: (c) => checkDecode(GROUPS.g1, c),
  g2_decode: (c) => checkDecode(GROUPS.g2, c),
};
export const OPS = Object.keys(HANDLERS);
export { GROUPS };

// ---------------------------------------------------------------------------
// Driver
// ---------------------------------------------------------------------------

/**
 * Checks the whole text of a cases file.
 * Returns { passed, failed, perOp: {op: {checked, failed}}, mismatches: [string], notes: [string] }.
 * Lines that are not objects with a known "op" are counted under "(malformed)"
 * or "(unknown op)" and as failures.
 */
export function checkText(text) {
  const perOp = {};
  const mismatches = [];
  const notes = [];
  let passed = 0;
  let failed = 0;
  const tally = (op, ok) => {
    perOp[op] ??= { checked: 0, failed: 0 };
    perOp[op].checked++;
    if (ok) passed++;
    else {
      perOp[op].failed++;
      failed++;
    }
  };
  const lines = text.split('\n');
  lines.forEach((raw, idx) => {
    const lineNo = idx + 1;
    const line = raw.trim();
    if (line === '') return;
    let c;
    try {
      c = JSON.parse(line);
    } catch (e) {
      mismatches.push(`line ${lineNo}: malformed JSON (${e.message})`);
      tally('(malformed)', false);
      return;
    }
    if (c === null || typeof c !== 'object' || Array.isArray(c) || typeof c.op !== 'string') {
      mismatches.push(`line ${lineNo}: not an object with a string "op" field`);
      tally('(malformed)', false);
      return;
    }
    const handler = Object.hasOwn(HANDLERS, c.op) ? HANDLERS[c.op] : undefined;
    if (!handler) {
      mismatches.push(`line ${lineNo}: unknown op ${JSON.stringify(c.op)}`);
      tally('(unknown op)', false);
      return;
    }
    let msgs;
    try {
      msgs = handler(c);
    } catch (e) {
      if (e instanceof MalformedCase) msgs = [`malformed case: ${e.message}`];
      else msgs = [`oracle error: ${e && e.stack ? e.stack : e}`];
    }
    // "note:" messages are informational and do not fail a case.
    const real = msgs.filter((m) => !m.startsWith('note: '));
    for (const m of msgs) {
      if (m.startsWith('note: ')) notes.push(`line ${lineNo} (${c.op}): ${m.slice(6)}`);
      else mismatches.push(`line ${lineNo} (${c.op}): ${m}`);
    }
    tally(c.op, real.length === 0);
  });
  return { passed, failed, perOp, mismatches, notes };
}

/** Formats a checkText() result; the last line is "oracle: N passed, M failed". */
export function formatReport(res) {
  const out = [];
  for (const n of res.notes) out.push(`NOTE ${n}`);
  for (const m of res.mismatches) out.push(`MISMATCH ${m}`);
  out.push('cases checked per op:');
  const ops = [...OPS, ...Object.keys(res.perOp).filter((o) => !OPS.includes(o))];
  for (const op of ops) {
    const t = res.perOp[op] ?? { checked: 0, failed: 0 };
    out.push(`  ${op.padEnd(14)} ${String(t.checked).padStart(6)} checked, ${t.failed} failed`);
  }
  if (res.passed + res.failed === 0) out.push('error: the file holds zero cases');
  out.push(`oracle: ${res.passed} passed, ${res.failed} failed`);
  return out.join('\n');
}

function main(argv) {
  if (argv.length !== 1) {
    console.error('usage: node check_cases.mjs FILE');
    return 2;
  }
  let text;
  try {
    text = readFileSync(argv[0], 'utf8');
  } catch (e) {
    console.log(`error: cannot read ${argv[0]}: ${e.message}`);
    console.log('oracle: 0 passed, 1 failed');
    return 1;
  }
  const res = checkText(text);
  console.log(formatReport(res));
  return res.failed > 0 || res.passed === 0 ? 1 : 0;
}

// Run as a program only when invoked directly (selftest.mjs imports this module).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
