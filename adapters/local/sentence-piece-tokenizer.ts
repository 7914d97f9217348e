/** SentencePiece's word-boundary mark: a text's spaces become it, and it starts the text. */
const BOUNDARY = "\u2581";
/** Ids 0-5 are `<unk>`-like and control pieces, never matched in text. */
const RESERVED = 6;
/** The id of an unknown character. */
const UNKNOWN = 0;

interface TrieNode {
  readonly children: Map<string, TrieNode>;
  /** The id of the piece that ends here, or -1. */
  id: number;
}

/**
 * The unigram SentencePiece tokenizer of the Universal Sentence Encoder lite, as TensorFlow.js's
 * `universal-sentence-encoder` package runs it (and `@energetic-ai/embeddings` after it): NFKC,
 * spaces to `▁`, a leading `▁`, then the highest-scoring split into known pieces (a Viterbi pass
 * over code points), unknown characters as id 0 (runs of them merged into one). Ported to match
 * that implementation exactly, ties included, since the encoder was measured with it.
 *
 * @example
 * const tokenizer = new SentencePieceTokenizer(pieces, scores);
 * tokenizer.encode("hello"); // [2002, 102] with the shipped vocabulary
 */
export class SentencePieceTokenizer {
  readonly #root: TrieNode = { children: new Map(), id: -1 };
  readonly #scores: readonly number[];
  readonly #lengths: number[];

  constructor(pieces: readonly string[], scores: readonly number[]) {
    this.#scores = scores;
    // An unknown character spans one code point whatever piece 0 is spelled as (the reference
    // steps back by piece 0's length, which is 1 in the shipped vocabulary: "\ufffd").
    this.#lengths = pieces.map((piece, id) => (id === UNKNOWN ? 1 : [...piece].length));
    for (let id = RESERVED; id < pieces.length; id += 1) {
      let node = this.#root;
      for (const symbol of pieces[id] as string) {
        let next = node.children.get(symbol);
        if (next === undefined) {
          next = { children: new Map(), id: -1 };
          node.children.set(symbol, next);
        }
        node = next;
      }
      node.id = id;
    }
  }

  /** The piece ids of `text`, in order (an empty text has none). */
  encode(text: string): number[] {
    const normalised = text.normalize("NFKC");
    if (normalised.length === 0) return [];
    const symbols = [...(BOUNDARY + normalised.replace(/ /g, BOUNDARY))];
    const n = symbols.length;
    // Candidates ending at each position, grouped by start position in ascending order, as the
    // reference walks them (its per-end maps iterate integer keys in ascending order).
    const ending: { start: number; id: number; score: number }[][] = Array.from(
      { length: n + 1 },
      () => [],
    );
    for (let start = 0; start < n; start += 1) {
      let node = this.#root.children.get(symbols[start] as string);
      let matched = false;
      for (let end = start + 1; node !== undefined; end += 1) {
        if (node.id >= 0) {
          ending[end]?.push({ start, id: node.id, score: this.#scores[node.id] as number });
          matched = true;
        }
        if (end >= n) break;
        node = node.children.get(symbols[end] as string);
      }
      if (!matched) ending[start + 1]?.push({ start, id: UNKNOWN, score: 0 });
    }
    const best = new Float64Array(n + 1);
    const chosen = new Int32Array(n + 1);
    for (let end = 0; end <= n; end += 1) {
      for (const { start, id, score } of ending[end] ?? []) {
        const total = score + (best[start] as number);
        if (best[end] === 0 || total >= (best[end] as number)) {
          best[end] = total;
          chosen[end] = id;
        }
      }
    }
    const reversed: number[] = [];
    for (let at = n; at > 0;) {
      const id = chosen[at] as number;
      reversed.push(id);
      at -= this.#lengths[id] as number;
    }
    const ids: number[] = [];
    for (let i = reversed.length - 1; i >= 0; i -= 1) {
      const id = reversed[i] as number;
      if (id === UNKNOWN && ids[ids.length - 1] === UNKNOWN) continue;
      ids.push(id);
    }
    return ids;
  }
}
