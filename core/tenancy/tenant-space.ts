import type { MemoryService } from "../memory/memory-service.js";
import type { EngineSnapshots } from "../ports/engine-snapshots.js";
import type { ChangeFeed } from "../ports/replication.js";
import type { ReplicaSnapshots } from "../ports/replica-snapshots.js";
import type { VectorRecord, VectorSpace, VectorStore } from "../ports/vector-store.js";
import { LOAD_PAGE_SIZE, type LoadProgress, type LoadSource } from "../storage/engine-load.js";
import { takeSnapshot, tenantsChangedSince, usableSnapshot } from "./replica-snapshot.js";
import { tenantChangeFeed, sharedListen, type SharedListen } from "./tenant-change-feed.js";
import { DEFAULT_TENANT, tenantOf, withTenant } from "./tenant-metadata.js";
import { heldByOtherTenants, TenantVectorStore } from "./tenant-vector-store.js";

/** What one tenant's service is built from (its own view of the shared store and feed). */
export interface TenantParts {
  readonly tenant: string;
  readonly store: VectorStore;
  /** Replica mode: the tenant's view of the shared feed. */
  readonly feed?: ChangeFeed | undefined;
  /** Of some ids, those another tenant's memory holds (`MemoryServiceDeps.idsTakenElsewhere`). */
  readonly idsTakenElsewhere: (ids: readonly string[]) => Promise<ReadonlySet<string>>;
}

/** What a {@link TenantSpace} works with. */
export interface TenantSpaceDeps {
  /** The one store every tenant's memories live in. */
  readonly store: VectorStore;
  /** The vector space the store is bound to (the embedder's). */
  readonly space: VectorSpace;
  /** Builds a tenant's service (not initialised) on its parts. */
  readonly create: (parts: TenantParts) => MemoryService;
  /** Replica mode: the shared store's change feed. */
  readonly feed?: ChangeFeed | undefined;
  /** Owner mode: where one snapshot of every tenant's engine is kept between clean runs. */
  readonly snapshots?: EngineSnapshots | undefined;
  /** Replica mode: where the engines are saved at shutdown and loaded from at start. */
  readonly replicaSnapshots?: ReplicaSnapshots | undefined;
  /** Told why a replica's snapshot was not used or not saved. */
  readonly warn?: ((message: string) => void) | undefined;
  readonly newId: () => string;
}

/**
 * Every tenant's memories in one store (issue 23): one `MemoryService` per tenant, each with its
 * own engine (so its own BM25 statistics) over its own view of the store
 * ({@link TenantVectorStore}) and, in replica mode, of the change feed. `init()` reads the store
 * (or the snapshot) ONCE and hands each tenant its records; a tenant first seen later gets an
 * empty service (owner mode: nothing else writes the store) or, in replica mode, loads its records
 * from the shared store. The default tenant always exists: a single-user store is exactly what it
 * was (same records, same snapshot file).
 *
 * @example
 * const tenants = new TenantSpace({ store, space, create, newId });
 * await tenants.init();
 * const acme = await tenants.service("acme");
 */
export class TenantSpace {
  readonly #deps: TenantSpaceDeps;
  readonly #services = new Map<string, MemoryService>();
  readonly #starting = new Map<string, Promise<MemoryService>>();
  readonly #listen: SharedListen | undefined;
  #loadedFrom: LoadSource | undefined;
  #initialised = false;

  constructor(deps: TenantSpaceDeps) {
    this.#deps = deps;
    this.#listen = deps.feed === undefined ? undefined : sharedListen(deps.feed);
  }

