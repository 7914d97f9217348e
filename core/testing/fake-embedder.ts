import { AgentServicesError } from "../errors.js";
import type { Embedder } from "../ports/embedder.js";

/** Options of {@link FakeEmbedder}. */
export interface FakeEmbedderOptions {
  /** Vector length (default 64). */
  readonly dimensions?: number;
  /** Embedder id (default `fake:<dimensions>`). */
  readonly id?: string;
}

/**
 * A deterministic embedder for unit tests: a normalised bag of lower-cased words hashed into
 * `dimensions` buckets, so texts sharing words are similar. `setVector` pins the vector of an
 * exact text for tests that need precise similarities; `failWith` simulates a provider outage.
 * It records every call in `calls`.
 *
 * @example
 * const embedder = new FakeEmbedder({ dimensions: 3 });
 * embedder.setVector("deploys", [1, 0, 0]);
 * await embedder.embedQuery("deploys"); // [1, 0, 0]
 */
export class FakeEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  /** Every call, in order: which method and the texts it got. */
  readonly calls: { method: "documents" | "query"; texts: string[] }[] = [];
  readonly #pinned = new Map<string, number[]>();
  #failure: Error | undefined;

  constructor(options: FakeEmbedderOptions = {}) {
    this.dimensions = options.dimensions ?? 64;
    this.id = options.id ?? `fake:${this.dimensions}`;
    if (!Number.isInteger(this.dimensions) || this.dimensions < 1) {
      throw new Error(
        `FakeEmbedder: dimensions must be a positive integer, got ${this.dimensions}`,
      );
    }
  }

  /** Pins the vector returned for exactly `text` (normalised on the way out). */
  setVector(text: string, vector: readonly number[]): void {
    if (vector.length !== this.dimensions) {
      throw new Error(
        `FakeEmbedder: vector has ${vector.length} dimensions, expected ${this.dimensions}`,
      );
    }
    this.#pinned.set(text, normalise([...vector]));
  }

  /** Makes later calls fail with `embedder_failed` caused by `error`; undefined heals. */
  failWith(error: Error | undefined): void {
    this.#failure = error;
  }

  async embedDocuments(texts: readonly string[]): Promise<number[][]> {
    this.calls.push({ method: "documents", texts: [...texts] });
    this.#check();
    return texts.map((t) => this.#embed(t));
  }

  async embedQuery(text: string): Promise<number[]> {
    this.calls.push({ method: "query", texts: [text] });
    this.#check();
    return this.#embed(text);
  }

  #check(): void {
    if (this.#failure !== undefined) {
      throw new AgentServicesError("embedder_failed", "failed to generate embedding", {
        cause: this.#failure,
      });
    }
  }

  #embed(text: string): number[] {
    const pinned = this.#pinned.get(text);
    if (pinned) return [...pinned];
    const vector: number[] = new Array<number>(this.dimensions).fill(0);
    for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      const bucket = fnv1a(word) % this.dimensions;
      vector[bucket] = (vector[bucket] ?? 0) + 1;
    }
    // An empty text still gets a unit vector so similarity stays defined.
    if (!vector.some((x) => x !== 0)) vector[0] = 1;
    return normalise(vector);
  }
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

function normalise(vector: number[]): number[] {
  let sum = 0;
  for (const x of vector) sum += x * x;
  const n = Math.sqrt(sum);
  return n === 0 ? vector : vector.map((x) => x / n);
}
