import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  MIGRATIONS,
  SCHEMA_VERSION,
  connectPostgres,
  type PostgresConnection,
} from "../../../adapters/postgres/index.js";
import { isAgentServicesError } from "../../../core/errors.js";
import { describeReplicationContract } from "../../contracts/replication-contract.js";
import { startPostgresServer, type PostgresServer } from "../../support/postgres-server.js";

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgresServer();
});
afterAll(async () => {
  await server?.stop();
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describeReplicationContract("PostgreSQL", async () => {
  const postgres = await connectPostgres(await server.createDatabase());
  await postgres.migrate();
  const { store, feed, locks } = postgres;
  return { store, feed, locks, cleanup: () => postgres.close() };
});

describe("several connections (replicas) on one PostgreSQL database", () => {
  let url: string;
  let replicas: PostgresConnection[];
  beforeAll(async () => {
    url = await server.createDatabase();
    // Four replicas starting at once: the migrations run once, the others find them applied.
    replicas = await Promise.all([1, 2, 3, 4].map(() => connectPostgres(url)));
    const results = await Promise.all(replicas.map((r) => r.migrate()));
    expect(results.flatMap((r) => r.applied)).toEqual(MIGRATIONS.map((m) => m.version));
    await Promise.all(replicas.map((r) => r.store.bind({ embedderId: "e", dimensions: 2 })));
  });
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.close()));
  });

  it("writing concurrently, give a gapless feed in commit order that rebuilds the store", async () => {
    const [a, b] = replicas as [PostgresConnection, PostgresConnection];
    const before = await a.feed.head();
    const writer = (replica: PostgresConnection, prefix: string) =>
      Promise.all(
        Array.from({ length: 8 }, async (_, w) => {
          for (let i = 0; i < 20; i += 1) {
            const id = `${prefix}-${w}-${i % 5}`;
            if (i % 7 === 6) await replica.store.delete([id]);
            else
              await replica.store.upsert([
                { id, vector: [1, i], document: `${prefix} ${i}`, metadata: { i } },
              ]);
          }
        }),
      );
    await Promise.all([writer(a, "a"), writer(b, "b")]);
    const changes = [];
    for (let after = before; ;) {
      const page = await b.feed.changesSince(after, 50);
      if (page.length === 0) break;
      changes.push(...page);
      after = page[page.length - 1]?.seq ?? after;
    }
    expect(changes.map((c) => c.seq)).toEqual(changes.map((_, i) => before + i + 1));
    expect(await a.feed.head()).toBe(before + changes.length);
    // Applying the feed gives what the store holds.
    const applied = new Map<string, string>();
    for (const change of changes) {
      if (change.record === undefined) applied.delete(change.id);
      else applied.set(change.id, change.record.document);
    }
    const ids = [...new Set(changes.map((c) => c.id))];
    const stored = await a.store.get(ids);
    expect(new Map(stored.map((r) => [r.id, r.document]))).toEqual(applied);
  });

  it("wake listeners of every replica on a commit of one", async () => {
    const heads = replicas.map(() => [] as number[]);
    const stops = await Promise.all(
      replicas.map((r, i) => r.feed.listen((head) => heads[i]?.push(head))),
    );
    const [writer] = replicas as [PostgresConnection];
    await writer.store.upsert([{ id: "wake", vector: [1, 0], document: "d", metadata: {} }]);
    const head = await writer.feed.head();
    const deadline = Date.now() + 5_000;
    while (heads.some((h) => !h.includes(head)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(heads.map((h) => h.includes(head))).toEqual([true, true, true, true]);
    await Promise.all(stops.map((stop) => stop()));
  });

  it("exclude each other with runAll across pools", async () => {
    let inside = 0;
    let most = 0;
    await Promise.all(
      replicas.flatMap((r, i) =>
        [0, 1].map((j) =>
          r.locks.runAll([`dup-${(i + j) % 2}`, "shared"], async () => {
            inside += 1;
            most = Math.max(most, inside);
            await new Promise((resolve) => setTimeout(resolve, 15));
            inside -= 1;
          }),
        ),
      ),
    );
    expect(most).toBe(1);
  });

  it("let a call that shares an acquisition with a call blocked elsewhere go ahead (issue 21)", async () => {
    const [a, b] = replicas as [PostgresConnection, PostgresConnection];
    let letGo: () => void = () => undefined;
    const holding = new Promise<void>((resolve) => (letGo = resolve));
    let held: () => void = () => undefined;
    const inside = new Promise<void>((resolve) => (held = resolve));
    const first = a.locks.runAll(["held-elsewhere"], async () => {
      held();
      await holding;
    });
    await inside;
    // Asked in the same turn, the two calls share one acquisition, which waits for a's key.
    const blocked = b.locks.runAll(["held-elsewhere"], async () => "blocked");
    const free = b.locks.runAll(["free-key"], async () => "free");
    expect(await free).toBe("free");
    letGo();
    await first;
    expect(await blocked).toBe("blocked");
  });

  it("give one turn of claimTurn to exactly one of four replicas", async () => {
    const claims = await Promise.all(replicas.map((r) => r.locks.claimTurn("expiry", 60_000)));
    expect(claims.filter(Boolean)).toHaveLength(1);
  });

  it("keep the change log within its retention, and a reader detects the gap", async () => {
    const pruning = await connectPostgres(url, {
      retention: { keepChanges: 3, keepMs: 0, pruneEvery: 1 },
    });
    const before = await pruning.feed.head();
    for (let i = 0; i < 6; i += 1) {
      await pruning.store.upsert([{ id: `p${i}`, vector: [1, i], document: "d", metadata: {} }]);
    }
    await pruning.close();
    const [reader] = replicas as [PostgresConnection];
    const head = await reader.feed.head();
    const changes = await reader.feed.changesSince(before, 100);
    expect(changes[0]?.seq).toBeGreaterThan(before + 1);
    expect(changes[changes.length - 1]?.seq).toBe(head);
  });
});

