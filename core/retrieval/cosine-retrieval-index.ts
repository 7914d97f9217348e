import type {
  IndexedDocument,
  RetrievalHit,
  RetrievalIndex,
  RetrievalQuery,
} from "./retrieval-index.js";
import { TopK } from "./top-k.js";

/**
 * An exact {@link RetrievalIndex} by cosine similarity alone: every accepted document is scored
 * against the query vector (vectors are normalised on the way in, so a score is one dot product).
 * `relevance` is the cosine similarity clamped to [0, 1]; the text is not used.
 *
 * Vectors live in one growing `Float32Array` (a slot per document, freed slots reused), so 100,000
 * documents of 100 dimensions take 40 MB and a query is one pass over contiguous memory. It is the
 * brute-force reference the hybrid index is checked against, and a choice for embedders whose
 * vectors are semantic enough on their own.
 *
 * @example
 * const index = new CosineRetrievalIndex();
 * index.add({ id: "a", text: "deploys run on Fridays", vector: [1, 0] });
 * index.query({ text: "deploy", vector: [1, 0], topK: 1 }); // [{ id: "a", relevance: 1, similarity: 1 }]
 */
export class CosineRetrievalIndex implements RetrievalIndex {
  #dimensions: number | undefined;
  #vectors = new Float32Array(0);
  #ids: (string | undefined)[] = [];
  readonly #slots = new Map<string, number>();
  readonly #groups = new Map<string, readonly string[]>();
  readonly #free: number[] = [];

  get size(): number {
    return this.#slots.size;
  }

  add(document: IndexedDocument): void {
    const dims = (this.#dimensions ??= document.vector.length);
    if (document.vector.length !== dims) {
      throw new Error(
        `CosineRetrievalIndex: document ${document.id} has ${document.vector.length} dimensions, expected ${dims}`,
      );
    }
    let slot = this.#slots.get(document.id);
    if (slot === undefined) {
      slot = this.#free.pop() ?? this.#ids.length;
      if (slot === this.#ids.length) this.#ids.push(undefined);
      this.#ensureCapacity(slot + 1);
      this.#slots.set(document.id, slot);
      this.#ids[slot] = document.id;
    }
    this.#groups.set(document.id, document.groups ?? []);
    const norm = Math.hypot(...document.vector) || 1;
    const offset = slot * dims;
    for (let i = 0; i < dims; i++) this.#vectors[offset + i] = (document.vector[i] ?? 0) / norm;
  }

  vectorOf(id: string): number[] | undefined {
    const slot = this.#slots.get(id);
    const dims = this.#dimensions;
    if (slot === undefined || dims === undefined) return undefined;
    return Array.from(this.#vectors.subarray(slot * dims, (slot + 1) * dims));
  }

  remove(id: string): boolean {
    const slot = this.#slots.get(id);
    if (slot === undefined) return false;
    this.#slots.delete(id);
    this.#groups.delete(id);
    this.#ids[slot] = undefined;
    this.#free.push(slot);
    return true;
  }

  query(query: RetrievalQuery): RetrievalHit[] {
    const dims = this.#dimensions;
    if (dims === undefined || query.topK <= 0) return [];
    const norm = Math.hypot(...query.vector) || 1;
    const q = Float32Array.from(query.vector, (x) => x / norm);
    const vectors = this.#vectors;
    const ids = this.#ids;
    const best = new TopK(query.topK);
    const candidates =
      query.candidates === undefined
        ? undefined
        : new Set(query.candidates.flatMap((group) => [...group]));
    for (let slot = 0; slot < ids.length; slot++) {
      const id = ids[slot];
      if (id === undefined || (candidates !== undefined && !candidates.has(id))) continue;
      const groups = query.groups;
      if (groups !== undefined && !(this.#groups.get(id) ?? []).some((g) => groups.includes(g))) {
        continue;
      }
      if (query.accept !== undefined && !query.accept(id)) continue;
      let dot = 0;
      const offset = slot * dims;
      for (let i = 0; i < dims; i++) dot += (q[i] as number) * (vectors[offset + i] as number);
      best.offer({ slot, id, score: dot });
    }
    return best.sorted().map(({ score, id }) => ({
      id,
      relevance: Math.min(1, Math.max(0, score)),
      similarity: score,
    }));
  }

  #ensureCapacity(slots: number): void {
    const dims = this.#dimensions ?? 0;
    if (this.#vectors.length >= slots * dims) return;
    const grown = new Float32Array(Math.max(slots, Math.ceil(this.#ids.length * 1.5), 64) * dims);
    grown.set(this.#vectors);
    this.#vectors = grown;
  }
}
