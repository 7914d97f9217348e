/**
 * Turns text into vectors. Documents (what is stored) and queries (what is searched for) are
 * embedded separately because some providers (Cohere) embed them differently.
 *
 * Implementations return L2-normalised vectors of exactly `dimensions` numbers, in input order,
 * and throw `AgentServicesError("embedder_failed", …)` when the provider fails.
 *
 * @example
 * const [vector] = await embedder.embedDocuments(["the deploy runs on Fridays"]);
 */
export interface Embedder {
  /**
   * A stable identifier of the vector space, e.g. `local-hash-v1` or `cohere:embed-v4.0`.
   * Vectors from embedders with different ids are never comparable.
   */
  readonly id: string;
  /** Length of every vector this embedder returns. */
  readonly dimensions: number;
  /** Embeds texts meant to be stored. Returns one vector per text, in order. */
  embedDocuments(texts: readonly string[]): Promise<number[][]>;
  /** Embeds one text meant to search stored documents. */
  embedQuery(text: string): Promise<number[]>;
}
