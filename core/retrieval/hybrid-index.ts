/**
 * The hybrid retrieval index (BM25 fused with cosine).
 * Long because: one class whose lexical and vector sides share the slot numbering, its
 * compaction and its group reordering, and whose exact top-k pruning (with the store-neighbour
 * lift's bounds) reads all of them at once; the parts that stand alone are already their own
 * files (postings, matrix, fusion, slot groups, store order, top-k).
 */
import { BM25_B, BM25_DELTA, BM25_K1, type Bm25Parameters } from "./bm25-scoring.js";
import { calibratedRelevance, fusedEvidence, semanticEvidence } from "./calibration.js";
import { withoutExcludedSpans } from "./excluded-spans.js";
import { reciprocalRank, RRF_K } from "./fusion.js";
import { TOKENIZER_PROBE, type HybridIndexImage } from "./index-image.js";
import { lexicalTerms } from "./lexical-terms.js";
import { LexicalPostings } from "./lexical-postings.js";
import type {
  IndexedDocument,
  RetrievalHit,
  RetrievalIndex,
  RetrievalQuery,
} from "./retrieval-index.js";
import { SlotGroups } from "./slot-groups.js";
import { StoreOrder } from "./store-order.js";
import { TopK, type ScoredSlot } from "./top-k.js";
import { VectorMatrix, type BoundedScan } from "./vector-matrix.js";

/**
 * Weight of the vector side in the convex fusion of the calibrated evidences. Measured side by
 * side on the realistic store, the coding paraphrases, LoCoMo and LME with the word vectors and
 * the sentence encoder (docs/performance.md, "Search R@5 against classic BM25"): 0.1 ranks the
 * realistic store better but costs recall answers there and on LoCoMo, and paraphrases with the
 * sentence encoder; 0.3 and above lose on the realistic store.
 */
export const DEFAULT_VECTOR_WEIGHT = 0.2;
/**
 * How much of its store neighbours' evidence a candidate with lexical evidence of its own gets:
 * `G × max s(j) / d` over the documents written d = 1-2 before or after it in its group
 * ({@link IndexedDocument.order}). Measured on four sets (docs/performance.md, "Neighbours by
 * store order"): LoCoMo R@5 +3.9 points over no lift (0.598), NegConstraint +0.5, the realistic
 * store and LongMemEval level, at a cost of 0.8 on LoCoMo when the order means nothing (0.5:
 * +4.9 in order, −3.5 shuffled).
 */
export const DEFAULT_NEIGHBOUR_LIFT = 0.3;
/**
 * Store neighbours lend only when written within this of each other (the order key's `time`
 * units; the engine's are ms): one hour, one sitting. Memories written days apart next to each
 * other in a project are not about one thing more often than any two (the realistic store:
 * context precision 0.768 without a window, 0.802 with it, docs/performance.md).
 */
export const DEFAULT_NEIGHBOUR_WINDOW = 3_600_000;
/** How deep each list is read for reciprocal rank fusion. */
export const DEFAULT_RRF_DEPTH = 100;
/**
 * Default {@link HybridIndexOptions.maxQueryPostings}: 2,000,000 postings. A natural query reads
 * far fewer, even at a million memories (every store of the ranking benches holds fewer in all).
 * A message of ~12,700 distinct common words read most of the ~20 million postings of a million
 * memories: 0.9-1.1 s of the event loop, 0.23-0.48 s within this budget (bench/query-postings.ts).
 */
export const DEFAULT_MAX_QUERY_POSTINGS = 2_000_000;
/** Removed slots are compacted away once there are more of them than this and than live ones. */
const COMPACT_AFTER = 1024;
/**
 * Slots added since the last compaction are renumbered in group order (see
 * {@link SlotGroups.clusteredOrder}) once there are more of them than this and than an eighth of
 * the ordered ones, at the next query (adds alone wait until they outnumber the ordered slots,
 * so a bulk load of n documents reorders O(log n) times in O(n) in all, not every n/8): O(n)
 * each time, so O(1) amortised per slot over a growing index.
 */
const REORDER_AFTER = 1024;

/** How lexical and vector scores become one relevance. */
export type FusionMethod = "convex" | "rrf";

