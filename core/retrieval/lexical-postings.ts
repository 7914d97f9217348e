import { bm25Idf, type Bm25Parameters } from "./bm25-scoring.js";
import type { PostingsImage } from "./index-image.js";
import { PostingArena } from "./posting-arena.js";

/** A term counted more often than this in one document counts this often (saturated anyway). */
const MAX_COUNT = 0xffff;
/** A posting's document length at or above this is read from the slot's length instead. */
const LONG = 0xffff;
/** Counts up to this have a precomputed weight per document length (higher ones compute it). */
const TABLE_COUNTS = 4;
/** Document lengths below this have precomputed weights (longer ones compute it). */
const TABLE_LENGTHS = 1024;

/**
 * An inverted index of BM25 terms over numbered slots (the hybrid index's document slots).
 * Terms are numbered; every term's postings (slot, count, capped document length: 8 bytes)
 * and every slot's distinct term numbers live in a few shared typed arrays ({@link
 * PostingArena}), not in objects of their own: a term held by one document costs its string and
 * a few numbers, not three typed arrays (measured at 100,000 memories of the load benchmark, one
 * rare term each: ~1.3 KB per memory before, ~0.4 KB after; docs/performance.md). A removed slot keeps its
 * stale postings until {@link LexicalPostings.remap} drops them; scoring skips it because the
 * caller's `accepted` mask says no. Document frequencies, lengths and the document count are
 * always those of the live slots, so scores are exact BM25 over what is indexed.
 *
 * @example
 * const postings = new LexicalPostings();
 * postings.add(0, ["deploy", "friday"]);
 * postings.add(1, ["coffee", "kitchen"]);
 * const scores = postings.score(["deploy"], { k1: 1.2, b: 0.75, delta: 0 }, Uint8Array.of(1, 1));
 * // scores[0] ≈ 0.69, scores[1] = 0
 * postings.clear();
 */
export class LexicalPostings {
  readonly #termIds = new Map<string, number>();
  #arena = new PostingArena();
  /** Live documents holding each term. */
  #df = new Int32Array(64);
  /** Per slot: its document's length in terms (0 when the slot is empty). */
  #docLengths = new Int32Array(64);
  /** Slots below this may hold a document (the score array's length). */
  #slotCount = 0;
  /** The longest document indexed since the last remap (sizes the per-query weight tables). */
  #longest = 0;
  /** Per query term: idf × weight by document length and count (reused between calls). */
  #table = new Float64Array(0);
  #liveDocs = 0;
  #totalLength = 0;
  /** A {@link score} call's scores by slot, reused (a plain array cost 7x the whole loop). */
  #scores = new Float64Array(0);
  /** Number of stale postings (of removed slots) still in the lists. */
  #stale = 0;
  /** While adding a document: its distinct term numbers, and each term's count (else 0). */
  readonly #distinct: number[] = [];
  #countOf = new Int32Array(64);

  /** Live documents. */
  get documentCount(): number {
    return this.#liveDocs;
  }

  /** Stale postings waiting for {@link remap}. */
  get stalePostings(): number {
    return this.#stale;
  }

