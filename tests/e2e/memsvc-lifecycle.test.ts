import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { request } from "node:http";
import {
  cleanupMemsvc,
  isAlive,
  makeTempDir,
  MEMSVC_BIN,
  memsvcEnv,
  startMemsvc,
} from "../support/spawn-memsvc.js";

afterAll(cleanupMemsvc);

async function json(url: string, init?: RequestInit) {
  const res = await fetch(url, init);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function waitUntilGone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  return !isAlive(pid);
}

/**
 * A POST with `Expect: 100-continue`: `continued` resolves once the server has read the headers
 * (the request is in flight in the service); `send()` writes the body and resolves with the reply.
 */
function inFlightPost(url: URL, body: unknown) {
  const payload = JSON.stringify(body);
  const req = request(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(payload),
      Expect: "100-continue",
    },
  });
  const failed = new Promise<never>((_, reject) => req.once("error", reject));
  const continued = Promise.race([
    new Promise<void>((resolve) => req.once("continue", resolve)),
    failed,
  ]);
  const response = Promise.race([
    new Promise<{ status: number; body: string }>((resolve) =>
      req.once("response", (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.once("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      }),
    ),
    failed,
  ]);
  req.flushHeaders();
  return {
    continued,
    send: () => {
      req.end(payload);
      return response;
    },
  };
}

/** Resolves when the service's stderr contains `text`. */
function logged(svc: { child: ChildProcess; stderr(): string }, text: string): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (!svc.stderr().includes(text)) return;
      svc.child.stderr?.off("data", check);
      resolve();
    };
    svc.child.stderr?.on("data", check);
    check();
  });
}

