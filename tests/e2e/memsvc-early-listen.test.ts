import { request } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { DRAIN_DEADLINE_MS } from "../../shells/common/drain-server.js";
import {
  cleanupMemsvc,
  makeTempDir,
  startMemsvc,
  type MemsvcProcess,
} from "../support/spawn-memsvc.js";

afterAll(cleanupMemsvc);

/** Acknowledged ids the crash leaves in the journal: a few seconds of replay into Chroma. */
const BACKLOG_IDS = 3_000;
const BATCH = 100;
const json = { "Content-Type": "application/json" };

/**
 * Issue 26: after a crash with a large journal backlog the service listens at once (`/healthz`
 * 200, `/readyz` 503 saying how far the replay is, the API 503 with Retry-After) and serves every
 * acknowledged write once it is ready. The backlog is built fast: Chroma is stopped (SIGSTOP), so
 * the journal acknowledges writes that never reach it, then the service and Chroma get kill -9.
 */
describe("memsvc listens before replaying a crash's write journal", () => {
  it("answers /healthz and a 503 /readyz with the replay's progress, then has every acknowledged write", async () => {
    const tStart = performance.now();
    const crashed = await crashWithBacklog(BACKLOG_IDS);
    const { dataDir } = crashed;
    const acknowledged = [...crashed.acknowledged].map(([id, content]) => ({ id, content }));
    const t0 = performance.now();
    expect(acknowledged.length).toBe(BACKLOG_IDS);

    const second = await startMemsvc({ dataDir, untilBound: true });
    const t1 = performance.now();
    const health = await fetch(`${second.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    // Poll until the replay shows (Chroma starts first), while it is under way.
    let replaying: string | undefined;
    for (let i = 0; i < 600 && replaying === undefined; i++) {
      const ready = await fetch(`${second.baseUrl}/readyz`);
      const body = (await ready.json()) as { error?: string; status?: string };
      if (ready.status === 200) break;
      expect(ready.status).toBe(503);
      if (body.error?.includes("replaying the write journal") === true) replaying = body.error;
      else await new Promise((r) => setTimeout(r, 50));
    }
    expect(replaying).toMatch(/^starting: replaying the write journal: [\d,]+ of 3,000 ids$/);
    const early = await fetch(`${second.baseUrl}/v1/memories/${acknowledged[0]?.id}`);
    // Either still starting (503 + Retry-After) or, if the replay just ended, the real answer.
    if (early.status === 503) expect(early.headers.get("retry-after")).toBe("5");
    else expect(early.status).toBe(200);

    for (let ready = false; !ready;) {
      ready = (await fetch(`${second.baseUrl}/readyz`)).status === 200;
      if (!ready) await new Promise((r) => setTimeout(r, 100));
    }
    const t2 = performance.now();
    // Every acknowledged write, as the store now holds it (one export), and a sample by id.
    const exported = await (await fetch(`${second.baseUrl}/v1/export`)).text();
    const stored = new Map<string, string>();
    for (const line of exported.split("\n").filter((l) => l !== "")) {
      const m = JSON.parse(line) as { id: string; content: string };
      stored.set(m.id, m.content);
    }
    const missing = acknowledged.filter(({ id, content }) => stored.get(id) !== content);
    for (const { id, content } of acknowledged.filter((_, i) => i % 100 === 0)) {
      const res = await fetch(`${second.baseUrl}/v1/memories/${id}`);
      const body = (await res.json()) as { content?: string };
      if (res.status !== 200 || body.content !== content) missing.push({ id, content });
    }
    expect(missing).toEqual([]);
    console.log(
      `early listen: writes and kill ${Math.round(t0 - tStart)} ms, bound ${Math.round(t1 - t0)} ms, ready ${Math.round(t2 - t0)} ms, checks ${Math.round(performance.now() - t2)} ms`,
    );
    expect(await second.stop()).toEqual({ code: 0, signal: null });
  }, 120_000);
});

/** Acknowledged ids for the stop test: a replay of ~10 s, so a SIGTERM lands well inside it. */
const STOP_BACKLOG_IDS = 10_000;

/**
 * Leaves `ids` acknowledged writes in the journal of a fresh data directory: Chroma is stopped
 * (SIGSTOP) while they are written, then the service and Chroma get kill -9.
 */
async function crashWithBacklog(
  ids: number,
): Promise<{ dataDir: string; acknowledged: Map<string, string> }> {
  const dataDir = makeTempDir();
  const first = await startMemsvc({ dataDir });
  expect(first.chromaPid).toBeDefined();
  process.kill(first.chromaPid as number, "SIGSTOP");
  const acknowledged = new Map<string, string>();
  const writer = async (w: number) => {
    for (let b = w; b < ids / BATCH; b += 4) {
      const contents = Array.from({ length: BATCH }, (_, i) => `backlog ${b}.${i}`);
      const res = await fetch(`${first.baseUrl}/v1/remember/batch`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({
          memories: contents.map((content) => ({ content, scope: "permanent" })),
        }),
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { memories: { id: string }[] };
      body.memories.forEach((m, i) => acknowledged.set(m.id, contents[i] as string));
    }
  };
  await Promise.all([0, 1, 2, 3].map(writer));
  await first.killHard();
  return { dataDir, acknowledged };
}

/** Polls `/readyz` until it says the replay is under way and not done: `[done, total]`. */
async function replayUnderWay(svc: MemsvcProcess): Promise<[number, number]> {
  for (let i = 0; i < 1_200; i++) {
    const body = (await (await fetch(`${svc.baseUrl}/readyz`)).json()) as { error?: string };
    const m = /replaying the write journal: ([\d,]+) of ([\d,]+) ids/.exec(body.error ?? "");
    const [done, total] = [m?.[1], m?.[2]].map((n) => Number((n ?? "").replaceAll(",", "")));
    if (m !== null && (done as number) < (total as number))
      return [done as number, total as number];
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the replay never showed in /readyz:\n${svc.stderr()}`);
}

/** One request with a given Host and Origin (fetch may not set Host). */
function statusOf(url: string, path: string, headers: Record<string, string>): Promise<number> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, headers, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("memsvc stopped during the replay of a crash's write journal (issue 26)", () => {
  it("refuses foreign Hosts and Origins while starting, stops the replay at SIGTERM within the drain deadline, and the next start has every acknowledged write", async () => {
    const { dataDir, acknowledged } = await crashWithBacklog(STOP_BACKLOG_IDS);
    expect(acknowledged.size).toBe(STOP_BACKLOG_IDS);

    const second = await startMemsvc({ dataDir, untilBound: true });
    const [done, total] = await replayUnderWay(second);
    expect(total).toBe(STOP_BACKLOG_IDS);
    expect(done).toBeLessThan(total);
    // The starting answers apply the Host and Origin checks of the started service.
    const port = new URL(second.baseUrl).port;
    expect(await statusOf(second.baseUrl, "/readyz", { Host: `evil.example:${port}` })).toBe(421);
    expect(
      await statusOf(second.baseUrl, "/v1/export", {
        Host: `127.0.0.1:${port}`,
        Origin: "https://evil.example",
      }),
    ).toBe(403);
    expect(await statusOf(second.baseUrl, "/healthz", { Host: `localhost:${port}` })).toBe(200);

    const signalled = performance.now();
    expect(await second.stop("SIGTERM")).toEqual({ code: 0, signal: null });
    const exitMs = performance.now() - signalled;
    expect(exitMs).toBeLessThan(DRAIN_DEADLINE_MS);
    // Stopped inside the replay: the log says how many ids the journal keeps for the next start.
    const stopped = second
      .stderr()
      .split("\n")
      .filter((line) => line.includes('"msg":"stopped during startup"'))
      .map(
        (line) => JSON.parse(line) as { signal: string; replayed_ids: number; left_ids: number },
      );
    expect(stopped).toHaveLength(1);
    expect(stopped[0]?.signal).toBe("SIGTERM");
    expect(stopped[0]?.left_ids).toBeGreaterThan(0);
    expect(second.stdout()).not.toMatch(/listening on/);

    const third = await startMemsvc({ dataDir });
    const exported = await (await fetch(`${third.baseUrl}/v1/export`)).text();
    const stored = new Map<string, string>();
    for (const line of exported.split("\n").filter((l) => l !== "")) {
      const m = JSON.parse(line) as { id: string; content: string };
      stored.set(m.id, m.content);
    }
    const missing = [...acknowledged].filter(([id, content]) => stored.get(id) !== content);
    expect(missing).toEqual([]);
    console.log(
      `stop during replay: ${stopped[0]?.replayed_ids} of ${total} ids replayed, ${stopped[0]?.left_ids} left; exit ${Math.round(exitMs)} ms after SIGTERM`,
    );
    expect(await third.stop()).toEqual({ code: 0, signal: null });
  }, 240_000);
});
