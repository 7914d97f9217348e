import { afterAll, describe, expect, it } from "vitest";
import {
  cleanupMemsvc,
  isAlive,
  runMemsvc,
  startMemsvc,
  type MemsvcProcess,
} from "../support/spawn-memsvc.js";

afterAll(cleanupMemsvc);

const JSON_HEADERS = { "Content-Type": "application/json" };

async function status(url: string, init?: RequestInit): Promise<number> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
    await res.body?.cancel();
    return res.status;
  } catch {
    return 0;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits until `check` holds, polling every `everyMs`, for at most `maxMs`; returns whether it did. */
async function eventually(check: () => Promise<boolean>, maxMs: number, everyMs = 20) {
  const until = Date.now() + maxMs;
  while (Date.now() < until) {
    if (await check()) return true;
    await sleep(everyMs);
  }
  return false;
}

describe("one owner per data directory (issue 7)", () => {
  it("refuses a second memsvc on the same data directory with a clear message, and allows it once the first stopped", async () => {
    const first = await startMemsvc();
    const second = runMemsvc(["serve"], {}, first.dataDir);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(
      new RegExp(
        `data directory .*chroma is in use by another memsvc \\(pid ${first.child.pid}\\)`,
      ),
    );
    expect(second.stderr).not.toContain("    at "); // no stack trace in the log line
    const mcp = runMemsvc(["mcp"], {}, first.dataDir);
    expect(mcp.code).toBe(1);
    expect(mcp.stderr).toContain("is in use by another memsvc");
    expect(await status(`${first.baseUrl}/readyz`)).toBe(200);
    expect(await first.stop("SIGTERM")).toEqual({ code: 0, signal: null });
    const third = await startMemsvc({ dataDir: first.dataDir });
    expect(await status(`${third.baseUrl}/readyz`)).toBe(200);
    await third.stop("SIGTERM");
  });
});

describe("embedded Chroma supervision (issue 7)", () => {
  it("survives kill -9 of its Chroma under load: logs it, answers 503/500 but keeps answering reads, restarts it, serves again and loses nothing acknowledged", async () => {
    const svc: MemsvcProcess = await startMemsvc();
    const firstChroma = svc.chromaPid as number;
    expect(firstChroma).toBeDefined();
    const acknowledged: { id: string; content: string }[] = [];
    const failures: number[] = [];
    let running = true;
    let n = 0;
    const worker = async () => {
      while (running) {
        const content = `load memory ${n++} ${Math.random()}`;
        const res = await fetch(`${svc.baseUrl}/v1/remember`, {
          method: "POST",
          headers: JSON_HEADERS,
          body: JSON.stringify({ content, scope: "permanent" }),
        }).catch(() => undefined);
        if (res === undefined) continue;
        const body = (await res.json()) as { id?: string };
        if (res.status === 200 && body.id !== undefined)
          acknowledged.push({ id: body.id, content });
        else failures.push(res.status);
      }
    };
    const workers = Array.from({ length: 4 }, worker);
    await eventually(async () => acknowledged.length >= 20, 20_000);

    const killedAt = performance.now();
    process.kill(firstChroma, "SIGKILL");
    let notReadyAfterMs: number | undefined;
    const sawNotReady = await eventually(async () => {
      const ready = await status(`${svc.baseUrl}/readyz`);
      if (ready === 503) notReadyAfterMs = performance.now() - killedAt;
      return ready === 503;
    }, 10_000);
    expect(sawNotReady).toBe(true);
    // Reads keep answering from the engine while the store is down (the decided behaviour).
    const known = acknowledged[0] as { id: string; content: string };
    const [byId, found] = await Promise.all([
      fetch(`${svc.baseUrl}/v1/memories/${known.id}`),
      fetch(`${svc.baseUrl}/v1/search`, {
        method: "POST",
        headers: JSON_HEADERS,
        body: JSON.stringify({ message: known.content, limit: 1 }),
      }),
    ]);
    expect(byId.status).toBe(200);
    expect(((await byId.json()) as { content?: string }).content).toBe(known.content);
    expect(found.status).toBe(200);
    const hits = ((await found.json()) as { results: { memory: { id: string } }[] }).results;
    expect(hits.map((h) => h.memory.id)).toEqual([known.id]);
    expect(
      await eventually(
        async () => /"level":"error".*embedded Chroma died/.test(svc.stderr()),
        5_000,
      ),
    ).toBe(true);
    // Back by itself: ready again, and remembering again.
    expect(
      await eventually(async () => (await status(`${svc.baseUrl}/readyz`)) === 200, 30_000, 100),
    ).toBe(true);
    const recoveredAfterMs = performance.now() - killedAt;
    const before = acknowledged.length;
    expect(await eventually(async () => acknowledged.length >= before + 20, 20_000)).toBe(true);
    running = false;
    await Promise.all(workers);

    expect(svc.chromaPid).not.toBe(firstChroma);
    expect(isAlive(firstChroma)).toBe(false);
    expect(svc.stderr()).toContain('"msg":"embedded Chroma restarted"');
    // 503 (store_busy, Retry-After) once the journal saw the store fail; 500 for a call that hit
    // the dead Chroma directly.
    expect(failures.every((code) => code === 500 || code === 503)).toBe(true);
    console.log(
      `kill -9 of Chroma: /readyz 503 after ${notReadyAfterMs?.toFixed(0)} ms, ready again after ${recoveredAfterMs.toFixed(0)} ms; ` +
        `${acknowledged.length} remembers acknowledged, ${failures.length} answered 500 or 503`,
    );

    // Nothing acknowledged is lost: restart on the same data and read every one back.
    expect(await svc.stop("SIGTERM")).toEqual({ code: 0, signal: null });
    const again = await startMemsvc({ dataDir: svc.dataDir });
    const missing: string[] = [];
    for (const { id, content } of acknowledged) {
      const res = await fetch(`${again.baseUrl}/v1/memories/${id}`);
      const body = (await res.json()) as { content?: string };
      if (res.status !== 200 || body.content !== content) missing.push(id);
    }
    expect(missing).toEqual([]);
    await again.stop("SIGTERM");
  });
});
