import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getRequestListener } from "@hono/node-server";
import { afterEach, describe, expect, it } from "vitest";
import { busyJournaledStore } from "../../../../support/busy-journaled-store.js";
import { MEMSVC_BIN } from "../../../../support/spawn-memsvc.js";
import { makeApp } from "../../../../unit/shells/memsvc/http/memory-app-fixture.js";

let server: Server | undefined;
let dir: string | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** Runs `memsvc import --file F` against `url`; resolves with its exit code and output. */
function importFile(url: string, file: string) {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith("MEMSVC_")) env[key] = value;
  }
  const child = spawn(process.execPath, [MEMSVC_BIN, "import", "--file", file, "--url", url], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, stdout, stderr })),
  );
}

describe("memsvc import --file against a busy store", () => {
  it("waits and sends the rest when the store stops it busy, and imports every line", async () => {
    // The write journal in front of a store that takes no write until released: room for two
    // batches of 200 ids, then the import stops with incomplete.reason "store_busy", and a
    // request sent at once is refused whole (503), as the embedded Chroma's are when an
    // import outruns it. The store is released 0.5 s after the first request.
    const { store, release } = busyJournaledStore(400);
    const { app, memory } = await makeApp({}, store);
    let requests = 0;
    const listener = getRequestListener(app.fetch);
    server = createServer((req, res) => {
      if (req.url === "/v1/import" && ++requests === 1) setTimeout(release, 500);
      void listener(req, res);
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    dir = mkdtempSync(join(tmpdir(), "memsvc-import-busy-"));
    const file = join(dir, "memories.ndjson");
    const lines = Array.from(
      { length: 1_000 },
      (_, i) => `${JSON.stringify({ content: `memory number ${i + 1}`, scope: "permanent" })}\n`,
    );
    writeFileSync(file, lines.join(""));

    const run = await importFile(`http://127.0.0.1:${port}`, file);
    expect(run.stderr).toBe("");
    expect(run).toMatchObject({
      code: 0,
      stdout: "imported 1000, merged 0 duplicates, rejected 0\n",
    });
    expect(requests).toBe(2);
    expect((await memory.stats()).total_memories).toBe(1_000);
    await store.close();
  }, 30_000);
});
