/**
 * A fingerprint of an article's text that stays close when the text is edited a little and is
 * unrelated when it is replaced: a simhash over word 3-shingles. Each shingle's hash votes
 * on every bit; texts sharing most shingles share most votes, so the number of differing bits
 * (the Hamming distance) grows with how much of the text changed.
 */

/**
 * Distances above this mean the text changed beyond recognition. Each bit differs with probability
 * angle/pi, the angle between the two texts' shingle-count vectors (Charikar's simhash): unrelated
 * texts differ in about half the bits, a fixed typo in almost none, an added or rewritten
 * paragraph in a small share. The threshold, under a third of the bits, is crossed around the
 * point where half the text is new. The fingerprint is wide because the spread around those
 * averages shrinks with the number of bits: at 64 bits a rewritten paragraph and an unrelated
 * article came within a bit of each other. tests/unit/page-check.test.ts checks both sides.
 */
export const TEXT_CHANGED_DISTANCE = 80;

/** Bits of the fingerprint, in 32-bit words. */
const LANES = 8;
const BITS = LANES * 32;

/**
 * Longer text is cut: the first 16,000 characters (about 2,500 words, a whole article more often
 * than not) say whether it is still the same article, and the cut keeps a check's work bounded (a
 * few ms; the watch runs thousands of checks in one process, between the API's requests).
 */
export const MAX_TEXT_CHARS = 16_000;

/**
 * A word: letters, digits and combining marks, with inner apostrophes ("don't"). A regular
 * expression rather than Intl.Segmenter: ten times faster on a 100 KB article, and the same words
 * for the languages that separate them with spaces (a text without spaces is one long word per
 * run, which still fingerprints: it only changes as a whole).
 */
const WORD = /[\p{L}\p{N}\p{M}]+(?:['\u2019][\p{L}\p{N}\p{M}]+)*/gu;

/** Two well-mixed 32-bit hashes of each word of a text (cyrb53's two lanes, kept whole), interleaved. */
function wordHashes(text: string): Uint32Array {
  const normal = text.slice(0, MAX_TEXT_CHARS).normalize('NFKC').toLowerCase();
  const out: number[] = [];
  for (const [word] of normal.matchAll(WORD)) {
    let h1 = 0xdeadbeef;
    let h2 = 0x41c6ce57;
    for (let i = 0; i < word.length; i++) {
      const c = word.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    out.push(h1 >>> 0, h2 >>> 0);
  }
  return Uint32Array.from(out);
}

/** MurmurHash3's finaliser: spreads every input bit over the whole word. */
function fmix32(x: number): number {
  let h = x ^ (x >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const rotl = (x: number, r: number) => (x << r) | (x >>> (32 - r));

/** The simhash of a text as hex digits, or null when it has no words at all. */
export function textFingerprint(text: string): string | null {
  const w = wordHashes(text);
  const n = w.length / 2;
  if (n === 0) return null;
  const ones = new Int32Array(BITS);
  // a shingle is three words in order (fewer when the text is shorter); its two hashes mix the words' hashes
  const shingles = Math.max(1, n - 2);
  for (let s = 0; s < shingles; s++) {
    let h1 = 0x9e3779b9;
    let h2 = 0x7f4a7c15;
    for (let k = s; k < Math.min(n, s + 3); k++) {
      h1 = fmix32(rotl(h1, 13) ^ w[2 * k]);
      h2 = fmix32(rotl(h2, 17) ^ w[2 * k + 1]);
    }
    // more hash words from two (Kirsch and Mitzenmacher's double hashing), each mixed again
    for (let lane = 0; lane < LANES; lane++) {
      // visit only the set bits: a bit is set when more than half the shingles voted for it
      for (let h = fmix32((h1 + Math.imul(lane, h2)) | 0); h !== 0; h &= h - 1) ones[lane * 32 + 31 - Math.clz32(h & -h)]++;
    }
  }
  let hex = '';
  for (let lane = 0; lane < LANES; lane++) {
    let word = 0;
    for (let b = 0; b < 32; b++) if (ones[lane * 32 + b] * 2 > shingles) word |= 1 << b;
    hex += (word >>> 0).toString(16).padStart(8, '0');
  }
  return hex;
}

function popcount32(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

const FINGERPRINT = new RegExp(`^[0-9a-f]{${LANES * 8}}$`);

/** How many bits differ, or null when either is not a fingerprint of this kind. */
export function fingerprintDistance(a: string, b: string): number | null {
  if (!FINGERPRINT.test(a) || !FINGERPRINT.test(b)) return null;
  let distance = 0;
  for (let at = 0; at < a.length; at += 8) {
    distance += popcount32(Number.parseInt(a.slice(at, at + 8), 16) ^ Number.parseInt(b.slice(at, at + 8), 16));
  }
  return distance;
}
