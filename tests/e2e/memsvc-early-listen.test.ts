import { afterAll, describe, expect, it } from "vitest";
import { cleanupMemsvc, makeTempDir, startMemsvc } from "../support/spawn-memsvc.js";

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
    const dataDir = makeTempDir();
    const first = await startMemsvc({ dataDir });
    const chroma = first.chromaPid;
    expect(chroma).toBeDefined();
    process.kill(chroma as number, "SIGSTOP");
    const acknowledged: { id: string; content: string }[] = [];
    const writer = async (w: number) => {
      for (let b = w; b < BACKLOG_IDS / BATCH; b += 4) {
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
        body.memories.forEach((m, i) =>
          acknowledged.push({ id: m.id, content: contents[i] as string }),
        );
      }
    };
    await Promise.all([0, 1, 2, 3].map(writer));
    const t0 = performance.now();
    await first.killHard();
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
      `early listen: writes ${Math.round(t0 - tStart)} ms, bound ${Math.round(t1 - t0)} ms, ready ${Math.round(t2 - t0)} ms, checks ${Math.round(performance.now() - t2)} ms`,
    );
    expect(await second.stop()).toEqual({ code: 0, signal: null });
  }, 120_000);
});