describe("memsvc lifecycle", () => {
  it("exits 0 on SIGTERM after answering in-flight requests and leaves no Chroma process", async () => {
    const svc = await startMemsvc();
    const chroma = svc.chromaPid;
    expect(chroma).toBeDefined();
    const url = new URL("/v1/remember", svc.baseUrl);
    const requests = Array.from({ length: 8 }, (_, i) =>
      inFlightPost(url, { content: `in flight ${i}` }),
    );
    // Each server has read the headers (it answered 100 Continue): all 8 are in flight.
    await Promise.all(requests.map((r) => r.continued));
    const shuttingDown = logged(svc, '"msg":"shutting down"');
    const end = svc.stop("SIGTERM");
    await shuttingDown;
    // The bodies arrive after the service began shutting down: it must still answer them.
    for (const res of await Promise.all(requests.map((r) => r.send())))
      expect(res.status).toBe(200);
    expect(await end).toEqual({ code: 0, signal: null });
    expect(await waitUntilGone(chroma as number)).toBe(true);
    expect(svc.stderr()).toContain('"msg":"stopped"');
  });

  it("writes the access updates of a recall answered just before SIGTERM before it exits", async () => {
    const dataDir = makeTempDir();
    const first = await startMemsvc({ dataDir });
    const post = (path: string, body: unknown) =>
      json(`${first.baseUrl}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    const stored = await post("/v1/remember", { content: "the release train leaves on Thursdays" });
    const id = stored.body.id as string;
    const recalled = await post("/v1/recall", { message: "release train Thursdays" });
    expect(recalled.body.memory_count).toBe(1);
    // Recall answers before its access write lands; shutdown must flush it, not drop it.
    expect(await first.stop("SIGTERM")).toEqual({ code: 0, signal: null });
    const second = await startMemsvc({ dataDir });
    const memory = await json(`${second.baseUrl}/v1/memories/${id}`);
    expect(memory.body.access_count).toBe(1);
    await second.stop("SIGTERM");
  });

  it("restarts from its engine snapshot after SIGTERM, and from Chroma after kill -9", async () => {
    const dataDir = makeTempDir();
    const post = (base: string, path: string, body: unknown) =>
      json(`${base}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    const first = await startMemsvc({ dataDir });
    const batch = await post(first.baseUrl, "/v1/remember/batch", {
      memories: Array.from({ length: 30 }, (_, i) => ({ content: `snapshot note ${i}` })),
    });
    expect(batch.status).toBe(200);
    expect(await first.stop("SIGTERM")).toEqual({ code: 0, signal: null });
    expect(first.stderr()).toContain('"msg":"engine snapshot saved"');

    const second = await startMemsvc({ dataDir });
    expect(second.stderr()).toMatch(/"msg":"memories loaded".*"memories":30,"from":"snapshot"/);
    const added = await post(second.baseUrl, "/v1/remember", { content: "written after the load" });
    expect(added.status).toBe(200);
    // A crash: no snapshot of this run, and the old one no longer matches the store.
    await second.killHard();
    expect(await waitUntilGone(second.chromaPid as number)).toBe(true);

    const third = await startMemsvc({ dataDir });
    expect(third.stderr()).toMatch(/"msg":"memories loaded".*"memories":31,"from":"store"/);
    const found = await json(`${third.baseUrl}/v1/memories/${added.body.id as string}`);
    expect(found.body.content).toBe("written after the load");
    expect(await third.stop("SIGTERM")).toEqual({ code: 0, signal: null });
  }, 120_000);

  it("exits 0 on SIGINT too", async () => {
    const svc = await startMemsvc();
    expect(await svc.stop("SIGINT")).toEqual({ code: 0, signal: null });
    expect(await waitUntilGone(svc.chromaPid as number)).toBe(true);
  });

  it("exits at once with 130 on a second Ctrl-C while a request holds the shutdown", async () => {
    const svc = await startMemsvc();
    // An import whose body never ends: the drain would wait for it up to its 10 s deadline.
    const held = request(`${svc.baseUrl}/v1/import`, {
      method: "POST",
      headers: { "Content-Type": "application/x-ndjson", "Transfer-Encoding": "chunked" },
    });
    held.on("error", () => undefined);
    held.write(`${JSON.stringify({ content: "half sent", scope: "permanent" })}\n`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    svc.child.kill("SIGINT");
    await new Promise((resolve) => setTimeout(resolve, 300));
    svc.child.kill("SIGINT");
    // Before: the drain waited for the import up to its deadline, then exited 0.
    expect(await svc.ended).toEqual({ code: 130, signal: null });
    expect(svc.stderr()).toMatch(/second SIGINT: exiting now/);
    held.destroy();
    // The embedded Chroma goes with it (it watches its parent).
    expect(await waitUntilGone(svc.chromaPid as number)).toBe(true);
  });

  it("keeps every acknowledged memory after kill -9 of the service and its Chroma under load", async () => {
    const dataDir = makeTempDir();
    const first = await startMemsvc({ dataDir });
    const ids: string[] = [];
    const contents = new Map<string, string>();
    const N = 200;
    let n = 0;
    // Eight clients remember without pause; the kill lands while requests are in flight, so some
    // acknowledged memories are still only in the write journal (Chroma gets them in batches).
    const worker = async () => {
      for (;;) {
        const content = `durable memory number ${n++}`;
        const answer = await json(`${first.baseUrl}/v1/remember`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ content, scope: "permanent" }),
        }).catch(() => undefined);
        if (answer === undefined) return;
        expect(answer.status).toBe(200);
        ids.push(answer.body["id"] as string);
        contents.set(answer.body["id"] as string, content);
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    while (ids.length < N) await new Promise((resolve) => setTimeout(resolve, 5));
    await first.killHard();
    await Promise.all(workers);
    const acknowledged = [...ids];
    expect(await waitUntilGone(first.chromaPid as number)).toBe(true);

    const second = await startMemsvc({ dataDir });
    expect(second.stderr()).toMatch(/"msg":"write journal replayed into the store"/);
    const stats = await json(`${second.baseUrl}/v1/stats`);
    expect(stats.body["total_memories"]).toBeGreaterThanOrEqual(acknowledged.length);
    const missing: string[] = [];
    for (const id of acknowledged) {
      const found = await json(`${second.baseUrl}/v1/memories/${id}`);
      if (found.status !== 200 || found.body["content"] !== contents.get(id)) missing.push(id);
    }
    expect(missing).toEqual([]);
    const search = await json(`${second.baseUrl}/v1/search`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ message: contents.get(acknowledged[137] as string), limit: 1 }),
    });
    expect((search.body["results"] as { memory: { content: string } }[])[0]?.memory.content).toBe(
      contents.get(acknowledged[137] as string),
    );
    expect(await second.stop()).toEqual({ code: 0, signal: null });
    // 200 acknowledged writes and two starts: ~5 s on a quiet machine, over the 60 s e2e default
    // at load 20 (one remember took 9 s there). The time is not what this test checks.
  }, 240_000);

  it("refuses to start on a data directory written by another embedder, naming both", async () => {
    const dataDir = makeTempDir();
    const first = await startMemsvc({ dataDir });
    await json(`${first.baseUrl}/v1/remember`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ content: "written with the word vectors" }),
    });
    expect(await first.stop()).toEqual({ code: 0, signal: null });

    const failed = startMemsvc({ dataDir, env: { MEMSVC_EMBEDDER_LOCAL_MODEL: "hashing" } });
    await expect(failed).rejects.toThrow(/exited \(\{"code":1,"signal":null\}\) before listening/);
    const message = await failed.catch((error: Error) => error.message);
    expect(message).toContain("memsvc: startup failed:");
    expect(message).toContain("local-glove-sif-v1:100");
    expect(message).toContain("local-hash-v1:1024");
  });

  it("warns at startup when authentication is off on a non-loopback address, and not on loopback", async () => {
    const open = await startMemsvc({ env: { MEMSVC_API_LISTEN_ADDR: ":0" } });
    const local = await startMemsvc();
    const logged = async (svc: typeof open, text: string) => {
      for (let i = 0; i < 50 && !svc.stderr().includes(text); i++)
        await new Promise((r) => setTimeout(r, 100));
    };
    // The warning is logged right after the startup line; stderr may arrive a little later.
    await Promise.all([logged(open, "authentication is off"), logged(local, '"msg":"listening"')]);
    try {
      expect(open.stderr()).toMatch(
        /"level":"warn","msg":"authentication is off and the API listens on :0/,
      );
      expect((await fetch(`${open.baseUrl}/healthz`)).status).toBe(200);
      expect(local.stderr()).not.toContain("authentication is off");
    } finally {
      await Promise.all([open.stop(), local.stop()]);
    }
  });

  it("deletes expired memories with the periodic sweep", async () => {
    const svc = await startMemsvc({ env: { MEMSVC_MEMORY_SWEEP_INTERVAL_SECONDS: "1" } });
    const stored = await json(`${svc.baseUrl}/v1/remember`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ content: "short lived", scope: "ttl", ttl_seconds: 1 }),
    });
    expect(stored.status).toBe(200);
    for (let i = 0; i < 100 && !svc.stderr().includes('"msg":"expired memories deleted"'); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(svc.stderr()).toContain('"msg":"expired memories deleted","deleted":1');
    expect((await fetch(`${svc.baseUrl}/v1/memories/${String(stored.body["id"])}`)).status).toBe(
      404,
    );
    expect(await svc.stop()).toEqual({ code: 0, signal: null });
  });

  it("exits 0 and stops its Chroma when signalled while still starting up", async () => {
    const dataDir = makeTempDir();
    const child = spawn(process.execPath, [MEMSVC_BIN, "serve"], {
      cwd: dataDir,
      env: memsvcEnv(dataDir),
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    const ended = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal })),
    );
    // Not started through startMemsvc, so make sure it cannot outlive a failing test.
    onTestFinished(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    });
    const chromaPid = await new Promise<number>((resolve) =>
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
        const pid = /"msg":"embedded Chroma started".*?"pid":(\d+)/.exec(stderr)?.[1];
        if (pid !== undefined) resolve(Number(pid));
      }),
    );
    child.kill("SIGTERM");
    expect(await ended).toEqual({ code: 0, signal: null });
    expect(await waitUntilGone(chromaPid)).toBe(true);
  });
});