  /** Its state as views of its arrays (call right after a {@link remap}: nothing stale). */
  image(): PostingsImage {
    if (this.#stale > 0) throw new Error("lexical postings: an image needs a remap first");
    const terms = [...this.#termIds.keys()];
    return {
      terms,
      df: this.#df.subarray(0, terms.length),
      docLengths: this.#docLengths.subarray(0, this.#slotCount),
      slotCount: this.#slotCount,
      longest: this.#longest,
      liveDocs: this.#liveDocs,
      totalLength: this.#totalLength,
      arena: this.#arena.image(this.#slotCount),
    };
  }

  /** Postings holding an image (its arrays taken over). */
  static fromImage(image: PostingsImage): LexicalPostings {
    const postings = new LexicalPostings();
    image.terms.forEach((term, id) => postings.#termIds.set(term, id));
    const grow = (array: Int32Array<ArrayBuffer>) =>
      array.length > 0 ? array : new Int32Array(64);
    postings.#df = grow(image.df);
    postings.#countOf = new Int32Array(postings.#df.length);
    postings.#docLengths = grow(image.docLengths);
    postings.#slotCount = image.slotCount;
    postings.#longest = image.longest;
    postings.#liveDocs = image.liveDocs;
    postings.#totalLength = image.totalLength;
    postings.#arena = PostingArena.fromImage(image.arena);
    return postings;
  }

  /** Indexes the terms of a document in a slot that is empty. */
  add(slot: number, terms: readonly string[]): void {
    // Distinct term numbers in order of first use, counted in #countOf (zeroed again below).
    const distinct = this.#distinct;
    distinct.length = 0;
    const termIds = this.#termIds;
    for (const term of terms) {
      let id = termIds.get(term);
      if (id === undefined) {
        id = termIds.size;
        termIds.set(term, id);
        if (this.#df.length <= id) {
          this.#df = grownInt32(this.#df, id + 1);
          this.#countOf = grownInt32(this.#countOf, this.#df.length);
        }
      }
      const seen = this.#countOf[id] as number;
      if (seen === 0) distinct.push(id);
      this.#countOf[id] = seen + 1;
    }
    if (slot >= this.#docLengths.length) this.#docLengths = grownInt32(this.#docLengths, slot + 1);
    const arena = this.#arena;
    const length = terms.length;
    const capped = Math.min(length, LONG);
    const countOf = this.#countOf;
    arena.openDocument(slot, distinct.length);
    for (const id of distinct) {
      arena.push(id, slot, Math.min(countOf[id] as number, MAX_COUNT), capped);
      countOf[id] = 0;
      arena.addDocumentTerm(slot, id);
      this.#df[id] = (this.#df[id] as number) + 1;
    }
    this.#docLengths[slot] = length;
    this.#slotCount = Math.max(this.#slotCount, slot + 1);
    this.#longest = Math.max(this.#longest, length);
    this.#liveDocs += 1;
    this.#totalLength += length;
  }

  /** Forgets a slot's document (its postings turn stale). */
  remove(slot: number): void {
    const arena = this.#arena;
    if (slot >= this.#slotCount || !arena.hasDocument(slot)) return;
    const df = this.#df;
    const count = arena.documentTermCount(slot);
    arena.forEachDocumentTerm(slot, (id) => {
      df[id] = (df[id] as number) - 1;
    });
    this.#stale += count;
    this.#liveDocs -= 1;
    this.#totalLength -= this.#docLengths[slot] as number;
    arena.closeDocument(slot);
    this.#docLengths[slot] = 0;
  }

  /**
   * Renumbers slots (`newSlot[old]`: distinct, below `slotCount`, -1 for removed ones) and drops
   * stale postings. Lists stay in increasing slot order (re-sorted when the renumbering
   * reordered slots), so scoring walks the score array forwards.
   */
  remap(newSlot: Int32Array, slotCount: number): void {
    const sorted = this.#arena.remap(newSlot, slotCount);
    const docLengths = new Int32Array(Math.max(64, slotCount));
    let longest = 0;
    for (let old = 0; old < newSlot.length && old < this.#slotCount; old += 1) {
      const to = newSlot[old] as number;
      if (to < 0) continue;
      const length = this.#docLengths[old] as number;
      docLengths[to] = length;
      if (length > longest) longest = length;
    }
    this.#docLengths = docLengths;
    this.#slotCount = slotCount;
    this.#longest = longest;
    this.#stale = 0;
    if (!sorted)
      this.#arena.sortLists(slotCount, (slot) => Math.min(docLengths[slot] as number, LONG));
  }

  /**
   * BM25 of every accepted slot (`accepted[slot] === 1`, live slots only) holding at least one of
   * the distinct `terms` (summed in the order given, so sums are reproducible), by slot; 0 for
   * the others. The array is reused: read it, then {@link clear} it before the next call.
   */
  score(
    terms: readonly string[],
    { k1, b, delta }: Bm25Parameters,
    accepted: Uint8Array,
  ): Float64Array {
    const slotCount = this.#slotCount;
    if (this.#scores.length < slotCount) this.#scores = new Float64Array(slotCount * 2);
    const scores = this.#scores;
    const lengths = this.#docLengths;
    const n = this.#liveDocs;
    const averageLength = n > 0 ? this.#totalLength / n : 0;
    // Per term, idf × weight for every (document length, count) up to the table's bounds: the
    // same expression as bm25TermWeight (so the same floats), computed once per query instead of
    // once per posting.
    const tableLengths = Math.min(this.#longest + 1, TABLE_LENGTHS);
    const tableSize = tableLengths * TABLE_COUNTS;
    if (this.#table.length < tableSize) this.#table = new Float64Array(tableSize);
    const table = this.#table;
    const arena = this.#arena;
    const slots = arena.slots;
    const counts = arena.counts;
    const postingLengths = arena.lengths;
    for (const term of new Set(terms)) {
      const id = this.#termIds.get(term);
      const df = id === undefined ? 0 : (this.#df[id] ?? 0);
      if (id === undefined || df === 0) continue;
      const idf = bm25Idf(df, n);
      for (let length = 0; length < tableLengths; length += 1) {
        const lengthRatio = averageLength > 0 ? length / averageLength : 1;
        for (let tf = 1; tf <= TABLE_COUNTS; tf += 1) {
          const weight = (tf * (k1 + 1)) / (tf + k1 * (1 - b + b * lengthRatio)) + delta;
          table[length * TABLE_COUNTS + tf - 1] = idf * weight;
        }
      }
      const end = arena.start(id) + arena.length(id);
      for (let i = arena.start(id); i < end; i += 1) {
        const slot = slots[i] as number;
        if (accepted[slot] !== 1) continue;
        const tf = counts[i] as number;
        const length = postingLengths[i] as number;
        let contribution: number;
        if (tf <= TABLE_COUNTS && length < tableLengths) {
          contribution = table[length * TABLE_COUNTS + tf - 1] as number;
        } else {
          // bm25TermWeight inlined: the same expression, so the same floats.
          const docLength = length === LONG ? (lengths[slot] as number) : length;
          const lengthRatio = averageLength > 0 ? docLength / averageLength : 1;
          contribution = idf * ((tf * (k1 + 1)) / (tf + k1 * (1 - b + b * lengthRatio)) + delta);
        }
        scores[slot] = (scores[slot] as number) + contribution;
      }
    }
    return scores;
  }

  /**
   * `terms` when scoring them reads at most `budget` postings; else their rarest distinct terms
   * whose postings fit in it (at least the rarest one), in query order. Rare terms carry BM25's
   * evidence; a query of thousands of common words would read most of the index. Terms the
   * index does not hold cost nothing and are kept.
   *
   * @example
   * postings.withinBudget(["deploy", "the", "friday"], 1_000_000); // all three: few postings
   */
  withinBudget(terms: readonly string[], budget: number): readonly string[] {
    const postingsOf = (term: string) => {
      const id = this.#termIds.get(term);
      return id === undefined ? 0 : this.#arena.length(id);
    };
    if (terms.reduce((sum, term) => sum + postingsOf(term), 0) <= budget) return terms;
    const byCost = [...new Set(terms)].map((term) => ({ term, cost: postingsOf(term) }));
    byCost.sort((a, b) => a.cost - b.cost);
    const kept = new Set<string>();
    let used = 0;
    for (const { term, cost } of byCost) {
      if (kept.size > 0 && used + cost > budget) break;
      kept.add(term);
      used += cost;
    }
    return [...new Set(terms)].filter((term) => kept.has(term));
  }

  /**
   * The most the distinct `terms` could score in any document: `Σ idf · (k1 + 1 + delta)`, the
   * limit of every term's weight as its count grows in a short document. Terms no document holds
   * count too (as rare terms, of one document), so a query of words the store does not know
   * scores low everywhere. 0 when nothing is indexed or the query has no terms.
   *
   * @example
   * postings.maxScore(["deploy"], { k1: 1.2, b: 0.75, delta: 1 }); // idf("deploy") × 3.2
   */
  maxScore(terms: readonly string[], { k1, delta }: Bm25Parameters): number {
    const n = this.#liveDocs;
    if (n === 0) return 0;
    let sum = 0;
    for (const term of new Set(terms)) {
      const id = this.#termIds.get(term);
      // An unknown term weighs as a term of one document: as rare as a word can be and still
      // match, so the share of the query a document covers does not swing with the store's size.
      const df = id === undefined ? 1 : Math.max(1, this.#df[id] ?? 0);
      sum += bm25Idf(df, n) * (k1 + 1 + delta);
    }
    return sum;
  }

  /** Zeroes the scores a {@link score} call left (call after reading them). */
  clear(): void {
    this.#scores.fill(0, 0, this.#slotCount);
  }
}

function grownInt32(array: Int32Array, atLeast: number): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(Math.max(atLeast, array.length * 2));
  grown.set(array);
  return grown;
}
