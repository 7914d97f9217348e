import type { EngineImage } from "../memory/engine/engine-image.js";
import type { VectorSpace } from "./vector-store.js";

/**
 * What a replica saved of its engines: every tenant's engine image, the feed seq they reflect
 * (every change up to it is in them; some later ones may be too) and the feed's stamp of the
 * change at that seq ({@link ChangeFeed.stamp}), which names the database and its history.
 */
export interface ReplicaSnapshot {
  readonly seq: number;
  readonly stamp: string;
  /** The vector space the engines' vectors are in (the embedder's). */
  readonly space: VectorSpace;
  readonly tenants: readonly { readonly tenant: string; readonly image: EngineImage }[];
}

/**
 * A saved snapshot as first read: what decides whether it can be used, and its engines read
 * only once it is (they are the bulk of it: ~1 GB at 1,000,000 memories).
 */
export interface SavedReplicaSnapshot extends Omit<ReplicaSnapshot, "tenants"> {
  /** Reads the engines; rejects when that part of the file is torn or corrupt. */
  tenants(): Promise<ReplicaSnapshot["tenants"]>;
}

/**
 * Where a replica keeps a snapshot of its engines between runs, so a restart loads the built
 * engines and catches up from the change feed from the snapshot's seq instead of reading and
 * indexing the whole shared store (docs/operations.md, "Replica snapshots").
 *
 * A snapshot is a cache, never the system of record, and it stays valid as long as the feed
 * still holds the change at its seq with the same stamp: the replica then applies every change
 * after it, which converges whatever the snapshot held beyond its seq. Anything else (no file,
 * a torn or corrupt one, another format, schema, embedder or database, a feed pruned past the
 * seq) means a full load from the store.
 *
 * @example
 * const snapshots = new FileReplicaSnapshots(dir, { storeId, warn });
 * const tenants = new TenantSpace({ store, space, create, feed, replicaSnapshots: snapshots, newId });
 */
export interface ReplicaSnapshots {
  /**
   * The saved snapshot's header, or `undefined` when there is none or it cannot be read
   * (reported through the implementation's own warnings).
   */
  load(): Promise<SavedReplicaSnapshot | undefined>;
  /** Replaces the saved snapshot; durable and atomic once it resolves. */
  save(snapshot: ReplicaSnapshot): Promise<void>;
}
