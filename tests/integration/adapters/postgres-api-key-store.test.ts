import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectPostgres, type PostgresConnection } from "../../../adapters/postgres/index.js";
import { ApiKeys, VERIFIED_CACHE_MS } from "../../../shells/memsvc/auth/api-keys.js";
import { describeApiKeyStoreContract } from "../../contracts/api-key-store-contract.js";
import { startPostgresServer, type PostgresServer } from "../../support/postgres-server.js";

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgresServer();
});
afterAll(async () => {
  await server?.stop();
});

describeApiKeyStoreContract("PostgresApiKeyStore", async () => {
  const url = await server.createDatabase();
  const opened: PostgresConnection[] = [await connectPostgres(url)];
  await opened[0]?.migrate();
  return {
    keys: (opened[0] as PostgresConnection).keys,
    // Another replica on the same database.
    reopen: async () => {
      const other = await connectPostgres(url);
      opened.push(other);
      return other.keys;
    },
    cleanup: async () => {
      await Promise.all(opened.map((connection) => connection.close()));
    },
  };
});

describe("API keys shared by replicas on one PostgreSQL database (issue 23)", () => {
  it("refuses a key revoked through one replica on the other within the cache window", async () => {
    const url = await server.createDatabase();
    const [a, b] = [await connectPostgres(url), await connectPostgres(url)];
    try {
      await a.migrate();
      const clock = { ms: Date.parse("2026-11-28T09:00:00.000Z") };
      const here = new ApiKeys({ store: a.keys, now: () => clock.ms });
      const there = new ApiKeys({ store: b.keys, now: () => clock.ms });
      const made = await here.create({ tenant: "acme", readOnly: false });
      expect((await there.verify(made.key)).ok).toBe(true);
      await here.revoke(made.id);
      expect(await here.verify(made.key)).toEqual({ ok: false, reason: "invalid" });
      // The other replica trusts its verified cache until the window ends, then asks the table.
      expect((await there.verify(made.key)).ok).toBe(true);
      clock.ms += VERIFIED_CACHE_MS;
      expect(await there.verify(made.key)).toEqual({ ok: false, reason: "invalid" });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
