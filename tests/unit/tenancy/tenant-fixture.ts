import { MemoryService } from "../../../core/memory/index.js";
import type { MemoryServiceOptions } from "../../../core/memory/index.js";
import { TenantMemoryApi, TenantSpace, type Caller } from "../../../core/tenancy/index.js";
import type { EngineSnapshots } from "../../../core/ports/engine-snapshots.js";
import { FakeEmbedder, InMemoryVectorStore, ManualClock } from "../../../core/testing/index.js";

/** The instant tenant tests start at. */
export const T0 = "2026-11-28T10:00:00.000Z";

/**
 * A tenant space over the in-memory fakes, initialised, with a `TenantMemoryApi` whose caller is
 * whatever `as(...)` set last (the shell reads it from the request instead).
 */
export async function tenantFixture(
  options: {
    readonly store?: InMemoryVectorStore;
    readonly memoryQuota?: number;
    readonly memory?: Partial<MemoryServiceOptions>;
    readonly snapshots?: EngineSnapshots;
  } = {},
) {
  const store = options.store ?? new InMemoryVectorStore();
  const embedder = new FakeEmbedder({ dimensions: 8 });
  const clock = new ManualClock(T0);
  let n = 0;
  const newId = () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`;
  const tenants = new TenantSpace({
    store,
    space: { embedderId: embedder.id, dimensions: embedder.dimensions },
    create: (parts) =>
      new MemoryService({
        store: parts.store,
        embedder,
        clock,
        newId: () => globalThis.crypto.randomUUID(),
        idsTakenElsewhere: parts.idsTakenElsewhere,
        ...(options.memory === undefined ? {} : { options: options.memory }),
      }),
    newId,
    snapshots: options.snapshots,
  });
  await tenants.init();
  let caller: Caller = { tenant: "default", readOnly: false };
  const memory = new TenantMemoryApi(tenants, {
    caller: () => caller,
    memoryQuota: options.memoryQuota,
  });
  /** Runs `work` as `tenant` (read-only when told). */
  const as = async <T>(tenant: string, readOnly: boolean, work: () => Promise<T>): Promise<T> => {
    const before = caller;
    caller = { tenant, readOnly };
    try {
      return await work();
    } finally {
      caller = before;
    }
  };
  return { store, tenants, memory, clock, as };
}

/** Every memory of a tenant as its export writes it, sorted by id (the whole visible state). */
export async function exportOf(
  fixture: Awaited<ReturnType<typeof tenantFixture>>,
  tenant: string,
): Promise<string[]> {
  return fixture.as(tenant, true, async () => {
    const lines: string[] = [];
    for await (const m of fixture.memory.exportMemories()) lines.push(JSON.stringify(m));
    return lines.sort();
  });
}
