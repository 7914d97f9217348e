import { bm25Idf, type Bm25Parameters } from "./bm25-scoring.js";

/**
 * One term's postings: the slots holding it, its count in each and each document's length
 * (capped at {@link LONG}: longer ones read the slot's length), in typed arrays, so scoring a
 * posting reads only memory that is next to the previous one.
 */
interface PostingList {
  slots: Int32Array;
  counts: Uint16Array;
  lengths: Uint16Array;
  length: number;
}

const INITIAL_POSTINGS = 2;
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
 * Postings live in growable typed arrays (4 + 2 bytes per posting). A removed slot keeps its
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
  readonly #lists: PostingList[] = [];
  /** Live documents holding each term. */
  readonly #df: number[] = [];
  /** Per slot: its distinct term ids (undefined when the slot is empty). */
  #docTerms: (Int32Array | undefined)[] = [];
  #docLengths: number[] = [];
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

  /** Live documents. */
  get documentCount(): number {
    return this.#liveDocs;
  }

  /** Stale postings waiting for {@link remap}. */
  get stalePostings(): number {
    return this.#stale;
  }

  /** Indexes the terms of a document in a slot that is empty. */
  add(slot: number, terms: readonly string[]): void {
    const counts = new Map<number, number>();
    for (const term of terms) {
      let id = this.#termIds.get(term);
      if (id === undefined) {
        id = this.#lists.length;
        this.#termIds.set(term, id);
        this.#lists.push({
          slots: new Int32Array(INITIAL_POSTINGS),
          counts: new Uint16Array(INITIAL_POSTINGS),
          lengths: new Uint16Array(INITIAL_POSTINGS),
          length: 0,
        });
        this.#df.push(0);
      }
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    const distinct = new Int32Array(counts.size);
    let i = 0;
    for (const [id, count] of counts) {
      distinct[i++] = id;
      push(this.#lists[id] as PostingList, slot, Math.min(count, MAX_COUNT), terms.length);
      this.#df[id] = (this.#df[id] ?? 0) + 1;
    }
    this.#docTerms[slot] = distinct;
    this.#docLengths[slot] = terms.length;
    this.#longest = Math.max(this.#longest, terms.length);
    this.#liveDocs += 1;
    this.#totalLength += terms.length;
  }

  /** Forgets a slot's document (its postings turn stale). */
  remove(slot: number): void {
    const distinct = this.#docTerms[slot];
    if (distinct === undefined) return;
    for (const id of distinct) this.#df[id] = (this.#df[id] ?? 1) - 1;
    this.#stale += distinct.length;
    this.#liveDocs -= 1;
    this.#totalLength -= this.#docLengths[slot] ?? 0;
    this.#docTerms[slot] = undefined;
    this.#docLengths[slot] = 0;
  }

  /**
   * Renumbers slots (`newSlot[old]`: distinct, below `slotCount`, -1 for removed ones) and drops
   * stale postings. Lists stay in increasing slot order (re-sorted when the renumbering
   * reordered slots), so scoring walks the score array forwards.
   */
  remap(newSlot: Int32Array, slotCount: number): void {
    let sorted = true;
    for (const list of this.#lists) {
      let kept = 0;
      for (let i = 0; i < list.length; i += 1) {
        const to = newSlot[list.slots[i] as number] as number;
        if (to < 0) continue;
        if (kept > 0 && to < (list.slots[kept - 1] as number)) sorted = false;
        list.slots[kept] = to;
        list.counts[kept] = list.counts[i] as number;
        list.lengths[kept] = list.lengths[i] as number;
        kept += 1;
      }
      list.length = kept;
    }
    const docTerms: (Int32Array | undefined)[] = new Array<Int32Array | undefined>(slotCount);
    const docLengths: number[] = new Array<number>(slotCount).fill(0);
    for (let old = 0; old < newSlot.length; old += 1) {
      const to = newSlot[old] as number;
      if (to < 0) continue;
      docTerms[to] = this.#docTerms[old];
      docLengths[to] = this.#docLengths[old] ?? 0;
    }
    this.#docTerms = docTerms;
    this.#docLengths = docLengths;
    this.#longest = docLengths.reduce((longest, length) => Math.max(longest, length), 0);
    this.#stale = 0;
    if (!sorted) this.#sortLists(slotCount);
  }

  /**
   * Puts every list in increasing slot order: a counting sort of all postings by slot (a slot
   * has one posting per distinct term), O(postings), then each list refilled slot by slot.
   */
  #sortLists(slotCount: number): void {
    const starts = new Int32Array(slotCount + 1);
    for (let slot = 0; slot < slotCount; slot += 1) {
      starts[slot + 1] = (starts[slot] as number) + (this.#docTerms[slot]?.length ?? 0);
    }
    const termOf = new Int32Array(starts[slotCount] as number);
    const countOf = new Uint16Array(termOf.length);
    const next = starts.slice(0, slotCount);
    this.#lists.forEach((list, term) => {
      for (let i = 0; i < list.length; i += 1) {
        const slot = list.slots[i] as number;
        const at = next[slot] as number;
        next[slot] = at + 1;
        termOf[at] = term;
        countOf[at] = list.counts[i] as number;
      }
      list.length = 0;
    });
    for (let slot = 0; slot < slotCount; slot += 1) {
      const length = Math.min(this.#docLengths[slot] ?? 0, LONG);
      for (let at = starts[slot] as number; at < (starts[slot + 1] as number); at += 1) {
        const list = this.#lists[termOf[at] as number] as PostingList;
        list.slots[list.length] = slot;
        list.counts[list.length] = countOf[at] as number;
        list.lengths[list.length] = length;
        list.length += 1;
      }
    }
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
    const slotCount = this.#docTerms.length;
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
      const list = this.#lists[id] as PostingList;
      const slots = list.slots;
      const counts = list.counts;
      const postingLengths = list.lengths;
      for (let i = 0; i < list.length; i += 1) {
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
    this.#scores.fill(0, 0, this.#docTerms.length);
  }
}

function push(list: PostingList, slot: number, count: number, length: number): void {
  if (list.length === list.slots.length) {
    const slots = new Int32Array(list.length * 2);
    slots.set(list.slots);
    const counts = new Uint16Array(list.length * 2);
    counts.set(list.counts);
    const lengths = new Uint16Array(list.length * 2);
    lengths.set(list.lengths);
    list.slots = slots;
    list.counts = counts;
    list.lengths = lengths;
  }
  list.slots[list.length] = slot;
  list.counts[list.length] = count;
  list.lengths[list.length] = Math.min(length, LONG);
  list.length += 1;
}