  /**
   * Binds the store, reads it once (from the snapshot when the store still carries its mark; a
   * replica from its `replicaSnapshots` when usable, then follows the feed from its seq),
   * loads each tenant's records into its service and starts them; then clears the store's mark
   * before anything is written. Resolves with the number of memories loaded.
   */
  async init(onProgress?: (progress: LoadProgress) => void): Promise<number> {
    const { store, feed, snapshots } = this.#deps;
    await store.bind(this.#deps.space);
    const head = feed === undefined ? 0 : await feed.head();
    const owner = feed === undefined ? snapshots : undefined;
    const mark = owner === undefined ? undefined : await store.readSnapshotMark?.();
    const snapshot = mark === undefined ? undefined : await owner?.load();
    let loaded = 0;
    const take = (records: readonly VectorRecord[], total: number) => {
      const byTenant = new Map<string, VectorRecord[]>();
      for (const record of records) {
        const tenant = tenantOf(record.metadata);
        const list = byTenant.get(tenant);
        if (list === undefined) byTenant.set(tenant, [record]);
        else list.push(record);
      }
      for (const [tenant, list] of byTenant) this.#build(tenant).loadRecords(list);
      loaded += records.length;
      onProgress?.({ loaded, total });
    };
    this.#build(DEFAULT_TENANT);
    const restored = await this.#restoreReplica(head);
    if (restored !== undefined) {
      onProgress?.({ loaded: this.loadedMemories, total: this.loadedMemories });
    } else if (snapshot !== undefined && snapshot.mark === mark) {
      for (const page of snapshot.pages(LOAD_PAGE_SIZE)) take(page, snapshot.count);
      this.#loadedFrom = "snapshot";
    } else {
      const total = await store.count();
      let cursor: string | undefined;
      do {
        const page = await store.scan(cursor, LOAD_PAGE_SIZE);
        take(page.records, total);
        cursor = page.next;
      } while (cursor !== undefined);
      this.#loadedFrom = "store";
    }
    const source = this.#loadedFrom ?? "store";
    const from = restored?.seq ?? head;
    for (const service of this.#services.values()) await service.startLoaded(source, from);
    if (mark !== undefined) await store.writeSnapshotMark?.(undefined);
    this.#initialised = true;
    // Tenants first written after the snapshot load their records from the store.
    for (const tenant of restored?.newTenants ?? []) await this.service(tenant);
    return this.loadedMemories;
  }

  /**
   * Replica mode: every tenant's engine from the saved snapshot if usable (`usableSnapshot`); its
   * seq and the tenants it lacks that changed since, or `undefined` (none restored): a full load.
   */
  async #restoreReplica(head: number): Promise<{ seq: number; newTenants: string[] } | undefined> {
    const { feed, replicaSnapshots, space, warn } = this.#deps;
    if (feed === undefined || replicaSnapshots === undefined) return undefined;
    const saved = await usableSnapshot({ feed, snapshots: replicaSnapshots, space, warn }, head);
    if (saved === undefined) return undefined;
    try {
      for (const { tenant, image } of saved.tenants) {
        if (!this.#build(tenant).restoreImage(image)) {
          throw new Error("its index was built by another tokenizer");
        }
      }
    } catch (error) {
      warn?.(
        `engine snapshot not used (${error instanceof Error ? error.message : String(error)}): loading every memory from the store`,
      );
      this.#services.clear();
      this.#build(DEFAULT_TENANT);
      return undefined;
    }
    this.#loadedFrom = "snapshot";
    const changed = await tenantsChangedSince(feed, saved.seq);
    return { seq: saved.seq, newTenants: [...changed].filter((t) => !this.#services.has(t)) };
  }

  /** Where `init()` loaded from (`undefined` before). */
  get loadedFrom(): LoadSource | undefined {
    return this.#loadedFrom;
  }

  /**
   * The tenant's service, started (created on first use, see the class comment).
   *
   * @example
   * const { total_memories } = await (await tenants.service("acme")).stats();
   */
  service(tenant: string): Promise<MemoryService> {
    const ready = this.#initialised ? this.#services.get(tenant) : undefined;
    if (ready !== undefined && !this.#starting.has(tenant)) return Promise.resolve(ready);
    if (!this.#initialised) throw new Error("TenantSpace: init() must resolve first");
    const pending = this.#starting.get(tenant);
    if (pending !== undefined) return pending;
    const service = this.#build(tenant);
    const started = (
      service.replica ? service.init() : service.startLoaded(this.#loadedFrom ?? "store", 0)
    ).then(
      () => {
        this.#starting.delete(tenant);
        return service;
      },
      (error: unknown) => {
        this.#starting.delete(tenant);
        this.#services.delete(tenant);
        throw error;
      },
    );
    this.#starting.set(tenant, started);
    return started;
  }

  /** The tenants this process holds a service for, sorted by name. */
  get tenants(): string[] {
    return [...this.#services.keys()].filter((t) => !this.#starting.has(t)).sort();
  }

  /**
   * Live memories per tenant, for tenants holding at least one, sorted by name. A replica first
   * starts the tenants it saw on the shared feed (written by other replicas) but never served.
   *
   * @example
   * await tenants.counts(); // [{ tenant: "acme", memories: 12 }, { tenant: "default", memories: 3 }]
   */
  async counts(): Promise<{ tenant: string; memories: number }[]> {
    for (const t of this.#listen?.seen ?? []) if (!this.#services.has(t)) await this.service(t);
    const out: { tenant: string; memories: number }[] = [];
    for (const tenant of this.tenants) {
      const memories = (await this.#services.get(tenant)?.stats())?.total_memories ?? 0;
      if (memories > 0) out.push({ tenant, memories });
    }
    return out;
  }

  /** Deletes every tenant's expired memories; resolves with how many. */
  async sweepExpired(): Promise<number> {
    let deleted = 0;
    for (const tenant of this.tenants) {
      deleted += (await this.#services.get(tenant)?.sweepExpired()) ?? 0;
    }
    return deleted;
  }

  /** Memories held by every tenant's engine. */
  get loadedMemories(): number {
    let total = 0;
    for (const service of this.#services.values()) total += service.loadedMemories;
    return total;
  }

  /** Every started service (for shutdown and health). */
  get services(): MemoryService[] {
    return this.tenants.flatMap((t) => this.#services.get(t) ?? []);
  }

  /**
   * At shutdown, after the last write: refuses new writes, lands every tenant's pending access
   * updates and (owner mode with snapshots) saves one snapshot of every tenant's engine, then
   * marks the store with it. Resolves with whether a snapshot was saved.
   */
  async saveSnapshot(): Promise<boolean> {
    const { store, snapshots, feed } = this.#deps;
    const parts: { tenant: string; records: Iterable<VectorRecord> }[] = [];
    let complete = true;
    for (const tenant of this.tenants) {
      const records = await this.#services.get(tenant)?.quiesce();
      if (records === undefined) complete = false;
      else parts.push({ tenant, records });
    }
    if (complete && feed !== undefined && this.#deps.replicaSnapshots !== undefined) {
      const services = this.tenants.map((tenant) => ({
        tenant,
        service: this.#services.get(tenant) as MemoryService,
      }));
      const snapshot = await takeSnapshot(services, feed, this.#deps.space);
      if (snapshot === undefined) return false;
      await this.#deps.replicaSnapshots.save(snapshot);
      return true;
    }
    if (!complete || snapshots === undefined || feed !== undefined) return false;
    if (store.writeSnapshotMark === undefined || store.readSnapshotMark === undefined) return false;
    const mark = this.#deps.newId();
    await snapshots.save(mark, tagged(parts));
    await store.writeSnapshotMark(mark);
    return true;
  }

  /** Lands every tenant's pending access updates. */
  async flushAccessUpdates(): Promise<void> {
    for (const service of this.#services.values()) await service.flushAccessUpdates();
  }

  /** Replica mode: stops every tenant's follower after a last round (`ChangeFollower.finish`). */
  async stopFollowers(): Promise<void> {
    for (const service of this.#services.values()) await service.follower?.finish();
  }

  /** Of `ids`, those another tenant holds (a replica may not have started it: the store knows). */
  #heldElsewhere(tenant: string, ids: readonly string[]): Promise<ReadonlySet<string>> {
    if (this.#deps.feed !== undefined) return heldByOtherTenants(this.#deps.store, tenant, ids);
    const others = [...this.#services].filter(([other]) => other !== tenant);
    return Promise.resolve(new Set(ids.filter((id) => others.some(([, s]) => s.holds(id)))));
  }

  #build(tenant: string): MemoryService {
    const existing = this.#services.get(tenant);
    if (existing !== undefined) return existing;
    const { feed } = this.#deps;
    const service = this.#deps.create({
      tenant,
      store: new TenantVectorStore(this.#deps.store, tenant),
      feed:
        feed === undefined || this.#listen === undefined
          ? undefined
          : tenantChangeFeed(feed, tenant, this.#listen),
      idsTakenElsewhere: (ids) => this.#heldElsewhere(tenant, ids),
    });
    this.#services.set(tenant, service);
    return service;
  }
}

function* tagged(
  parts: readonly { tenant: string; records: Iterable<VectorRecord> }[],
): Generator<VectorRecord> {
  for (const { tenant, records } of parts) {
    for (const record of records) yield withTenant(record, tenant);
  }
}
