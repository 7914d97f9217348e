import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isAgentServicesError } from "../../core/errors.js";
import { MemoryService } from "../../core/memory/index.js";
import type { VectorStore } from "../../core/ports/vector-store.js";
import { TenantSpace, TenantVectorStore } from "../../core/tenancy/index.js";
import { FakeEmbedder, ManualClock } from "../../core/testing/index.js";
import type { VectorStoreUnderTest } from "./vector-store-contract.js";

const DIMS = 8;

/** A tenant space over `store` with the fakes (what `memsvc` builds over its real store). */
function space(store: VectorStore): TenantSpace {
  const embedder = new FakeEmbedder({ dimensions: DIMS });
  const clock = new ManualClock("2026-11-28T10:00:00.000Z");
  return new TenantSpace({
    store,
    space: { embedderId: embedder.id, dimensions: DIMS },
    create: (parts) =>
      new MemoryService({
        store: parts.store,
        embedder,
        clock,
        idsTakenElsewhere: parts.idsTakenElsewhere,
      }),
    newId: () => globalThis.crypto.randomUUID(),
  });
}

/**
 * Tenants stay apart on a real store (issue 23): records carry their tenant, one tenant's view
 * never reads another's records, and a restart (one scan of the store, split by tenant) gives
 * every tenant exactly its own memories. Runs against the in-memory fake and the real Chroma and
 * PostgreSQL adapters.
 *
 * @example
 * describeTenantStoreContract("InMemoryVectorStore", async () => ({ store, cleanup }));
 */
export function describeTenantStoreContract(
  name: string,
  make: () => Promise<VectorStoreUnderTest>,
): void {
  describe(`tenants on ${name}`, () => {
    let subject: VectorStoreUnderTest;
    let store: VectorStore;

    beforeEach(async () => {
      subject = await make();
      store = subject.store;
      await store.bind({ embedderId: new FakeEmbedder({ dimensions: DIMS }).id, dimensions: DIMS });
    });
    afterEach(async () => {
      await subject.cleanup();
    });

    it("stores a tenant's records with its name and the default tenant's without one", async () => {
      const acme = new TenantVectorStore(store, "acme");
      const home = new TenantVectorStore(store, "default");
      const vector = [1, 0, 0, 0, 0, 0, 0, 0];
      await acme.upsert([{ id: "a", vector, document: "same", metadata: { type: "fact" } }]);
      await home.upsert([{ id: "d", vector, document: "same", metadata: { type: "fact" } }]);
      const [a, d] = await store.get(["a", "d"]);
      expect(a?.metadata).toEqual({ type: "fact", tenant: "acme" });
      expect(d?.metadata).toEqual({ type: "fact" });
      await acme.updateMetadata([{ id: "a", metadata: { type: "rule" } }]);
      expect((await store.get(["a"]))[0]?.metadata).toEqual({ type: "rule", tenant: "acme" });
    });

    it("never lets one tenant's view read another tenant's records", async () => {
      const acme = new TenantVectorStore(store, "acme");
      const globex = new TenantVectorStore(store, "globex");
      const vector = [0, 1, 0, 0, 0, 0, 0, 0];
      await acme.upsert([{ id: "a1", vector, document: "x", metadata: {} }]);
      await globex.upsert([{ id: "g1", vector, document: "x", metadata: {} }]);
      expect((await acme.get(["a1", "g1"])).map((r) => r.id)).toEqual(["a1"]);
      const scanned: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await globex.scan(cursor, 1);
        scanned.push(...page.records.map((r) => r.id));
        cursor = page.next;
      } while (cursor !== undefined);
      expect(scanned).toEqual(["g1"]);
    });

    it("gives every tenant exactly its own memories after a restart", async () => {
      const first = space(store);
      await first.init();
      const content = "Deploys run on Fridays after the standup";
      const input = { content, type: "rule", scope: "permanent", tags: ["ops"] } as const;
      const acme = await (await first.service("acme")).remember(input);
      const home = await (await first.service("default")).remember(input);
      await (await first.service("globex")).remember({ ...input, content: "Globex only" });
      expect(acme.id).not.toBe(home.id);
      await first.saveSnapshot();

      const second = space(store);
      await second.init();
      expect(await second.counts()).toEqual([
        { tenant: "acme", memories: 1 },
        { tenant: "default", memories: 1 },
        { tenant: "globex", memories: 1 },
      ]);
      const acmeAgain = await second.service("acme");
      const hits = await acmeAgain.search({ message: content });
      expect(hits.results.map((r) => r.memory.id)).toEqual([acme.id]);
      const error = await acmeAgain.get(home.id).catch((e: unknown) => e);
      expect(isAgentServicesError(error, "not_found")).toBe(true);
      await (await second.service("default")).deleteMatching({ all: true });
      expect((await acmeAgain.stats()).total_memories).toBe(1);
    });
  });
}