/** Options of {@link createHybridIndex}; every one has a measured default. */
export interface HybridIndexOptions {
  /**
   * `convex` (default): rank by the fused evidence `(1 - w) · lexical + w · semantic` (see
   * `calibration.ts`: both absolute, neither rescaled per query). `rrf`: reciprocal rank fusion
   * of the two rankings (k = 60); relevance is still the calibrated evidence.
   */
  readonly fusion?: FusionMethod;
  /** `w` of the convex fusion, in [0, 1]. 0 ranks by BM25 alone, 1 by cosine alone. Default 0.2. */
  readonly vectorWeight?: number;
  /** BM25 term-frequency saturation. Default 1.2. */
  readonly k1?: number;
  /** BM25 length normalisation in [0, 1]. Default 0.75. */
  readonly b?: number;
  /** BM25+'s lower bound per matched term (≥ 0). Default 1; 0 is classic BM25. */
  readonly delta?: number;
  /** Reciprocal rank fusion's constant. Default 60. */
  readonly rrfK?: number;
  /** How many of each ranking reciprocal rank fusion reads. Default 100. */
  readonly rrfDepth?: number;
  /** The BM25 terms of a text (documents and queries alike). Default {@link lexicalTerms}. */
  readonly terms?: (text: string) => readonly string[];
  /**
   * The part of a query's text BM25 matches. Default {@link withoutExcludedSpans} (what the query
   * explicitly excludes is left out; the whole text when nothing else is left); `(text) => text`
   * is classic BM25.
   */
  readonly queryText?: (text: string) => string;
  /**
   * `G` of the store-neighbour lift (convex fusion only), in [0, 1]: a candidate with lexical
   * evidence of its own gets `G × max s(j) / d` over the accepted documents written d = 1-2
   * before or after it in its order group, s the fused evidence. 0 turns it off. Default 0.3
   * ({@link DEFAULT_NEIGHBOUR_LIFT}).
   */
  readonly neighbourLift?: number;
  /**
   * Neighbours lend only when their order `time` is within this of the candidate's (≥ 0; the
   * engine gives ms). Default one hour ({@link DEFAULT_NEIGHBOUR_WINDOW}); `Infinity`: any.
   */
  readonly neighbourWindow?: number;
  /**
   * The most postings one query's BM25 reads (≥ 1). Over it, the query's rarest terms are
   * kept, the most common ones (the least evidence each) left out, for scoring and for the
   * lexical evidence's bound alike. Default {@link DEFAULT_MAX_QUERY_POSTINGS}.
   */
  readonly maxQueryPostings?: number;
}

/** What one query knows of every slot: enough to give any slot its exact fused evidence. */
interface QueryEvidence {
  readonly scores: Float64Array;
  readonly lexicalMax: number;
  readonly mu: number;
  readonly accepted: Uint8Array;
  /** Whether the vector side counts (a convex query with a vector weight above 0). */
  readonly vectors: boolean;
}

/**
 * An exact hybrid {@link RetrievalIndex}: BM25+ over the documents' {@link lexicalTerms} (a real
 * stop list, a light stemmer, compounds split and kept whole, numbers kept) fused with the exact
 * cosine of every accepted document's vector (no approximate structure, so nothing indexed can
 * be missed). Work is saved only where a proven bound shows it cannot change the answer: an
 * int8 scan bounds every cosine and only the documents that could still enter the top k (or
 * hold the minimum or maximum) get their exact float32 cosine; BM25 bounds skip the rest.
 *
 * Relevance is calibrated, not rescaled per query (see `calibration.ts`): the lexical evidence is
 * BM25+ divided by the most the query's terms could score, the semantic evidence is how far the
 * cosine rises above the query's mean cosine over the store (kept exactly, from a fixed-point
 * sum of the vectors), the two are fused convexly and mapped by one fixed curve to
 * [0, 1]. The same evidence gives the same relevance in every query and store size.
 *
 * @example
 * const index = createHybridIndex({ vectorWeight: 0.5 });
 * index.add({ id: "a", text: "Deploys run on Fridays", vector: await embedder.embedQuery("…") });
 * const hits = index.query({ text: "when do we deploy?", vector: queryVector, topK: 10 });
 */
