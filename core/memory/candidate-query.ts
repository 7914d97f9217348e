import type { Metadata, StoredRecord, VectorMatch, VectorStore } from "../ports/vector-store.js";
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
 * How many times `topK` hits a query with a project asks for without any filter, so that enough
 * of them belong to the project (or are permanent) after the others are dropped in process.
 * Measured against Chroma at 10,000 memories shaped like the load bench's (20 projects, 20%
 * permanent: ~22% of a page survives): an 80-hit page left at least 10 survivors in 90% of
 * queries (the 10th percentile was 13), a 40-hit page only in half of them.
 */
export const PROJECT_OVERFETCH_FACTOR = 8;

/**
 * The largest unfiltered page a query with a project asks for. An unfiltered page costs ~0.1 ms
 * more per hit (Chroma reads and sends each hit's document and metadata): at 10,000 memories 80
 * hits took 13 ms, 250 hits 30 ms, as long as the project-filtered query (23-32 ms). So for a
 * `topK` above 31 the filtered query is made directly.
 */
export const MAX_UNFILTERED_PAGE = 250;

/**
 * How many hits the unfiltered first query of a project-filtered recall or search asks for, or
 * `undefined` when the filtered query is cheaper (see {@link MAX_UNFILTERED_PAGE}).
 *
 * @example
 * unfilteredPageSize(10); // 80
 * unfilteredPageSize(50); // undefined: recall's default candidate count uses the filtered query
 */
export function unfilteredPageSize(topK: number): number | undefined {
  const size = Math.max(topK + overFetch(topK), Math.ceil(topK * PROJECT_OVERFETCH_FACTOR));
  return size <= MAX_UNFILTERED_PAGE ? size : undefined;
}

/**
 * Whether a raw store record passes the project clause of recall and search, judged exactly as
 * the store filter {@link projectFilter} would: its `project` equals `project`, or its `scope` is
 * `permanent` (strict equality, so a missing or non-string field never matches). `""` admits
 * every record.
 *
 * @example
 * recordInProject({ project: "", scope: "permanent" }, "billing"); // true
 */
export function recordInProject(metadata: Metadata, project: string): boolean {
  return project === "" || metadata["project"] === project || metadata["scope"] === "permanent";
}

/**
 * The `topK` most similar live candidates (with a project: that project's memories and
 * permanent ones), most similar first.
 *
 * Why no metadata filter in the first query: with a `where` filter Chroma scores the matching
 * records by brute force instead of walking its HNSW index. At 10,000 memories a top-10 query
 * costs ~5 ms unfiltered, ~18 ms with the project clause and ~30 ms with the expiry range (53 ms
 * at top-50). So the store is first asked for an unfiltered page: `topK + overFetch(topK)` hits
 * without a project, {@link unfilteredPageSize} hits with one. Records outside the project and
 * expired ones are dropped here with the same rules as the filters ({@link recordInProject},
 * {@link recordIsLive}).
 *
 * The answer is the filtered query's: the store ranks by similarity with a fixed tie order, so
 * the filtered top-K is the unfiltered ranking restricted to matching records, cut after K. The
 * page is a prefix of that ranking; once it holds K matching records, every matching record
 * ranked above the K-th is in the page, so the first K survivors are exactly the filtered top-K.
 * A short page is the whole ranking. (With Chroma: up to the approximation its HNSW index makes
 * in every unfiltered query, and to the order of exact ties.) Only when a full page leaves fewer
 * than `topK` survivors (a rare project, or many expired memories) does the filtered path run:
 * the project-filtered page with expired hits dropped here, and last the query with the expiry
 * predicate.
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
  const keep = (match: VectorMatch) =>
    recordInProject(match.metadata, project) && isLive(match, nowMs);
  const unfiltered = project === "" ? topK + overFetch(topK) : unfilteredPageSize(topK);
  if (unfiltered !== undefined) {
    const page = await store.query({ vector, topK: unfiltered });
    const kept = page.filter(keep);
    // A short page holds every record there is, so nothing that matches can be missing from it.
    if (kept.length >= topK || page.length < unfiltered) return kept.slice(0, topK);
    if (project === "") return store.query({ vector, topK, filter: candidateFilter(nowMs, "") });
  }
  const pageSize = topK + overFetch(topK);
  const filter = projectFilter(project);
  const page = await store.query({ vector, topK: pageSize, ...(filter ? { filter } : {}) });
  const live = page.filter((match) => isLive(match, nowMs));
  if (live.length >= topK || page.length < pageSize) return live.slice(0, topK);
  return store.query({ vector, topK, filter: candidateFilter(nowMs, project) });
}
