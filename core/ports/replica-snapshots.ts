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
  /**
   * Reads the engines; rejects when that part of the file is torn or corrupt. With `place`, each
   * typed array is read into the array `place` gives for it, when it gives one.
   */
  tenants(place?: SnapshotArrayPlacer): Promise<ReplicaSnapshot["tenants"]>;
}

/**
 * Where a snapshot reader puts one typed array of the tenants it reads: given the array's path
 * in `ReplicaSnapshot["tenants"]` (e.g. `["0", "image", "index", "vectors", "rows"]`), its
 * type's name and its length, an empty array of that type and length to read it into (e.g. a
 * view of memory its user takes over without a copy), or `undefined` for a new array. The
 * reader checks the type and length, and reads the arrays in the order of the tree.
 *
 * @example
 * const tenants = await saved.tenants((path, type, length) =>
 *   path.at(-1) === "rows" && type === "Float32Array" ? new Float32Array(length) : undefined,
 * );
 */
export type SnapshotArrayPlacer = (
  path: readonly string[],
  type: string,
  length: number,
) => ArrayBufferView | undefined;

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
