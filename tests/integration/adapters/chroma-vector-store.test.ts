import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ChromaClient } from "chromadb";
import { afterEach, beforeEach, describe, expect, inject, it } from "vitest";
import { ChromaVectorStore } from "../../../adapters/chroma/chroma-vector-store.js";
import { startEmbeddedChroma } from "../../../adapters/chroma/chroma-launcher.js";
import { isAgentServicesError } from "../../../core/errors.js";
import type { VectorRecord } from "../../../core/ports/vector-store.js";
import { describeVectorStoreContract } from "../../contracts/vector-store-contract.js";
import { describeTenantStoreContract } from "../../contracts/tenant-store-contract.js";

const chromaUrl = inject("chromaUrl");

function client(): ChromaClient {
  const url = new URL(chromaUrl);
  return new ChromaClient({ host: url.hostname, port: Number(url.port) });
}

/** A store on a fresh collection; cleanup closes it and deletes the collection. */
function freshStore(): { store: ChromaVectorStore; name: string; cleanup(): Promise<void> } {
  const name = `test-${randomUUID()}`;
  const store = new ChromaVectorStore({ url: chromaUrl, collection: name });
  return {
    store,
    name,
    cleanup: async () => {
      await store.close();
      await client()
        .deleteCollection({ name })
        .catch(() => undefined);
    },
  };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describeVectorStoreContract("ChromaVectorStore", async () => freshStore());
describeTenantStoreContract("ChromaVectorStore", async () => freshStore());

describe("ChromaVectorStore on a real Chroma", () => {
  let subject: ReturnType<typeof freshStore>;
  beforeEach(() => {
    subject = freshStore();
  });
  afterEach(async () => {
    await subject.cleanup();
  });

  it("creates its collection in cosine space and records the bound embedder in its metadata", async () => {
    await subject.store.bind({ embedderId: "local-hash-v1:8", dimensions: 8 });
    const collection = await client().getCollection({ name: subject.name });
    expect(collection.configuration.hnsw?.space).toBe("cosine");
    expect(collection.metadata).toMatchObject({ embedder_id: "local-hash-v1:8", dimensions: 8 });
  });

  it("refuses, after a restart, to bind the collection to another embedder and names both", async () => {
    await subject.store.bind({ embedderId: "local-hash-v1:8", dimensions: 8 });
    const reopened = new ChromaVectorStore({ url: chromaUrl, collection: subject.name });
    const error = await rejection(
      reopened.bind({ embedderId: "cohere:embed-v4.0:8", dimensions: 8 }),
    );
    expect(isAgentServicesError(error, "embedder_mismatch")).toBe(true);
    expect((error as Error).message).toContain("local-hash-v1:8");
    expect((error as Error).message).toContain("cohere:embed-v4.0:8");
    await expect(
      reopened.bind({ embedderId: "local-hash-v1:8", dimensions: 8 }),
    ).resolves.toBeUndefined();
  });

  it("refuses vectors of the wrong length once bound", async () => {
    await subject.store.bind({ embedderId: "e", dimensions: 3 });
    const error = await rejection(
      subject.store.upsert([{ id: "a", vector: [1, 0], document: "x", metadata: {} }]),
    );
    expect(isAgentServicesError(error, "embedder_mismatch")).toBe(true);
    expect(await subject.store.count()).toBe(0);
  });

  it("round-trips far-future expiry numbers, booleans and fractional numbers exactly", async () => {
    const metadata = {
      expires_at_ms: 8_640_000_000_000_000,
      created_at_ms: Date.parse("2026-11-21T10:00:00.000Z"),
      permanent: true,
      archived: false,
      confidence: 0.3,
      access_count: 0,
    };
    await subject.store.bind({ embedderId: "e", dimensions: 2 });
    await subject.store.upsert([{ id: "m", vector: [1, 0], document: "memo", metadata }]);
    expect(await subject.store.get(["m"])).toEqual([{ id: "m", document: "memo", metadata }]);
    expect((await subject.store.scan(undefined, 10)).records[0]?.metadata).toEqual(metadata);
  });

  it("upserts more records than one Chroma batch holds", async () => {
    await subject.store.bind({ embedderId: "e", dimensions: 2 });
    const records: VectorRecord[] = Array.from({ length: 6000 }, (_, i) => ({
      id: `r${i}`,
      vector: [Math.cos(i), Math.sin(i)],
      document: `record ${i}`,
      metadata: { n: i, even: i % 2 === 0 },
    }));
    await subject.store.upsert(records);
    expect(await subject.store.count()).toBe(6000);
    const scanned = new Set<string>();
    for (let page = await subject.store.scan(undefined, 5000); ;) {
      for (const r of page.records) scanned.add(r.id);
      if (page.next === undefined) break;
      page = await subject.store.scan(page.next, 5000);
    }
    expect(scanned.size).toBe(6000);
    expect(await subject.store.get(["r5999", "r0"])).toEqual([
      { id: "r5999", document: "record 5999", metadata: { n: 5999, even: false } },
      { id: "r0", document: "record 0", metadata: { n: 0, even: true } },
    ]);
    expect(await subject.store.delete(records.map((r) => r.id))).toBe(6000);
    expect(await subject.store.count()).toBe(0);
  });

  it("never serves a page read ahead of a write: a scan after the write sees it", async () => {
    await subject.store.bind({ embedderId: "e", dimensions: 2 });
    const record = (i: number): VectorRecord => ({
      id: `r${String(i).padStart(2, "0")}`,
      vector: [1, i],
      document: `record ${i}`,
      metadata: { n: i },
    });
    await subject.store.upsert(Array.from({ length: 12 }, (_, i) => record(i)));
    const scanAll = async () => {
      const seen: string[] = [];
      for (let page = await subject.store.scan(undefined, 3); ;) {
        seen.push(...page.records.map((r) => `${r.id}:${r.document}`));
        if (page.next === undefined) return seen.sort();
        page = await subject.store.scan(page.next, 3);
      }
    };
    // The first page asks for the next ones ahead; then the store changes under them.
    await subject.store.scan(undefined, 3);
    await subject.store.delete(["r04", "r07"]);
    await subject.store.upsert([{ ...record(10), document: "changed" }, record(12)]);
    const want = [0, 1, 2, 3, 5, 6, 8, 9, 10, 11, 12].map(
      (i) => `r${String(i).padStart(2, "0")}:${i === 10 ? "changed" : `record ${i}`}`,
    );
    expect(await scanAll()).toEqual(want);
  });

  it("fails only the caller whose record Chroma refuses when concurrent upserts share a call (issue 7)", async () => {
    await subject.store.bind({ embedderId: "e", dimensions: 2 });
    const good = Array.from({ length: 7 }, (_, i) => `good${i}`);
    const results = await Promise.allSettled([
      ...good.map((id) =>
        subject.store.upsert([{ id, vector: [1, 0], document: id, metadata: { n: 1 } }]),
      ),
      // A lone surrogate: Chroma refuses the JSON of the whole call that carries it.
      subject.store.upsert([
        { id: "bad", vector: [0, 1], document: "bad \ud800 text", metadata: { n: 2 } },
      ]),
    ]);
    expect(results.slice(0, 7).map((r) => r.status)).toEqual(good.map(() => "fulfilled"));
    expect((await subject.store.get(good)).map((r) => r.id)).toEqual(good);
  });

  it("acknowledges each of many concurrent single-record upserts only once it is readable", async () => {
    await subject.store.bind({ embedderId: "e", dimensions: 2 });
    const ids = Array.from({ length: 40 }, (_, i) => `c${i}`);
    const seen = await Promise.all(
      ids.map(async (id, i) => {
        await subject.store.upsert([
          { id, vector: [Math.cos(i), Math.sin(i)], document: id, metadata: { n: i } },
        ]);
        return (await subject.store.get([id])).map((r) => r.metadata);
      }),
    );
    expect(seen).toEqual(ids.map((_, i) => [{ n: i }]));
    expect(await subject.store.count()).toBe(40);
  });

  it("applies concurrent writes of different kinds in the order they were issued", async () => {
    await subject.store.bind({ embedderId: "e", dimensions: 2 });
    const r = (id: string, metadata: Record<string, number | string>) => ({
      id,
      vector: [1, 0],
      document: id,
      metadata,
    });
    const [, deletedGone, , , deletedBack] = await Promise.all([
      subject.store.upsert([r("gone", { n: 1 })]),
      subject.store.delete(["gone"]),
      subject.store.upsert([r("kept", { n: 1 })]),
      subject.store.updateMetadata([{ id: "kept", metadata: { n: 2 } }]),
      subject.store.delete(["back"]),
      subject.store.upsert([r("back", { n: 3 })]),
      subject.store.upsert([r("kept", { n: 4 })]),
      subject.store.updateMetadata([{ id: "kept", metadata: { m: 5 } }]),
    ]);
    expect(deletedGone).toBe(1);
    expect(deletedBack).toBe(0);
    expect(await subject.store.get(["gone", "kept", "back"])).toEqual([
      { id: "kept", document: "kept", metadata: { n: 4, m: 5 } },
      { id: "back", document: "back", metadata: { n: 3 } },
    ]);
  });

  it("keeps the last of concurrent upserts of one id", async () => {
    await subject.store.bind({ embedderId: "e", dimensions: 2 });
    await Promise.all(
      [1, 2, 3].map((n) =>
        subject.store.upsert([{ id: "a", vector: [1, 0], document: `v${n}`, metadata: { n } }]),
      ),
    );
    expect(await subject.store.get(["a"])).toEqual([
      { id: "a", document: "v3", metadata: { n: 3 } },
    ]);
  });

  it("counts an id removed by concurrent deletes once, for the first of them", async () => {
    await subject.store.bind({ embedderId: "e", dimensions: 2 });
    await subject.store.upsert([
      { id: "a", vector: [1, 0], document: "a", metadata: {} },
      { id: "b", vector: [0, 1], document: "b", metadata: {} },
    ]);
    expect(
      await Promise.all([
        subject.store.delete(["a"]),
        subject.store.delete(["a", "b"]),
        subject.store.delete(["b", "missing"]),
      ]),
    ).toEqual([1, 1, 0]);
    expect(await subject.store.count()).toBe(0);
  });

  it("finishes writes already queued when it is closed, and refuses new ones", async () => {
    await subject.store.bind({ embedderId: "e", dimensions: 2 });
    const queued = Array.from({ length: 10 }, (_, i) =>
      subject.store.upsert([{ id: `q${i}`, vector: [1, 0], document: "q", metadata: { i } }]),
    );
    await subject.store.close();
    await expect(Promise.all(queued)).resolves.toHaveLength(10);
    const error = await rejection(
      subject.store.upsert([{ id: "late", vector: [1, 0], document: "late", metadata: {} }]),
    );
    expect(isAgentServicesError(error, "store_unavailable")).toBe(true);
    const reopened = new ChromaVectorStore({ url: chromaUrl, collection: subject.name });
    expect(await reopened.count()).toBe(10);
    await reopened.close();
  });

  it("fails with store_unavailable after close", async () => {
    await subject.store.close();
    const error = await rejection(subject.store.count());
    expect(isAgentServicesError(error, "store_unavailable")).toBe(true);
  });
});

describe("ChromaVectorStore when the server goes away", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "agent-services-chroma-gone-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reports store_unavailable with a cause naming the server, and ping fails too", async () => {
    const chroma = await startEmbeddedChroma({ path: dir });
    const store = new ChromaVectorStore({ url: chroma.url, collection: "gone" });
    await store.bind({ embedderId: "e", dimensions: 2 });
    await store.ping();
    await chroma.stop();

    const error = await rejection(store.count());
    expect(isAgentServicesError(error, "store_unavailable")).toBe(true);
    expect((error as Error).message).toBe("vector store unavailable");
    expect((error as Error).cause).toBeInstanceOf(Error);
    // The cause names the server (issue 24), the vendor's error under it.
    expect(((error as Error).cause as Error).message).toBe(
      `Chroma at ${new URL(chroma.url).origin} cannot be reached (is the server running and listening there?)`,
    );
    expect(((error as Error).cause as Error).cause).toBeInstanceOf(Error);
    expect(isAgentServicesError(await rejection(store.ping()), "store_unavailable")).toBe(true);
    const writes = await Promise.all([
      rejection(store.upsert([{ id: "a", vector: [1, 0], document: "a", metadata: {} }])),
      rejection(store.upsert([{ id: "b", vector: [0, 1], document: "b", metadata: {} }])),
      rejection(store.updateMetadata([{ id: "a", metadata: { n: 1 } }])),
      rejection(store.delete(["a"])),
    ]);
    expect(writes.map((e) => isAgentServicesError(e, "store_unavailable"))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    await store.close();
  });

  it("reports store_unavailable when nothing ever listened at the URL", async () => {
    const store = new ChromaVectorStore({ url: "http://127.0.0.1:9", collection: "never" });
    const error = await rejection(store.bind({ embedderId: "e", dimensions: 2 }));
    expect(isAgentServicesError(error, "store_unavailable")).toBe(true);
  });
});