export function createHybridIndex(options: HybridIndexOptions = {}): RetrievalIndex {
  return new HybridIndex(options);
}

/**
 * A BM25-only {@link RetrievalIndex} (the same index with vector weight 0): the baseline the
 * hybrid one is measured against. Only documents sharing a term with the query are returned;
 * `similarity` is still the cosine of the returned hits.
 *
 * @example
 * const bm25 = createBm25Index();
 */
export function createBm25Index(
  options: Omit<HybridIndexOptions, "fusion" | "vectorWeight"> = {},
): RetrievalIndex {
  return new HybridIndex({ neighbourLift: 0, ...options, fusion: "convex", vectorWeight: 0 });
}

class HybridIndex implements RetrievalIndex {
  readonly #fusion: FusionMethod;
  readonly #vectorWeight: number;
  readonly #bm25: Bm25Parameters;
  readonly #rrfK: number;
  readonly #rrfDepth: number;
  readonly #terms: (text: string) => readonly string[];
  readonly #queryText: (text: string) => string;
  readonly #neighbourLift: number;
  readonly #neighbourWindow: number;
  readonly #maxQueryPostings: number;
  #order = new StoreOrder();
  #postings = new LexicalPostings();
  #vectors = new VectorMatrix();
  readonly #slotOf = new Map<string, number>();
  #groups = new SlotGroups();
  #ids: (string | undefined)[] = [];
  /** 1 for a live slot, 0 for a removed one: the acceptance mask of a query without a filter. */
  #alive = new Uint8Array(64);
  #removed = 0;
  /** Slots below this are in group order (see {@link REORDER_AFTER}). */
  #orderedUpTo = 0;
  /** Per slot, its exact fused evidence in the query being ranked (NaN: not computed yet). */
  #fusedCache = new Float64Array(0);
  /** The acceptance mask of a query with a filter (reused). */
  #accepted = new Uint8Array(0);
  /**
   * The live vectors' sum in fixed point (integers, exact in float64 up to 2^53), so adding and
   * removing are exact inverses and the store's mean cosine depends on the live set alone.
   */
  #vectorSum = new Float64Array(0);

