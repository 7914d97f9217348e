import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupMemsvc, makeTempDir, startMemsvc } from "../support/spawn-memsvc.js";

afterAll(cleanupMemsvc);

/** How long the soak writes and kills (default 60 s, then the cycle under way ends; `MEMSVC_SOAK_SECONDS` to change it). */
const SOAK_MS = Number(process.env["MEMSVC_SOAK_SECONDS"] ?? 60) * 1000;
const WRITERS = 6;

/** What an acknowledged write leaves of a memory: its content, or gone. */
type Expected = { readonly content: string } | "deleted";

const json = { "Content-Type": "application/json" };

/**
 * A kill -9 soak: cycles of (start memsvc on the same data directory, mixed writes from several
 * clients: remember, batch, PATCH, DELETE, import, then kill -9 of the service and its Chroma in
 * the middle of them), checking after every restart that each acknowledged write is there as it
 * was acknowledged (a memory with a write in flight at the kill may be either way: it is left out
 * until a later acknowledged write decides it). Prints cycles, acknowledged writes and lost.
 */
describe("memsvc kill -9 soak", () => {
  it("loses no acknowledged write over repeated kill -9 under mixed writes", async () => {
    const dataDir = makeTempDir();
    const expected = new Map<string, Expected>();
    const uncertain = new Set<string>();
    let acknowledged = 0;
    let lost = 0;
    let cycles = 0;
    let n = 0;
    const started = performance.now();
    const lostSamples: string[] = [];
    /** Every acknowledged write so far is there, as acknowledged; counts the ones that are not. */
    const checkAcknowledged = async (baseUrl: string): Promise<void> => {
      for (const [id, want] of expected) {
        if (uncertain.has(id)) continue;
        const res = await fetch(`${baseUrl}/v1/memories/${id}`);
        const body = (await res.json()) as { content?: string };
        const ok = want === "deleted" ? res.status === 404 : body.content === want.content;
        if (!ok) {
          lost += 1;
          if (lostSamples.length < 5)
            lostSamples.push(`${id}: ${res.status} ${JSON.stringify(want)}`);
        }
      }
    };

    while (performance.now() - started < SOAK_MS) {
      const svc = await startMemsvc({ dataDir });
      await checkAcknowledged(svc.baseUrl);
      cycles += 1;
      const live = () => [...expected].filter(([id, w]) => w !== "deleted" && !uncertain.has(id));
      let stop = false;
      const writer = async (w: number): Promise<void> => {
        while (!stop) {
          const kind = (n += 1) % 5;
          const pick = live()[Math.floor(Math.random() * Math.max(1, live().length))]?.[0];
          // The ids this write touches, uncertain until it is answered.
          let touched: string[] = [];
          let apply: (answer: unknown) => void = () => undefined;
          let request: () => Promise<Response>;
          if (kind === 0 || (pick === undefined && kind >= 2)) {
            const content = `soak ${w} remember ${n} ${randomUUID()}`;
            request = () =>
              fetch(`${svc.baseUrl}/v1/remember`, {
                method: "POST",
                headers: json,
                body: JSON.stringify({ content, scope: "permanent" }),
              });
            apply = (a) => expected.set((a as { id: string }).id, { content });
          } else if (kind === 1) {
            const contents = Array.from(
              { length: 5 },
              (_, i) => `soak ${w} batch ${n}.${i} ${randomUUID()}`,
            );
            request = () =>
              fetch(`${svc.baseUrl}/v1/remember/batch`, {
                method: "POST",
                headers: json,
                body: JSON.stringify({
                  memories: contents.map((content) => ({ content, scope: "permanent" })),
                }),
              });
            apply = (a) =>
              (a as { memories: { id: string }[] }).memories.forEach((m, i) =>
                expected.set(m.id, { content: contents[i] as string }),
              );
          } else if (kind === 2) {
            const content = `soak ${w} patched ${n} ${randomUUID()}`;
            touched = [pick as string];
            request = () =>
              fetch(`${svc.baseUrl}/v1/memories/${pick}`, {
                method: "PATCH",
                headers: json,
                body: JSON.stringify({ content }),
              });
            apply = () => expected.set(pick as string, { content });
          } else if (kind === 3) {
            touched = [pick as string];
            request = () => fetch(`${svc.baseUrl}/v1/memories/${pick}`, { method: "DELETE" });
            apply = () => expected.set(pick as string, "deleted");
          } else {
            const lines = Array.from({ length: 20 }, (_, i) => ({
              id: randomUUID(),
              content: `soak ${w} import ${n}.${i} ${randomUUID()}`,
              scope: "permanent",
            }));
            touched = lines.map((l) => l.id);
            request = () =>
              fetch(`${svc.baseUrl}/v1/import`, {
                method: "POST",
                headers: { "Content-Type": "application/x-ndjson" },
                body: lines.map((l) => JSON.stringify(l)).join("\n"),
              });
            apply = (a) => {
              if ((a as { imported: number }).imported !== lines.length) return;
              for (const l of lines) expected.set(l.id, { content: l.content });
            };
          }
          for (const id of touched) uncertain.add(id);
          const res = await request().catch(() => undefined);
          if (res === undefined) return; // killed: what it touched stays uncertain
          const body = (await res.json().catch(() => undefined)) as unknown;
          if (res.status === 200 && body !== undefined) {
            apply(body);
            acknowledged += 1;
            for (const id of touched) uncertain.delete(id);
          } else if (res.status === 404 || res.status === 400) {
            for (const id of touched) uncertain.delete(id);
          } else {
            expect([503, 507], `${res.status} ${JSON.stringify(body)}`).toContain(res.status);
          }
        }
      };
      const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
      await new Promise((resolve) => setTimeout(resolve, 1_000 + Math.random() * 2_000));
      await svc.killHard();
      stop = true;
      await Promise.all(writers);
    }
    const last = await startMemsvc({ dataDir });
    await checkAcknowledged(last.baseUrl);
    expect(await last.stop()).toEqual({ code: 0, signal: null });
    console.log(
      `kill -9 soak: ${cycles} cycles in ${((performance.now() - started) / 1000).toFixed(0)} s, ` +
        `${acknowledged} writes acknowledged (${expected.size} memories checked after every restart), lost ${lost}`,
    );
    expect(lostSamples).toEqual([]);
    expect(lost).toBe(0);
    expect(cycles).toBeGreaterThan(2);
  }, 600_000);
});