describe("connectPostgres errors", () => {
  it("names host:port and the refusal for a server that is not there", async () => {
    const error = await rejection(connectPostgres("postgres://postgres:x@127.0.0.1:1/postgres"));
    expect(isAgentServicesError(error, "store_unavailable")).toBe(true);
    expect((error as Error).message).toContain("127.0.0.1:1");
    expect((error as Error).message).toContain("ECONNREFUSED");
  });

  it("says the password was rejected, without echoing it", async () => {
    const url = server.url.replace(`:${server.password}@`, ":wrong-secret@");
    const error = await rejection(connectPostgres(url));
    expect(isAgentServicesError(error, "config_invalid")).toBe(true);
    expect((error as Error).message).toContain(`127.0.0.1:${server.port}`);
    expect((error as Error).message).toContain("rejected the password");
    expect((error as Error).message).not.toContain("wrong-secret");
  });

  it("names a database that does not exist", async () => {
    const error = await rejection(connectPostgres(server.urlOf("no_such_db")));
    expect(isAgentServicesError(error, "config_invalid")).toBe(true);
    expect((error as Error).message).toContain("no_such_db");
  });

  it("refuses a URL that is not postgres://, naming the setting", async () => {
    const error = await rejection(connectPostgres("mysql://localhost/db"));
    expect(isAgentServicesError(error, "config_invalid")).toBe(true);
    expect((error as Error).message).toContain("vector_store.postgres.url");
  });

  it("refuses a schema newer than this binary, and reports an old one when asked", async () => {
    const url = await server.createDatabase();
    const postgres = await connectPostgres(url);
    expect(await postgres.schemaVersion()).toBe(0);
    const stale = await rejection(postgres.schemaVersion({ requireCurrent: true }));
    expect((stale as Error).message).toContain("memsvc migrate");
    expect(await postgres.migrate()).toEqual({
      applied: MIGRATIONS.map((m) => m.version),
      version: SCHEMA_VERSION,
    });
    expect(await postgres.migrate()).toEqual({ applied: [], version: SCHEMA_VERSION });
    const client = new pg.Client(url);
    await client.connect();
    await client.query(
      "INSERT INTO memsvc_schema_migrations (version, name) VALUES ($1, 'from the future')",
      [SCHEMA_VERSION + 1],
    );
    await client.end();
    for (const attempt of [postgres.migrate(), postgres.schemaVersion()]) {
      const error = await rejection(attempt);
      expect(isAgentServicesError(error, "config_invalid")).toBe(true);
      expect((error as Error).message).toMatch(/newer than this memsvc knows/);
    }
    await postgres.close();
  });
});
