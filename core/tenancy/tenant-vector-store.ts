import type {
  Metadata,
  NewRecord,
  ScanPage,
  StoredRecord,
  VectorRecord,
  VectorSpace,
  VectorStore,
} from "../ports/vector-store.js";
import { tenantOf, withTenant } from "./tenant-metadata.js";

/**
 * One tenant's view of the shared store (issue 23): what the tenant's `MemoryService` writes
 * carries the tenant's name ({@link withTenant}), and what it reads by id or scans is only the
 * tenant's. Writes by id (metadata updates, deletes) pass through: the service takes those ids
 * from its own engine, which only ever holds the tenant's memories. Closing the view leaves the
 * shared store open (its owner closes it), and the view keeps no snapshot mark (a
 * `TenantSpace` snapshots every tenant at once).
 *
 * @example
 * const store = new TenantVectorStore(shared, "acme");
 * const service = new MemoryService({ store, embedder, clock });
 */
export class TenantVectorStore implements VectorStore {
  readonly #inner: VectorStore;
  readonly #tenant: string;

  /** The shared store's `insertNew`, the records carrying the tenant's name (absent without it). */
  readonly insertNew?: (items: readonly NewRecord[]) => Promise<ReadonlySet<string>>;

  constructor(inner: VectorStore, tenant: string) {
    this.#inner = inner;
    this.#tenant = tenant;
    const insertNew = inner.insertNew?.bind(inner);
    if (insertNew !== undefined) {
      // A match names no tenant: a like in another tenant only sends the caller to the lock.
      this.insertNew = (items) =>
        insertNew(items.map((item) => ({ ...item, record: withTenant(item.record, tenant) })));
    }
  }

  /** The tenant this view is of. */
  get tenant(): string {
    return this.#tenant;
  }

  bind(space: VectorSpace, options?: { readonly replace?: boolean }): Promise<void> {
    return this.#inner.bind(space, options);
  }

  upsert(records: readonly VectorRecord[]): Promise<void> {
    return this.#inner.upsert(records.map((record) => withTenant(record, this.#tenant)));
  }

  async get(ids: readonly string[]): Promise<StoredRecord[]> {
    return (await this.#inner.get(ids)).filter((r) => tenantOf(r.metadata) === this.#tenant);
  }

  updateMetadata(updates: readonly { id: string; metadata: Metadata }[]): Promise<void> {
    return this.#inner.updateMetadata(updates);
  }

  delete(ids: readonly string[]): Promise<number> {
    return this.#inner.delete(ids);
  }

  /** The shared store's pages with the other tenants' records left out (a page may be empty). */
  async scan(cursor: string | undefined, limit: number): Promise<ScanPage> {
    const page = await this.#inner.scan(cursor, limit);
    return {
      records: page.records.filter((r) => tenantOf(r.metadata) === this.#tenant),
      next: page.next,
    };
  }

  /** The shared store's count: an upper bound of the tenant's (used for load progress only). */
  count(): Promise<number> {
    return this.#inner.count();
  }

  ping(): Promise<void> {
    return this.#inner.ping();
  }

  /** Nothing to release: the shared store belongs to whoever opened it. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * Of `ids`, those another tenant's records hold in the shared store (issue 23): an import line
 * carrying one gets a new id. A replica asks the store, as it may never have started the tenant
 * another replica wrote them for.
 *
 * @example
 * await heldByOtherTenants(shared, "acme", [id]); // Set { id } when globex holds it
 */
export async function heldByOtherTenants(
  store: VectorStore,
  tenant: string,
  ids: readonly string[],
): Promise<ReadonlySet<string>> {
  const records = ids.length === 0 ? [] : await store.get(ids);
  return new Set(records.filter((r) => tenantOf(r.metadata) !== tenant).map((r) => r.id));
}
