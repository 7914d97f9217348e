import type { DeleteMatchingResult } from "./use-cases/delete-matching.js";
import type { ListPage } from "./engine/list-page.js";
import type { ExportedMemory } from "./use-cases/export-memories.js";
import type { ImportResult } from "./use-cases/import-memories.js";
import type { NdjsonLine } from "./model/ndjson-lines.js";
import type { UpdateResult } from "./use-cases/update-memory.js";

import type {
  DeleteMatchingInput,
  ListInput,
  Memory,
  MemoryStats,
  RecallInput,
  RecallResult,
  RememberBatchInput,
  RememberBatchResult,
  RememberInput,
  RememberResult,
  SearchInput,
  SearchResult,
  StatsInput,
  UpdateInput,
} from "./model/types.js";

/**
 * The memory use cases. Every method validates its input and throws
 * `AgentServicesError("invalid_input", "<field>: expected …")` naming the field.
 */
export interface MemoryApi {
  remember(input: RememberInput): Promise<RememberResult>;
  /**
   * Remembers up to 1000 memories at once, each as `remember` would (duplicates merged, also
   * between items of the batch). An invalid item fails the whole batch with `invalid_input`
   * naming `memories[i].<field>`, and nothing is stored.
   */
  rememberBatch(input: RememberBatchInput): Promise<RememberBatchResult>;
  recall(input: RecallInput): Promise<RecallResult>;
  search(input: SearchInput): Promise<SearchResult>;
  /** Throws `not_found` for an unknown or expired id, `invalid_input` for a non-UUID. */
  get(id: string): Promise<Memory>;
  /** Throws `not_found` for an unknown or expired id, `invalid_input` for a non-UUID. */
  delete(id: string): Promise<{ deleted: true }>;
  /**
   * Counts of the live memories passing the listing's filters (all without one); `top` adds the
   * most frequent projects and tags. `stats()` answers the seed's shape.
   */
  stats(input?: StatsInput): Promise<MemoryStats>;
  /** One page of the live memories passing the filters, with the cursor of the next page. */
  list(input?: ListInput): Promise<ListPage>;
  /** Changes fields of a memory; `not_found` / `invalid_input` as `get`. */
  update(id: string, input: UpdateInput): Promise<UpdateResult>;
  /** Deletes (or with `dry_run` counts) the live memories passing the filters. */
  deleteMatching(input: DeleteMatchingInput): Promise<DeleteMatchingResult>;
  /** Every live memory, oldest first; with `vectors`, each with its vector and embedder id. */
  exportMemories(options?: { readonly vectors?: boolean }): AsyncIterable<ExportedMemory>;
  /** Stores the memories of NDJSON lines (see `importMemories`). */
  importMemories(lines: AsyncIterable<NdjsonLine> | Iterable<NdjsonLine>): Promise<ImportResult>;
  /** Deletes expired memories; returns how many. Called periodically by the shell. */
  sweepExpired(): Promise<number>;
}
