/**
 * A replica's restart from a snapshot of its engines (see `ReplicaSnapshots`): whether a saved
 * snapshot may be used, and what to save at shutdown. `TenantSpace` calls these.
 */
import { engineImagePlacer } from "../memory/engine/engine-image.js";
import type { MemoryService } from "../memory/memory-service.js";
import type { ChangeFeed } from "../ports/replication.js";
import type {
  ReplicaSnapshot,
  ReplicaSnapshots,
  SnapshotArrayPlacer,
} from "../ports/replica-snapshots.js";
import type { VectorSpace } from "../ports/vector-store.js";
import { tenantOf } from "./tenant-metadata.js";

/** Changes read per round trip while looking for tenants new since a snapshot. */
const PAGE = 1000;

/** What deciding about a snapshot needs. */
export interface ReplicaSnapshotDeps {
  readonly feed: ChangeFeed;
  readonly snapshots: ReplicaSnapshots;
  readonly space: VectorSpace;
  /** Told why a saved snapshot was not used (the replica then loads the whole store). */
  readonly warn?: ((message: string) => void) | undefined;
}

/**
 * The saved snapshot when it may be used with this store: its vector space is the embedder's,
 * and the feed (at `head`) still holds the change at its seq with the same stamp (so it is this
 * database, with the same history up to that seq, and every later change can be applied).
 * `undefined` otherwise, with the reason told to `warn`.
 *
 * @example
 * const saved = await usableSnapshot({ feed, snapshots, space, warn }, await feed.head());
 */
export async function usableSnapshot(
  deps: ReplicaSnapshotDeps,
  head: number,
): Promise<ReplicaSnapshot | undefined> {
  const { feed, space } = deps;
  if (feed.stamp === undefined) return undefined;
  const saved = await deps.snapshots.load();
  if (saved === undefined) return undefined;
  const refuse = (why: string) => {
    deps.warn?.(`engine snapshot not used (${why}): loading every memory from the store`);
    return undefined;
  };
  if (saved.space.embedderId !== space.embedderId || saved.space.dimensions !== space.dimensions) {
    return refuse(
      `its vectors are ${saved.space.embedderId} (${saved.space.dimensions}), the embedder is ${space.embedderId} (${space.dimensions})`,
    );
  }
  if (saved.seq > head) {
    return refuse(`it reflects change ${saved.seq}, the store's feed is at ${head}`);
  }
  const stamp = await feed.stamp(saved.seq);
  if (stamp === undefined) {
    return refuse(`the store's feed no longer holds change ${saved.seq}`);
  }
  if (stamp !== saved.stamp) {
    return refuse(`change ${saved.seq} is another one: another database or a restored one`);
  }
  try {
    const { seq, space: savedSpace } = saved;
    const tenants = await saved.tenants(tenantImagesPlacer(savedSpace.dimensions));
    return { seq, stamp: saved.stamp, space: savedSpace, tenants };
  } catch (error) {
    return refuse(error instanceof Error ? error.message : String(error));
  }
}

/**
 * {@link engineImagePlacer} for the images of a snapshot's tenants (paths `[i, "image", ...]`):
 * each tenant's vectors read straight into its vector matrix, its postings with spare room.
 *
 * @example
 * const tenants = await saved.tenants(tenantImagesPlacer(saved.space.dimensions));
 */
export function tenantImagesPlacer(dimensions: number): SnapshotArrayPlacer {
  const placers = new Map<string, ReturnType<typeof engineImagePlacer>>();
  return (path, type, length) => {
    const [tenant, image, ...rest] = path;
    if (tenant === undefined || image !== "image") return undefined;
    let place = placers.get(tenant);
    if (place === undefined) placers.set(tenant, (place = engineImagePlacer(dimensions)));
    return place(rest, type, length);
  };
}

/**
 * The tenants with a record changed after `seq` (read from the feed): a tenant that is not in
 * a snapshot may have been created after it.
 */
export async function tenantsChangedSince(feed: ChangeFeed, seq: number): Promise<Set<string>> {
  const tenants = new Set<string>();
  let after = seq;
  for (;;) {
    const changes = await feed.changesSince(after, PAGE);
    for (const change of changes) {
      if (change.record !== undefined) tenants.add(tenantOf(change.record.metadata));
    }
    const last = changes[changes.length - 1];
    if (last === undefined || changes.length < PAGE) return tenants;
    after = last.seq;
  }
}

/**
 * The snapshot of every tenant's engine at shutdown (their followers stopped, their writes
 * refused): the seq is the lowest any follower applied, so a restart applies every change after
 * it. `undefined` when a service keeps no image or the feed cannot stamp that seq (an empty feed).
 */
export async function takeSnapshot(
  services: readonly { readonly tenant: string; readonly service: MemoryService }[],
  feed: ChangeFeed,
  space: VectorSpace,
): Promise<ReplicaSnapshot | undefined> {
  if (feed.stamp === undefined) return undefined;
  let seq = Number.POSITIVE_INFINITY;
  for (const { service } of services) seq = Math.min(seq, service.follower?.applied ?? 0);
  if (!Number.isFinite(seq) || seq <= 0) return undefined;
  const stamp = await feed.stamp(seq);
  if (stamp === undefined) return undefined;
  const tenants = [];
  for (const { tenant, service } of services) {
    const image = service.engineImage();
    if (image === undefined) return undefined;
    tenants.push({ tenant, image });
  }
  return { seq, stamp, space, tenants };
}
