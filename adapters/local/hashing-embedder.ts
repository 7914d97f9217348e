import type { Embedder } from "../../core/ports/embedder.js";

/** Options of {@link HashingEmbedder}. */
export interface HashingEmbedderOptions {
  /** Vector length. Default 1024; more dimensions mean fewer hash collisions. */
  readonly dimensions?: number;
}

/** Bump when the features or weights change: vectors of another version are not comparable. */
const VERSION = "local-hash-v1";
const WORD_WEIGHT = 1;
const BIGRAM_WEIGHT = 0.5;
const CHAR_GRAM_WEIGHT = 0.25;
/** Very common English words carry little meaning; they still count, but barely. */
const STOP_WORD_WEIGHT = 0.15;
const STOP_WORDS = new Set(
  (
    "a an and are as at be but by do does for from has have how i if in is it its of on or " +
    "so that the their there this to was we were what when where which who why will with you"
  ).split(" "),
);
/** Different seeds keep a word, a bigram and a character n-gram with equal text apart. */
const SEED_WORD = 0x811c9dc5;
const SEED_BIGRAM = 0x050c5d1f;
const SEED_CHARS = 0x2f2c6a4b;
const SEED_EMPTY = 0x3b9aca07;
/** Pads words so n-grams at word edges differ from n-grams inside words. */
const WORD_START = 0x02;
const WORD_END = 0x03;

/**
 * A deterministic, dependency-free, offline {@link Embedder}: feature hashing of lower-cased,
 * NFKC-normalised text into `dimensions` signed buckets, then L2 normalisation.
 *
 * Features: every word (letters and digits), every pair of adjacent words, and the character
 * 3- to 5-grams of every word with its edges marked (so `deploy` and `deployment` share pieces).
 * A few very common English words are down-weighted. Text without letters or digits uses its
 * non-blank runs as words. The empty or whitespace-only text gets one fixed unit vector, shared
 * by all such texts and unrelated to every other text (the service refuses empty content anyway).
 *
 * It is lexical, not semantic: it matches shared words and word pieces, not paraphrases
 * ("car" and "automobile" are unrelated to it). Use a model-based embedder for meaning.
 *
 * @example
 * const embedder = new HashingEmbedder({ dimensions: 1024 });
 * embedder.id; // "local-hash-v1:1024"
 * const [stored] = await embedder.embedDocuments(["deploys run on Fridays"]);
 * const query = await embedder.embedQuery("when do deploys run?");
 */
export class HashingEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;

  constructor(options: HashingEmbedderOptions = {}) {
    const dimensions = options.dimensions ?? 1024;
    if (!Number.isInteger(dimensions) || dimensions < 2) {
      throw new RangeError(
        `HashingEmbedder: dimensions must be an integer >= 2, got ${dimensions}`,
      );
    }
    this.dimensions = dimensions;
    this.id = `${VERSION}:${dimensions}`;
  }

  async embedDocuments(texts: readonly string[]): Promise<number[][]> {
    return texts.map((text) => this.embed(text));
  }

  async embedQuery(text: string): Promise<number[]> {
    return this.embed(text);
  }

  /** The vector of one text, synchronously (documents and queries embed alike). */
  embed(text: string): number[] {
    const vector = new Float64Array(this.dimensions);
    const normalised = text.normalize("NFKC").toLowerCase();
    const words = normalised.match(/[\p{L}\p{N}]+/gu) ?? normalised.match(/\S+/gu) ?? [];
    if (words.length === 0) {
      this.#add(vector, fmix(SEED_EMPTY), 1);
      return Array.from(vector);
    }
    let previous: string | undefined;
    for (const word of words) {
      const stop = STOP_WORDS.has(word);
      this.#add(vector, hashString(SEED_WORD, word), stop ? STOP_WORD_WEIGHT : WORD_WEIGHT);
      if (previous !== undefined) {
        const h = hashString(hashChar(hashString(SEED_BIGRAM, previous), 0x20), word);
        this.#add(vector, h, BIGRAM_WEIGHT);
      }
      if (!stop) this.#addCharGrams(vector, word);
      previous = word;
    }
    return normalise(vector);
  }

  /** Character 3-5-grams of `\x02word\x03`, hashed without building substrings. */
  #addCharGrams(vector: Float64Array, word: string): void {
    const length = word.length + 2;
    const at = (i: number): number =>
      i === 0 ? WORD_START : i === length - 1 ? WORD_END : word.charCodeAt(i - 1);
    for (let start = 0; start + 3 <= length; start += 1) {
      let h = SEED_CHARS;
      for (let end = start; end < start + 5 && end < length; end += 1) {
        h = hashChar(h, at(end));
        if (end - start >= 2) this.#add(vector, h, CHAR_GRAM_WEIGHT);
      }
    }
  }

  /** Signed feature hashing: the bucket and the sign come from different bits of one mix. */
  #add(vector: Float64Array, hash: number, weight: number): void {
    const mixed = fmix(hash);
    const bucket = mixed % this.dimensions;
    vector[bucket] = (vector[bucket] ?? 0) + (fmix(mixed ^ 0x9e3779b9) & 1 ? weight : -weight);
  }
}

function hashChar(hash: number, code: number): number {
  return Math.imul(hash ^ code, 0x01000193) >>> 0;
}

function hashString(seed: number, text: string): number {
  let h = seed;
  for (let i = 0; i < text.length; i += 1) h = hashChar(h, text.charCodeAt(i));
  return h;
}

/** MurmurHash3's finaliser: FNV alone leaves the low bits (the bucket) poorly mixed. */
function fmix(hash: number): number {
  let h = hash;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function normalise(vector: Float64Array): number[] {
  let sum = 0;
  for (const x of vector) sum += x * x;
  const norm = Math.sqrt(sum);
  // Features can cancel out exactly (opposite signs in one bucket); keep a defined unit vector.
  if (norm === 0) {
    const fallback = Array.from(vector);
    fallback[0] = 1;
    return fallback;
  }
  return Array.from(vector, (x) => x / norm);
}
