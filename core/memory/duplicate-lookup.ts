import type { StoredRecord, VectorStore } from "../ports/vector-store.js";
import { normaliseContent } from "./content-key.js";
import type { DuplicateKey } from "./memory-filters.js";
import { memoryIsLive } from "./memory-liveness.js";
import type { Memory } from "./types.js";

/**
 * Records read per duplicate lookup. They share the content hash, so beyond the one live
 * duplicate they are the same text stored under other types, scopes or projects, or expired
 * copies the sweep has not deleted yet: a handful in practice.
 */
export const DUPLICATE_LOOKUP_LIMIT = 100;

/** What a duplicate lookup compares: the duplicate key plus the content itself. */
export interface DuplicateQuery extends DuplicateKey {
  readonly content: string;
  /** The instant liveness is judged at. */
  readonly nowMs: number;
}

/**
 * The id of the live memory that `remember` would duplicate (oldest first when a race between
 * processes left several), or `undefined`.
 *
 * The store is asked only for `content_hash = hash`: one selective equality, which Chroma answers
 * from its metadata index, whereas adding the type, scope, project and expiry clauses made it
 * intersect clauses matching a large share of the collection. The rest of the key, liveness and
 * the normalised content (so a hash collision cannot merge memories) are checked here.
 *
 * @example
 * const id = await findDuplicate(store, { ...key, content, nowMs }, decodeOrWarn);
 */
export async function findDuplicate(
  store: VectorStore,
  query: DuplicateQuery,
  decode: (record: StoredRecord) => Memory | undefined,
): Promise<string | undefined> {
  const records = await store.find(
    { field: "content_hash", op: "eq", value: query.hash },
    DUPLICATE_LOOKUP_LIMIT,
  );
  const normalised = normaliseContent(query.content);
  const same = records
    .filter((r) => normaliseContent(r.document) === normalised)
    .map(decode)
    .filter(
      (m): m is Memory =>
        m !== undefined &&
        m.type === query.type &&
        m.scope === query.scope &&
        m.project === query.project &&
        memoryIsLive(m, query.nowMs),
    )
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  return same[0]?.id;
}
