import type { LocalWriteClock } from "../memory/engine/local-writes.js";
import type { MemoryReadModel } from "../memory/engine/read-model.js";
import type { ChangeFeed } from "../ports/replication.js";
import type { VectorRecord, VectorStore } from "../ports/vector-store.js";

/** Changes read per round trip to the feed. */
export const FOLLOW_PAGE_SIZE = 1000;

/** What a replica's follower reports, for logs and readiness. */
export type FollowerEvent =
  | { readonly kind: "down"; readonly error: unknown }
  | { readonly kind: "up"; readonly applied: number }
  | { readonly kind: "resync"; readonly reason: string; readonly records: number };

/** What a {@link ChangeFollower} works with. */
export interface ChangeFollowerDeps {
  readonly feed: ChangeFeed;
  /** Read whole when the feed no longer holds the changes a replica missed. */
  readonly store: VectorStore;
  /** The engine the changes are applied to (not the wrapper the use cases write through). */
  readonly engine: MemoryReadModel;
  /** This process's writes to the engine (see {@link LocalWriteClock}). */
  readonly localWrites: LocalWriteClock;
  /** Told about a record that cannot be read (it is dropped from the engine). */
  readonly skip: (record: VectorRecord, error: unknown) => void;
  readonly onEvent?: (event: FollowerEvent) => void;
  /**
   * Awaited before the next attempt after the feed failed. Absent: no retry of its own (the next
   * notification, reconnect or `catchUp` call tries again).
   */
  readonly retryDelay?: (attempt: number) => Promise<void>;
  readonly pageSize?: number;
}
