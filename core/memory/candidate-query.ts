import type { StoredRecord, VectorMatch, VectorStore } from "../ports/vector-store.js";
import { candidateFilter, projectFilter } from "./memory-filters.js";
import { recordIsLive } from "./memory-liveness.js";

/** A recall or search candidate query. */
export interface CandidateQuery {
  readonly vector: readonly number[];
  /** How many live candidates are wanted at most. */
  readonly topK: number;
  /** The requested project; `""` means none. */
  readonly project: string;
  /** The instant liveness is judged at. */
  readonly nowMs: number;
  /**
   * Whether a hit is live at `nowMs`; default {@link recordIsLive}, the store filter's rule. The
   * service also counts accesses it has not written yet (they extend session memories).
   */
  readonly isLive?: (record: StoredRecord, nowMs: number) => boolean;
}

/**
 * Extra hits asked for beyond `topK`, to absorb expired memories the sweep has not deleted yet
 * without a second query: at least 8, or a quarter of `topK`.
 *
 * @example
 * overFetch(10); // 8
 * overFetch(50); // 13
 */
export function overFetch(topK: number): number {
  return Math.max(8, Math.ceil(topK / 4));
}

/**
 * The `topK` most similar live candidates (with a project: that project's memories and
 * permanent ones), most similar first.
 *
 * Why not one query with the expiry predicate: a range filter on `expires_at_ms` matches nearly
 * every record, and Chroma then scores all of them by brute force instead of walking its HNSW
 * index (53 ms instead of 6.7 ms at 10,000 memories). So the store is asked for
 * `topK + overFetch(topK)` hits with only the project clause, expired ones are dropped here with
 * the same rule as the filter ({@link recordIsLive}), and only when expired hits pushed live ones
 * out of a full page (more expired memories than the margin, which the periodic sweep keeps
 * rare) does a second query with the expiry predicate give the exact answer.
 *
 * @example
 * const matches = await queryLiveCandidates(store, { vector, topK: 50, project: "", nowMs });
 */
export async function queryLiveCandidates(
  store: VectorStore,
  query: CandidateQuery,
): Promise<VectorMatch[]> {
  const { vector, topK, project, nowMs } = query;
  const isLive = query.isLive ?? ((record: StoredRecord) => recordIsLive(record.metadata, nowMs));
  const pageSize = topK + overFetch(topK);
  const filter = projectFilter(project);
  const page = await store.query({ vector, topK: pageSize, ...(filter ? { filter } : {}) });
  const live = page.filter((match) => isLive(match, nowMs));
  // A short page holds every candidate there is, so nothing live can be missing from it.
  if (live.length >= topK || page.length < pageSize) return live.slice(0, topK);
  return store.query({ vector, topK, filter: candidateFilter(nowMs, project) });
}