  constructor(options: HybridIndexOptions) {
    this.#fusion = options.fusion ?? "convex";
    this.#terms = options.terms ?? lexicalTerms;
    this.#queryText = options.queryText ?? withoutExcludedSpans;
    this.#vectorWeight = checkRange(
      "vectorWeight",
      options.vectorWeight ?? DEFAULT_VECTOR_WEIGHT,
      0,
      1,
    );
    this.#bm25 = {
      k1: checkRange("k1", options.k1 ?? BM25_K1, 0, Number.MAX_VALUE),
      b: checkRange("b", options.b ?? BM25_B, 0, 1),
      delta: checkRange("delta", options.delta ?? BM25_DELTA, 0, Number.MAX_VALUE),
    };
    this.#neighbourLift = checkRange(
      "neighbourLift",
      options.neighbourLift ?? DEFAULT_NEIGHBOUR_LIFT,
      0,
      1,
    );
    this.#neighbourWindow = checkRange(
      "neighbourWindow",
      options.neighbourWindow ?? DEFAULT_NEIGHBOUR_WINDOW,
      0,
      Infinity,
    );
    this.#maxQueryPostings = checkRange(
      "maxQueryPostings",
      options.maxQueryPostings ?? DEFAULT_MAX_QUERY_POSTINGS,
      1,
      Infinity,
    );
    this.#rrfK = checkRange("rrfK", options.rrfK ?? RRF_K, 0, Number.MAX_VALUE);
    this.#rrfDepth = Math.floor(
      checkRange("rrfDepth", options.rrfDepth ?? DEFAULT_RRF_DEPTH, 1, Number.MAX_SAFE_INTEGER),
    );
  }

  get size(): number {
    return this.#slotOf.size;
  }

  add(document: IndexedDocument): void {
    const terms = this.#terms(document.text);
    const old = this.#slotOf.get(document.id);
    // Re-added with the same store-order key (an update): it keeps its place among its
    // neighbours, moved over before the old slot is dropped.
    const keepPlace =
      old !== undefined && document.order !== undefined && this.#order.holds(old, document.order);
    if (old !== undefined) this.#drop(old, document.id, !keepPlace);
    const slot = this.#ids.length;
    this.#vectors.set(slot, document.vector);
    this.#ids.push(document.id);
    this.#slotOf.set(document.id, slot);
    if (slot >= this.#alive.length) {
      const grown = new Uint8Array(this.#alive.length * 2);
      grown.set(this.#alive);
      this.#alive = grown;
    }
    this.#alive[slot] = 1;
    this.#addToSum(document.vector, 1);
    this.#postings.add(slot, terms);
    this.#groups.add(slot, document.groups ?? []);
    if (keepPlace) this.#order.replace(old, slot);
    else this.#order.add(slot, document.order);
    const unordered = this.#ids.length - this.#orderedUpTo;
    const removed = this.#removed > COMPACT_AFTER && this.#removed > this.#slotOf.size;
    if (removed || (unordered > REORDER_AFTER && unordered > this.#orderedUpTo)) this.#compact();
  }

  vectorOf(id: string): number[] | undefined {
    const slot = this.#slotOf.get(id);
    return slot === undefined ? undefined : this.#vectors.row(slot);
  }

  storeNeighbours(id: string, distance: number): string[] {
    const slot = this.#slotOf.get(id);
    if (slot === undefined) return [];
    this.#order.settle();
    return this.#order
      .around(slot, distance, this.#neighbourWindow)
      .flatMap((other) => this.#ids[other] ?? []);
  }

  remove(id: string): boolean {
    const slot = this.#slotOf.get(id);
    if (slot === undefined) return false;
    this.#drop(slot, id, true);
    if (this.#removed > COMPACT_AFTER && this.#removed > this.#slotOf.size) this.#compact();
    return true;
  }

  /** Marks a slot removed (compacted away later); `unlink`: out of the store order too. */
  #drop(slot: number, id: string, unlink: boolean): void {
    this.#addToSum(this.#vectors.row(slot), -1);
    this.#slotOf.delete(id);
    this.#ids[slot] = undefined;
    this.#alive[slot] = 0;
    this.#postings.remove(slot);
    if (unlink) this.#order.remove(slot);
    this.#removed += 1;
  }

  settle(): void {
    this.#order.settle();
    const unordered = this.#ids.length - this.#orderedUpTo;
    if (unordered > REORDER_AFTER && unordered > this.#orderedUpTo / 8) this.#compact();
  }

  image(): HybridIndexImage {
    if (this.#removed > 0 || this.#orderedUpTo < this.#ids.length) this.#compact();
    const n = this.#ids.length;
    return {
      kind: "hybrid",
      probe: this.#terms(TOKENIZER_PROBE).join(" "),
      ids: this.#ids as string[],
      postings: this.#postings.image(),
      vectors: this.#vectors.image(n),
      groups: this.#groups.image(n),
      order: this.#order.image(n),
      vectorSum: this.#vectorSum,
    };
  }

  restore(image: HybridIndexImage): boolean {
    if (this.#ids.length > 0) throw new Error("hybrid index: restore needs an empty index");
    const { postings, vectors, groups, order } = image;
    // An image saved before the index kept a store order is refused like another tokenizer's:
    // the caller loads from the store, so no memory silently loses its neighbours.
    const probe = this.#terms(TOKENIZER_PROBE).join(" ");
    if (image.kind !== "hybrid" || image.probe !== probe || order === undefined) return false;
    const n = image.ids.length;
    const stride = Math.ceil(vectors.dimensions / 4) * 4;
    if (
      postings.slotCount !== n ||
      postings.docLengths.length !== n ||
      groups.primary.length !== n ||
      [order.group, order.time, order.tie, order.prev, order.next].some((a) => a.length !== n) ||
      vectors.rows.length !== n * stride
    ) {
      throw new Error("hybrid index image: its parts disagree on the number of documents");
    }
    this.#postings = LexicalPostings.fromImage(postings);
    this.#vectors = VectorMatrix.fromImage(vectors);
    this.#groups = SlotGroups.fromImage(groups);
    this.#order = StoreOrder.fromImage(order);
    this.#ids = [...image.ids];
    image.ids.forEach((id, slot) => this.#slotOf.set(id, slot));
    this.#alive = new Uint8Array(Math.max(64, n * 2));
    this.#alive.fill(1, 0, n);
    this.#removed = 0;
    this.#orderedUpTo = n;
    this.#vectorSum = image.vectorSum;
    return true;
  }

  query(query: RetrievalQuery): RetrievalHit[] {
    const topK = Math.floor(query.topK);
    if (!(topK > 0) || this.#slotOf.size === 0) return [];
    this.settle();
    this.#vectors.queryVector(query.vector);
    const slotCount = this.#ids.length;
    const accepted = this.#acceptedMask(slotCount, query);
    const queryTerms = this.#postings.withinBudget(
      this.#queryTerms(query.text),
      this.#maxQueryPostings,
    );
    const lexical = this.#postings.score(queryTerms, this.#bm25, accepted);
    const lexicalMax = this.#postings.maxScore(queryTerms, this.#bm25);
    const mu = this.baselineSimilarity(query.vector);
    try {
      let ranked: ScoredSlot[];
      if (this.#fusion === "rrf") {
        this.#vectors.scan(accepted, slotCount);
        ranked = this.#rankByRrf(topK, lexical, slotCount, accepted);
      } else {
        const range =
          this.#vectorWeight > 0 ? this.#vectors.boundedScan(accepted, slotCount) : undefined;
        ranked = this.#rankByConvex(topK, lexical, lexicalMax, mu, slotCount, accepted, range);
      }
      const w = this.#vectorWeight;
      const known: QueryEvidence = { scores: lexical, lexicalMax, mu, accepted, vectors: w > 0 };
      return ranked.flatMap((hit) => {
        const similarity = this.#vectors.dot(hit.slot);
        const lexicalEvidence = lexicalMax > 0 ? (lexical[hit.slot] as number) / lexicalMax : 0;
        const semantic = w > 0 || this.#fusion === "rrf" ? semanticEvidence(similarity, mu) : 0;
        const rrf = this.#fusion === "rrf";
        const evidence = rrf ? fusedEvidence(lexicalEvidence, semantic, w) : hit.score;
        if (!(evidence > 0)) return [];
        const neighbour = rrf ? 0 : this.#liftAt(known, hit.slot, (j) => this.#fusedAt(known, j));
        return [
          {
            id: hit.id,
            // Lifted evidence can pass 1: the curve maps all of it to 1.
            relevance: calibratedRelevance(evidence),
            similarity,
            lexical: lexicalEvidence,
            semantic,
            ...(neighbour > 0 ? { neighbour } : {}),
          },
        ];
      });
    } finally {
      this.#postings.clear();
    }
  }

  /** The BM25 terms of a query: of its matched part, or of all of it when that part has none. */
  #queryTerms(text: string): readonly string[] {
    const terms = this.#terms(this.#queryText(text));
    return terms.length > 0 ? terms : this.#terms(text);
  }

  /**
   * The query's mean cosine over the live documents, `q · Σ v / n` (0 for an empty index): the
   * similarity a memory picked at random would have, so only a rise above it is evidence.
   */
  baselineSimilarity(query: readonly number[]): number {
    const n = this.#slotOf.size;
    if (n === 0) return 0;
    const sum = this.#vectorSum;
    let dot = 0;
    for (let i = 0; i < query.length && i < sum.length; i += 1) {
      dot += (query[i] as number) * ((sum[i] as number) / FIXED_POINT);
    }
    return dot / n;
  }

  #addToSum(vector: readonly number[], sign: 1 | -1): void {
    if (this.#vectorSum.length < vector.length) {
      const grown = new Float64Array(vector.length);
      grown.set(this.#vectorSum);
      this.#vectorSum = grown;
    }
    const sum = this.#vectorSum;
    // Rounded from the float32 the matrix keeps, so a removal subtracts exactly what was added.
    vector.forEach((v, i) => {
      sum[i] = (sum[i] as number) + sign * Math.round(Math.fround(v) * FIXED_POINT);
    });
  }

  /**
   * 1 for each live slot the query admits, else 0: in one of its `groups` (marked from the
   * groups' slot lists), among its `candidates` (one id lookup each), and accepted by `accept`
   * (asked once per remaining slot). Each stage raises the mark of the slots that pass it.
   */
  #acceptedMask(slotCount: number, query: RetrievalQuery): Uint8Array {
    const { accept, candidates, groups } = query;
    if (accept === undefined && candidates === undefined && groups === undefined) {
      return this.#alive;
    }
    if (this.#accepted.length < slotCount) this.#accepted = new Uint8Array(this.#alive.length);
    const mask = this.#accepted;
    const ids = this.#ids;
    if (candidates === undefined && groups === undefined) {
      for (let slot = 0; slot < slotCount; slot += 1) {
        const id = ids[slot];
        mask[slot] = id !== undefined && accept?.(id) === true ? 1 : 0;
      }
      return mask;
    }
    mask.fill(0, 0, slotCount);
    let level = 0;
    if (groups !== undefined) this.#groups.mark(groups, this.#alive, mask, level, ++level);
    if (candidates !== undefined) {
      const slotOf = this.#slotOf;
      const from = level++;
      for (const group of candidates) {
        for (const id of group) {
          const slot = slotOf.get(id);
          if (slot !== undefined && mask[slot] === from) mask[slot] = level;
        }
      }
    }
    if (level === 1 && accept === undefined) return mask;
    for (let slot = 0; slot < slotCount; slot += 1) {
      const id = ids[slot];
      mask[slot] =
        mask[slot] === level && id !== undefined && (accept === undefined || accept(id)) ? 1 : 0;
    }
    return mask;
  }

  /**
   * The `topK` accepted slots of highest evidence: the fused `(1 - w) · score / lexicalMax + w ·
   * semanticEvidence(cosine, mu)` plus, for a slot with lexical evidence, its store neighbours'
   * lift ({@link #liftAt}). Exact top-k pruning: the vector part is at most `w` and the lift at
   * most `G`, so a slot whose lexical part plus both is below the k-th best so far cannot enter
   * and is skipped by one comparison of its BM25 score with a cut derived from that floor
   * (conservatively: the exact test decides the rest). The others are bounded with the
   * approximate similarities (theirs and their neighbours') plus the scan's slack, and only those
   * that could still enter get their exact similarity.
   */
  #rankByConvex(
    topK: number,
    scores: Float64Array,
    lexicalMax: number,
    mu: number,
    slotCount: number,
    accepted: Uint8Array,
    range: BoundedScan | undefined,
  ): ScoredSlot[] {
    const vectors = range !== undefined && range.max >= range.min;
    const known: QueryEvidence = { scores, lexicalMax, mu, accepted, vectors };
    const g = this.#neighbourLift;
    if (range === undefined || !vectors) {
      const best = new TopK(topK);
      const exact = (slot: number) => this.#fusedAt(known, slot);
      for (let slot = 0; slot < slotCount; slot += 1) {
        if ((scores[slot] as number) > 0) {
          this.#offer(best, slot, exact(slot) + this.#liftAt(known, slot, exact));
        }
      }
      return best.sorted();
    }
    const plain = this.#rankFused(topK, known, slotCount, range, 0, 0, -Infinity);
    if (!(g > 0) || plain.length === 0) return plain;
    // The plain top k with their lifts are k slots whose totals are known: the k-th of those
    // is a floor no answer falls below. The best fused evidence bounds what any neighbour lends.
    this.#startFusedCache(slotCount);
    const exact = (slot: number) => this.#cachedFused(known, slot);
    const totals = plain.map(({ slot }) => exact(slot) + this.#liftAt(known, slot, exact));
    totals.sort((a, b) => b - a);
    const seed = plain.length < topK ? -Infinity : (totals[topK - 1] as number);
    const most = (plain[0] as ScoredSlot).score;
    return this.#rankFused(topK, known, slotCount, range, g, most, seed);
  }

  /**
   * The exact top k of fused evidence plus, with `g` > 0, the store neighbours' lift
   * ({@link #liftAt}), given that no neighbour's fused evidence exceeds `most` and no answer's
   * total falls below `seed`. See {@link #rankByConvex} for the pruning.
   */
  #rankFused(
    topK: number,
    known: QueryEvidence,
    slotCount: number,
    range: BoundedScan,
    g: number,
    most: number,
    seed: number,
  ): ScoredSlot[] {
    const { scores, lexicalMax, mu, accepted } = known;
    const best = new TopK(topK);
    const w = this.#vectorWeight;
    const lexicalWeight = 1 - w;
    const approximations = this.#vectors.similarities;
    const vectors = this.#vectors;
    const { max, slack } = range;
    const lexicalOf = (score: number) => (lexicalMax > 0 ? score / lexicalMax : 0);
    const upper = (slot: number) =>
      accepted[slot] !== 1
        ? 0
        : fusedEvidence(
            lexicalOf(scores[slot] as number),
            semanticEvidence(Math.min((approximations[slot] as number) + slack, max), mu),
            w,
          );
    const exact = (slot: number) => this.#cachedFused(known, slot);
    const maxLift = g * most;
    let floor = Math.max(best.floor(), seed);
    let cut = lexicalCut(floor - maxLift, w, lexicalWeight, lexicalMax);
    for (let slot = 0; slot < slotCount; slot += 1) {
      const lexicalScore = scores[slot] as number;
      if (lexicalScore < cut || accepted[slot] !== 1) continue;
      const lexical = lexicalOf(lexicalScore);
      const lifted = g > 0 && lexicalScore > 0;
      const lexicalPart = lexicalWeight * lexical;
      if (lexicalPart + w + (lifted ? maxLift : 0) < floor) continue;
      const own = fusedEvidence(
        lexical,
        semanticEvidence(Math.min((approximations[slot] as number) + slack, max), mu),
        w,
      );
      if (own + (lifted ? maxLift : 0) < floor) continue;
      const liftBound = lifted ? Math.min(maxLift, this.#liftAt(known, slot, upper)) : 0;
      if (own + liftBound < floor) continue;
      const fused = lifted
        ? exact(slot)
        : fusedEvidence(lexical, semanticEvidence(vectors.dot(slot), mu), w);
      if (fused + liftBound < floor) continue;
      const total = fused + (lifted ? this.#liftAt(known, slot, exact) : 0);
      if (!(total > 0) || total < floor) continue;
      this.#offer(best, slot, total);
      const raised = Math.max(best.floor(), seed);
      if (raised !== floor) {
        floor = raised;
        cut = lexicalCut(floor - maxLift, w, lexicalWeight, lexicalMax);
      }
    }
    return best.sorted();
  }

  /** Forgets the cached fused evidence of the last query (see {@link #cachedFused}). */
  #startFusedCache(slotCount: number): void {
    if (this.#fusedCache.length < slotCount)
      this.#fusedCache = new Float64Array(this.#alive.length);
    this.#fusedCache.fill(NaN, 0, slotCount);
  }

  /** {@link #fusedAt}, computed once per slot and query (neighbours are asked for repeatedly). */
  #cachedFused(known: QueryEvidence, slot: number): number {
    let fused = this.#fusedCache[slot] as number;
    if (Number.isNaN(fused)) this.#fusedCache[slot] = fused = this.#fusedAt(known, slot);
    return fused;
  }

  /** A slot's exact fused evidence in this query (0 when the query does not accept it). */
  #fusedAt(known: QueryEvidence, slot: number): number {
    if (known.accepted[slot] !== 1) return 0;
    const { scores, lexicalMax, mu } = known;
    const lexical = lexicalMax > 0 ? (scores[slot] as number) / lexicalMax : 0;
    const semantic = known.vectors ? semanticEvidence(this.#vectors.dot(slot), mu) : 0;
    return fusedEvidence(lexical, semantic, this.#vectorWeight);
  }

  /**
   * What a slot's store neighbours lend it: `G × max s(j) / d` over the slots written d = 1-2
   * before or after it in its order group (within the neighbour window), with `s` = `evidenceOf` (0 for a slot the query does
   * not accept: another project's, a removed, expired or filtered-out memory); 0 for a slot
   * without lexical evidence of its own (its neighbours' relevance is not its own).
   */
  #liftAt(known: QueryEvidence, slot: number, evidenceOf: (slot: number) => number): number {
    const g = this.#neighbourLift;
    if (!(g > 0) || !((known.scores[slot] as number) > 0) || known.accepted[slot] !== 1) return 0;
    return g * this.#order.bestNeighbour(slot, evidenceOf, this.#neighbourWindow);
  }

  #rankByRrf(
    topK: number,
    scores: Float64Array,
    slotCount: number,
    accepted: Uint8Array,
  ): ScoredSlot[] {
    const lexicalTop = new TopK(this.#rrfDepth);
    for (let slot = 0; slot < slotCount; slot += 1) {
      const score = scores[slot] as number;
      if (score > 0) this.#offer(lexicalTop, slot, score);
    }
    const vectorTop = new TopK(this.#rrfDepth);
    const similarities = this.#vectors.similarities;
    for (let slot = 0; slot < slotCount; slot += 1) {
      if (accepted[slot] === 1) this.#offer(vectorTop, slot, similarities[slot] as number);
    }
    const fused = new Map<number, number>();
    const addRanks = (ranked: readonly ScoredSlot[]) =>
      ranked.forEach(({ slot }, i) =>
        fused.set(slot, (fused.get(slot) ?? 0) + reciprocalRank(i + 1, this.#rrfK)),
      );
    addRanks(lexicalTop.sorted());
    addRanks(vectorTop.sorted());
    const best = new TopK(topK);
    for (const [slot, score] of fused) this.#offer(best, slot, score);
    return best.sorted();
  }

  #offer(best: TopK, slot: number, score: number): void {
    if (best.admits(score)) best.offer({ slot, id: this.#ids[slot] as string, score });
  }

  /**
   * Renumbers the live slots densely, primary group by primary group (slot order within one),
   * dropping removed ones from every structure. Scores do not depend on slot numbers (ties go by
   * id), so answers are the same before and after.
   */
  #compact(): void {
    const newSlot = this.#groups.clusteredOrder(this.#alive, this.#ids.length);
    if (newSlot.every((to, from) => to === from)) {
      // Nothing removed and already in group order (a single group, or loaded from a snapshot
      // in that order).
      this.#orderedUpTo = this.#ids.length;
      return;
    }
    const ids = new Array<string>(this.#slotOf.size);
    this.#ids.forEach((id, slot) => {
      const to = newSlot[slot] as number;
      if (id === undefined || to < 0) return;
      this.#slotOf.set(id, to);
      ids[to] = id;
    });
    this.#postings.remap(newSlot, ids.length);
    this.#vectors.remap(newSlot, ids.length);
    this.#groups.remap(newSlot, ids.length);
    this.#order.remap(newSlot, ids.length);
    this.#ids = ids;
    this.#alive = new Uint8Array(Math.max(64, ids.length * 2));
    this.#alive.fill(1, 0, ids.length);
    this.#removed = 0;
    this.#orderedUpTo = ids.length;
  }
}

/**
 * A BM25 score below which a slot cannot reach `floor` however close its vector: the solution of
 * `(1 - w) · score / lexicalMax + w = floor`, shrunk by a relative 1e-9 so float rounding cannot
 * make it prune a slot the exact test would keep. 0 (prune nothing) when the floor is within
 * 1e-6 of `w` or below, or when the lexical side carries no weight.
 */
function lexicalCut(floor: number, w: number, lexicalWeight: number, lexicalMax: number): number {
  if (!(floor - w > 1e-6) || !(lexicalWeight > 0) || !(lexicalMax > 0)) return 0;
  return ((floor - w) / lexicalWeight) * lexicalMax * (1 - 1e-9);
}

/** Scale of the fixed-point vector sum: float32 keeps 24 bits of mantissa. */
const FIXED_POINT = 2 ** 24;

function checkRange(name: string, value: number, min: number, max: number): number {
  if (!(value >= min && value <= max)) {
    throw new RangeError(`hybrid index: ${name} must be in [${min}, ${max}], got ${value}`);
  }
  return value;
}
