/**
 * The built state of the hybrid index as plain data (typed arrays, strings, numbers), so a
 * replica can save it and load it back at its next start instead of tokenising, indexing and
 * quantising every memory again (docs/performance.md, "1,000,000 memories on one replica").
 * Taken right after a compaction, so nothing in it is stale or spare. The typed arrays of an
 * image that {@link RetrievalIndex.image} returns are views of the index's own storage: valid
 * until the index next changes. An index restored from an image answers every query exactly as
 * the index it was taken from.
 */

/** The posting lists and every slot's distinct terms (see `PostingArena`). */
export interface ArenaImage {
  /** Per term: where its postings start, and how many (each list in increasing slot order). */
  readonly start: Int32Array<ArrayBuffer>;
  readonly length: Int32Array<ArrayBuffer>;
  /** The postings: slot, count, capped document length. */
  readonly slots: Int32Array<ArrayBuffer>;
  readonly counts: Uint16Array<ArrayBuffer>;
  readonly lengths: Uint16Array<ArrayBuffer>;
  /** Per slot: where its distinct terms start in `docPool`, and their count + 1 (0: none). */
  readonly docStart: Int32Array<ArrayBuffer>;
  readonly docCount: Int32Array<ArrayBuffer>;
  readonly docPool: Int32Array<ArrayBuffer>;
}

/** The lexical side (see `LexicalPostings`). */
export interface PostingsImage {
  /** The terms by number. */
  readonly terms: readonly string[];
  /** Live documents holding each term. */
  readonly df: Int32Array<ArrayBuffer>;
  /** Per slot, its document's length in terms. */
  readonly docLengths: Int32Array<ArrayBuffer>;
  readonly slotCount: number;
  readonly longest: number;
  readonly liveDocs: number;
  readonly totalLength: number;
  readonly arena: ArenaImage;
}

/** The vector side (see `VectorMatrix`): rows, their int8 codes and scales, the error bounds. */
export interface VectorsImage {
  readonly dimensions: number;
  /** `rowCount × stride` float32 (rows padded with zeros to a multiple of 4). */
  readonly rows: Float32Array<ArrayBuffer>;
  readonly codes: Int8Array<ArrayBuffer>;
  readonly scales: Float32Array<ArrayBuffer>;
  readonly maxResidual: number;
  readonly maxL1: number;
  readonly maxNorm: number;
}

/** The slot groups (see `SlotGroups`). */
export interface GroupsImage {
  /** Group names by number (from 1) of primary group. */
  readonly names: readonly string[];
  /** Per slot, the number of its primary group (0: none). */
  readonly primary: Int32Array<ArrayBuffer>;
  readonly lists: readonly { readonly group: string; readonly slots: Int32Array<ArrayBuffer> }[];
}

/** The store order (see `StoreOrder`): per slot its group (0: none), key and chain links. */
export interface StoreOrderImage {
  /** Group names by number (from 1). */
  readonly names: readonly string[];
  readonly group: Int32Array<ArrayBuffer>;
  readonly time: Float64Array<ArrayBuffer>;
  readonly tie: Int32Array<ArrayBuffer>;
  /** The previous and next slot of the same group (-1: none). */
  readonly prev: Int32Array<ArrayBuffer>;
  readonly next: Int32Array<ArrayBuffer>;
}

/**
 * The whole hybrid index. `probe` is the index's terms of a fixed text: an index whose
 * tokenizer differs (another release) refuses the image rather than answer differently.
 *
 * @example
 * const image = index.image?.();
 * const copy = createHybridIndex();
 * copy.restore?.(image); // copy ranks exactly as index
 */
export interface HybridIndexImage {
  readonly kind: "hybrid";
  readonly probe: string;
  /** Document ids by slot (every slot live). */
  readonly ids: readonly string[];
  readonly postings: PostingsImage;
  readonly vectors: VectorsImage;
  readonly groups: GroupsImage;
  /**
   * The store order. An image saved before the index kept one has none: a restore refuses it
   * (the caller loads from the store instead), so neighbours are never silently missing.
   */
  readonly order?: StoreOrderImage;
  /** The live vectors' fixed-point sum. */
  readonly vectorSum: Float64Array<ArrayBuffer>;
}

/**
 * A text whose terms exercise every rule of the tokenizer (case, compounds, stop words, stems,
 * numbers, apostrophes, NFKC, non-Latin letters): two tokenizers that give the same terms for
 * it are taken to be the same.
 */
export const TOKENIZER_PROBE =
  "The deploys' getUserName HTTPServer max_retries v1.2 src/app.ts don't Caroline's ﬁle Ｆｕｌｌ 2022 Straße naïve café Привет мир 東京 running studies";
