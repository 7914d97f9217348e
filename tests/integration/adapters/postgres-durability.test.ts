import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectPostgres, type PostgresConnection } from "../../../adapters/postgres/index.js";
import { isAgentServicesError } from "../../../core/errors.js";
import { startPostgresServer, type PostgresServer } from "../../support/postgres-server.js";

/** Its own server: these tests crash and restart it. */
let server: PostgresServer;
let postgres: PostgresConnection;
beforeAll(async () => {
  server = await startPostgresServer();
  postgres = await connectPostgres(server.url, { reconnectMs: { first: 50, max: 500 } });
  await postgres.migrate();
  await postgres.store.bind({ embedderId: "e", dimensions: 2 });
});
afterAll(async () => {
  await postgres?.close();
  await server?.stop();
});

async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  expect(check()).toBe(true);
}

describe("the PostgreSQL store across a server crash", () => {
  it("keeps every write that resolved through an immediate shutdown (no checkpoint)", async () => {
    const acknowledged: string[] = [];
    const writers = Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; ; i += 1) {
        const id = `w${w}-${i}`;
        try {
          await postgres.store.upsert([{ id, vector: [1, i], document: id, metadata: { w } }]);
          acknowledged.push(id);
        } catch (error) {
          expect(isAgentServicesError(error, "store_unavailable")).toBe(true);
          return;
        }
      }
    });
    await until(() => acknowledged.length >= 200);
    await server.kill(); // pg_ctl stop -m immediate: SIGQUIT, no checkpoint
    await Promise.all(writers);
    await server.restart();
    const stored = new Set<string>();
    for (
      let cursor: string | undefined, first = true;
      first || cursor !== undefined;
      first = false
    ) {
      const page = await postgres.store.scan(cursor, 1000);
      for (const r of page.records) stored.add(r.id);
      cursor = page.next;
    }
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    // The feed lists every stored record, in a gapless sequence.
    const changes = await postgres.feed.changesSince(0, 100_000);
    expect(changes.map((c) => c.seq)).toEqual(changes.map((_, i) => i + 1));
    expect(new Set(changes.map((c) => c.id))).toEqual(stored);
  });

  it("tells a listener the channel went down and came back; no change is lost meanwhile", async () => {
    const events: string[] = [];
    const heads: number[] = [];
    const stop = await postgres.feed.listen(
      (head) => heads.push(head),
      (up) => events.push(up ? "up" : "down"),
    );
    const applied = await postgres.feed.head();
    await server.kill();
    await until(() => events.includes("down"));
    await server.restart();
    // Writes committed while the listener is still reconnecting are not announced to it...
    const writer = await connectPostgres(server.url);
    await writer.store.upsert([{ id: "while-down", vector: [1, 0], document: "d", metadata: {} }]);
    await writer.close();
    await until(() => events.includes("up"));
    expect(events.slice(0, 2)).toEqual(["down", "up"]);
    // ...but catching up by sequence finds them.
    const missed = await postgres.feed.changesSince(applied, 100);
    expect(missed.map((c) => c.id)).toEqual(["while-down"]);
    expect(missed[0]?.seq).toBe(applied + 1);
    // And the channel works again.
    await postgres.store.upsert([{ id: "after", vector: [1, 0], document: "d", metadata: {} }]);
    const head = await postgres.feed.head();
    await until(() => heads.includes(head));
    await stop();
  });
});
