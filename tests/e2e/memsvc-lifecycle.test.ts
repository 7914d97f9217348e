import { afterAll, describe, expect, it } from "vitest";
import { cleanupMemsvc, isAlive, makeTempDir, startMemsvc } from "../support/spawn-memsvc.js";

afterAll(cleanupMemsvc);

async function json(url: string, init?: RequestInit) {
  const res = await fetch(url, init);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function waitUntilGone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  return !isAlive(pid);
}

describe("memsvc lifecycle", () => {
  it("exits 0 on SIGTERM after answering in-flight requests and leaves no Chroma process", async () => {
    const svc = await startMemsvc();
    const chroma = svc.chromaPid;
    expect(chroma).toBeDefined();
    const inflight = Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        json(`${svc.baseUrl}/v1/remember`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ content: `in flight ${i}` }),
        }),
      ),
    );
    await new Promise((r) => setTimeout(r, 20));
    const end = await svc.stop("SIGTERM");
    expect(end).toEqual({ code: 0, signal: null });
    for (const res of await inflight) expect(res.status).toBe(200);
    expect(await waitUntilGone(chroma as number)).toBe(true);
    expect(svc.stderr()).toContain('"msg":"stopped"');
  });

  it("exits 0 on SIGINT too", async () => {
    const svc = await startMemsvc();
    expect(await svc.stop("SIGINT")).toEqual({ code: 0, signal: null });
    expect(await waitUntilGone(svc.chromaPid as number)).toBe(true);
  });

  it("keeps every acknowledged memory after kill -9 of the service and its Chroma", async () => {
    const dataDir = makeTempDir();
    const first = await startMemsvc({ dataDir });
    const ids: string[] = [];
    const N = 200;
    for (let batch = 0; batch < N; batch += 20) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          json(`${first.baseUrl}/v1/remember`, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({
              content: `durable memory number ${batch + i}`,
              scope: "permanent",
            }),
          }),
        ),
      );
      for (const a of answers) {
        expect(a.status).toBe(200);
        ids.push(a.body["id"] as string);
      }
    }
    await first.killHard();
    expect(await waitUntilGone(first.chromaPid as number)).toBe(true);

    const second = await startMemsvc({ dataDir });
    const stats = await json(`${second.baseUrl}/v1/stats`);
    expect(stats.body["total_memories"]).toBe(N);
    const missing: string[] = [];
    for (const id of ids) {
      if ((await fetch(`${second.baseUrl}/v1/memories/${id}`)).status !== 200) missing.push(id);
    }
    expect(missing).toEqual([]);
    const search = await json(`${second.baseUrl}/v1/search`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ message: "durable memory number 137", limit: 1 }),
    });
    expect((search.body["results"] as { memory: { content: string } }[])[0]?.memory.content).toBe(
      "durable memory number 137",
    );
    expect(await second.stop()).toEqual({ code: 0, signal: null });
  });

  it("refuses to start on a data directory written by another embedder, naming both", async () => {
    const dataDir = makeTempDir();
    const first = await startMemsvc({ dataDir });
    await json(`${first.baseUrl}/v1/remember`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ content: "written with 1024 dimensions" }),
    });
    expect(await first.stop()).toEqual({ code: 0, signal: null });

    const failed = startMemsvc({ dataDir, env: { MEMSVC_EMBEDDER_LOCAL_DIMENSIONS: "256" } });
    await expect(failed).rejects.toThrow(/exited \(\{"code":1,"signal":null\}\) before listening/);
    const message = await failed.catch((error: Error) => error.message);
    expect(message).toContain("memsvc: startup failed:");
    expect(message).toContain("local-hash-v1:1024");
    expect(message).toContain("local-hash-v1:256");
  });
});
