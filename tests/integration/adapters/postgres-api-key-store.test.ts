import { afterAll, beforeAll } from "vitest";
import { connectPostgres, type PostgresConnection } from "../../../adapters/postgres/index.js";
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
