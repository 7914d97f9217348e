import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectPostgres, type PostgresConnection } from "../../../adapters/postgres/index.js";
import { isAgentServicesError } from "../../../core/errors.js";
import type { VectorRecord } from "../../../core/ports/vector-store.js";
import { describeVectorStoreContract } from "../../contracts/vector-store-contract.js";
import { describeTenantStoreContract } from "../../contracts/tenant-store-contract.js";
import { startPostgresServer, type PostgresServer } from "../../support/postgres-server.js";

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgresServer();
});
afterAll(async () => {
  await server?.stop();
});

/** A migrated connection to a fresh database of the test server. */
async function freshConnection(): Promise<PostgresConnection> {
  const postgres = await connectPostgres(await server.createDatabase());
  await postgres.migrate();
  return postgres;
}

describeVectorStoreContract(
  "PostgresVectorStore",
  async () => {
    const postgres = await freshConnection();
    return { store: postgres.store, cleanup: () => postgres.close() };
  },
  { snapshotMark: false },
);

describeTenantStoreContract("PostgresVectorStore", async () => {
  const postgres = await freshConnection();
  return { store: postgres.store, cleanup: () => postgres.close() };
});

function record(id: string, n: number, metadata: VectorRecord["metadata"] = {}): VectorRecord {
  return { id, vector: [1, n, 0, 0], document: `doc ${id}`, metadata };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe("PostgresVectorStore on a real PostgreSQL", () => {
  let postgres: PostgresConnection;
  beforeAll(async () => {
    postgres = await freshConnection();
    await postgres.store.bind({ embedderId: "test", dimensions: 4 });
  });
  afterAll(async () => {
    await postgres?.close();
  });

  it("merges concurrent writes into few transactions with the semantics of one after another", async () => {
    const before = await postgres.feed.head();
    const writes = [
      postgres.store.upsert([record("m1", 1, { a: 1 })]),
      postgres.store.upsert([record("m1", 2, { b: 2 })]),
      postgres.store.delete(["m2"]),
      postgres.store.upsert([record("m2", 3)]),
      postgres.store.delete(["m2", "m2"]),
      postgres.store.delete(["m2"]),
      postgres.store.updateMetadata([{ id: "m1", metadata: { c: 3 } }]),
    ];
    const results = await Promise.all(writes);
    expect(results.slice(2, 6)).toEqual([0, undefined, 1, 0]);
    expect(await postgres.store.get(["m1", "m2"])).toEqual([
      { id: "m1", document: "doc m1", metadata: { a: 1, b: 2, c: 3 } },
    ]);
    const changes = await postgres.feed.changesSince(before, 100);
    expect(changes.map((c) => c.seq)).toEqual(changes.map((_, i) => before + i + 1));
    expect(new Set(changes.map((c) => c.id))).toEqual(new Set(["m1", "m2"]));
  });

  it("refuses a vector of another dimension and text PostgreSQL cannot hold, naming the field", async () => {
    const wrong = await rejection(
      postgres.store.upsert([{ id: "x", vector: [1, 2], document: "d", metadata: {} }]),
    );
    expect(isAgentServicesError(wrong, "embedder_mismatch")).toBe(true);
    const nul = await rejection(
      postgres.store.upsert([{ ...record("x", 1), document: "a\u0000b" }]),
    );
    expect(isAgentServicesError(nul, "invalid_input")).toBe(true);
    expect((nul as Error).message).toContain("record x: document");
    const nan = await rejection(postgres.store.upsert([record("x", 1, { score: Number.NaN })]));
    expect((nan as Error).message).toContain("metadata.score");
    expect(await postgres.store.get(["x"])).toEqual([]);
  });

  it("fills the tenant column from the metadata key tenant, default when absent (issue 23)", async () => {
    const url = await server.createDatabase();
    const other = await connectPostgres(url);
    await other.migrate();
    await other.store.bind({ embedderId: "test", dimensions: 4 });
    await other.store.upsert([record("t-acme", 1, { tenant: "acme" }), record("t-home", 2)]);
    await other.store.updateMetadata([{ id: "t-acme", metadata: { a: 1 } }]);
    const sql = new pg.Client(url);
    await sql.connect();
    const { rows } = await sql.query<{ id: string; tenant: string }>(
      "SELECT id, tenant FROM memsvc_memories ORDER BY id",
    );
    await sql.end();
    await other.close();
    expect(rows).toEqual([
      { id: "t-acme", tenant: "acme" },
      { id: "t-home", tenant: "default" },
    ]);
  });

  it("rejects every write of a transaction whose COMMIT is refused, and stores none of them", async () => {
    const url = await server.createDatabase();
    const other = await connectPostgres(url);
    await other.migrate();
    await other.store.bind({ embedderId: "test", dimensions: 4 });
    // A deferred constraint trigger fails at COMMIT, after every statement succeeded.
    const ddl = new pg.Client(url);
    await ddl.connect();
    await ddl.query(`
      CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN RAISE EXCEPTION 'refused at commit'; END $$;
      CREATE CONSTRAINT TRIGGER refuse AFTER INSERT ON memsvc_memories
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
        WHEN (NEW.document = 'refused') EXECUTE FUNCTION refuse();`);
    await ddl.end();
    const head = await other.feed.head();
    const results = await Promise.allSettled([
      other.store.upsert([record("fine", 1)]),
      other.store.upsert([{ ...record("bad", 2), document: "refused" }]),
    ]);
    // Both shared the refused transaction (or the fine one committed alone first): no write
    // that resolved is missing, none that rejected is stored.
    for (const [i, id] of ["fine", "bad"].entries()) {
      const stored = (await other.store.get([id])).length === 1;
      expect(stored).toBe(results[i]?.status === "fulfilled");
    }
    expect(results[1]?.status).toBe("rejected");
    const reason = (results[1] as PromiseRejectedResult).reason as unknown;
    expect(isAgentServicesError(reason, "store_unavailable")).toBe(true);
    expect((reason as Error).message).toContain("refused at commit");
    const changes = await other.feed.changesSince(head, 10);
    expect(changes.map((c) => c.id)).toEqual(results[0]?.status === "fulfilled" ? ["fine"] : []);
    await other.close();
  });

  it("pages a scan in writing order with every vector, an update keeping its place (issue 22)", async () => {
    // Ids in an order of their own, so id order cannot pass for writing order.
    const ids = Array.from(
      { length: 250 },
      (_, i) => `s${String((i * 97) % 250).padStart(3, "0")}`,
    );
    for (const [i, id] of ids.slice(0, 100).entries()) await postgres.store.upsert([record(id, i)]);
    await postgres.store.upsert(ids.slice(100).map((id, i) => record(id, 100 + i)));
    await postgres.store.upsert([record(ids[3] as string, 1000)]);
    const seen: string[] = [];
    for (
      let cursor: string | undefined, first = true;
      first || cursor !== undefined;
      first = false
    ) {
      const page = await postgres.store.scan(cursor, 64);
      for (const r of page.records) if (r.id.startsWith("s")) seen.push(r.id);
      cursor = page.next;
    }
    expect(seen).toEqual(ids);
  });
});
