import type { StoredRecord, VectorFilter, VectorStore } from "../ports/vector-store.js";
import { CoalescingReader } from "./coalescing-reader.js";
import { normaliseContent } from "./content-key.js";
import type { DuplicateKey } from "./memory-filters.js";
import { memoryIsLive } from "./memory-liveness.js";
import type { Memory } from "./types.js";

/**
 * Records read per content hash. They share the hash, so beyond the one live duplicate they are
 * the same text stored under other types, scopes or projects, or expired copies the sweep has
 * not deleted yet: a handful in practice.
 */
export const DUPLICATE_LOOKUP_LIMIT = 100;

/** Most hashes asked for in one store read (an `in` list that long stays a cheap index lookup). */
export const DUPLICATE_LOOKUP_MAX_HASHES = 256;

const HASH_FIELD = "content_hash";

/** What a duplicate lookup compares: the duplicate key plus the content itself. */
export interface DuplicateQuery extends DuplicateKey {
  readonly content: string;
  /** The instant liveness is judged at. */
  readonly nowMs: number;
}

/**
 * Finds the live memory that `remember` would duplicate, with concurrent lookups merged.
 *
 * The store is asked only for `content_hash`: one selective equality, which Chroma answers from
 * its metadata index, whereas adding the type, scope, project and expiry clauses made it
 * intersect clauses matching a large share of the collection. The rest of the key, liveness and
 * the normalised content (so a hash collision cannot merge memories) are checked here.
 *
 * Lookups go through a {@link CoalescingReader}: while one store read is in flight, the hashes
 * asked for meanwhile wait, and the next read asks for all of them at once
 * (`content_hash in [h1, h2, …]`). Under 8 concurrent `remember` calls that is one read per
 * round instead of one per call (~2.4 ms of Chroma's CPU each), and a read still starts only
 * after the lookup was asked for, so it sees every memory stored before.
 *
 * @example
 * const duplicates = new DuplicateLookup(store);
 * const id = await duplicates.find({ ...key, content, nowMs }, decodeOrWarn);
 */
export class DuplicateLookup {
  readonly #byHash: CoalescingReader<string, readonly StoredRecord[]>;

  constructor(store: VectorStore) {
    this.#byHash = new CoalescingReader((hashes) => recordsByHash(store, hashes), {
      maxKeys: DUPLICATE_LOOKUP_MAX_HASHES,
    });
  }

  /**
   * The id of the live memory with the same normalised content, type, scope and project (oldest
   * first when a race between processes left several), or `undefined`. `decode` turns a record
   * into the memory as this process sees it (or `undefined` for a record it cannot read).
   */
  async find(
    query: DuplicateQuery,
    decode: (record: StoredRecord) => Memory | undefined,
  ): Promise<string | undefined> {
    const records = await this.#byHash.read(query.hash);
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
}

/**
 * The records of each hash, in the order of `hashes`, with one store read.
 *
 * The limit is {@link DUPLICATE_LOOKUP_LIMIT} per hash asked for. A hash with many copies could
 * still crowd the others out of a full answer, so an answer that fills the limit is not trusted:
 * each hash is then read on its own with its own limit, exactly as a single lookup would.
 */
async function recordsByHash(
  store: VectorStore,
  hashes: readonly string[],
): Promise<(readonly StoredRecord[])[]> {
  const limit = DUPLICATE_LOOKUP_LIMIT * hashes.length;
  const records = await store.find(hashFilter(hashes), limit);
  if (records.length >= limit && hashes.length > 1) {
    return Promise.all(
      hashes.map((hash) => store.find(hashFilter([hash]), DUPLICATE_LOOKUP_LIMIT)),
    );
  }
  const byHash = new Map<string, StoredRecord[]>(hashes.map((hash) => [hash, []]));
  for (const record of records) {
    const hash = record.metadata[HASH_FIELD];
    if (typeof hash === "string") byHash.get(hash)?.push(record);
  }
  return hashes.map((hash) => byHash.get(hash) ?? []);
}

/** `eq` for one hash (the lookup measured alone), `in` for several. */
function hashFilter(hashes: readonly string[]): VectorFilter {
  const [only] = hashes;
  return hashes.length === 1 && only !== undefined
    ? { field: HASH_FIELD, op: "eq", value: only }
    : { field: HASH_FIELD, op: "in", values: hashes };
}
