import { createServer } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupMemsvc, makeTempDir, runMemsvc, startMemsvc } from "../support/spawn-memsvc.js";

afterAll(cleanupMemsvc);

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** What an operator reads when the embedder is away or changed. */
describe("memsvc startup messages", () => {
  it("starts with an embedder that does not answer, and warns naming it and why", async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const service = await startMemsvc({
      env: {
        MEMSVC_EMBEDDER_PROVIDER: "ollama",
        MEMSVC_EMBEDDER_OLLAMA_BASE_URL: url,
        MEMSVC_EMBEDDER_OLLAMA_MAX_RETRIES: "0",
        MEMSVC_LOG_FORMAT: "json",
      },
    });
    let warning: Record<string, unknown> | undefined;
    for (let i = 0; i < 100 && warning === undefined; i += 1) {
      warning = service
        .stderr()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((line) => String(line["msg"]).startsWith("the embedder does not answer"));
      if (warning === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(warning).toMatchObject({ level: "warn" });
    expect(String(warning?.["cause"])).toContain(`POST ${url}/api/embed failed`);
    expect(String(warning?.["cause"])).toContain("ECONNREFUSED");
    expect(String(warning?.["cause"])).not.toContain("    at ");
    const ready = await fetch(`${service.baseUrl}/readyz`);
    expect(ready.status).toBe(503);
  });

  it("refuses a store of another embedder and says how to switch", async () => {
    const dir = makeTempDir();
    const first = await startMemsvc({ dataDir: dir });
    await fetch(`${first.baseUrl}/v1/remember`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ content: "stored with word vectors" }),
    });
    await first.stop();
    const run = runMemsvc(["serve"], { MEMSVC_EMBEDDER_LOCAL_MODEL: "hashing" }, dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("memsvc reindex");
  });

  it("warns that a PostgreSQL URL without the postgres provider is not used", () => {
    const url = "postgres://memsvc:secret@127.0.0.1:5432/memories";
    const run = runMemsvc(["migrate"], {
      MEMSVC_VECTOR_STORE_POSTGRES_URL: url,
      MEMSVC_LOG_FORMAT: "text",
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      "vector_store.postgres.url is set but vector_store.provider is chroma: the PostgreSQL URL is ignored",
    );
    expect(run.stderr).not.toContain("secret");
    const used = runMemsvc(["migrate"], {
      MEMSVC_VECTOR_STORE_POSTGRES_URL: url,
      MEMSVC_VECTOR_STORE_PROVIDER: "chroma",
    });
    expect(used.stderr).toContain("vector_store.provider is chroma");
  });
});
