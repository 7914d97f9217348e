import { describe, expect, it } from "vitest";
import { busyJournaledStore } from "../../../../support/busy-journaled-store.js";
import { makeApp } from "./memory-app-fixture.js";

const NDJSON = { "Content-Type": "application/x-ndjson" };

function lines(from: number, to: number): string[] {
  return Array.from(
    { length: to - from + 1 },
    (_, i) => `${JSON.stringify({ content: `memory ${from + i}`, scope: "permanent" })}\n`,
  );
}

/** A streamed (chunked) body: no Content-Length, as curl sends a pipe. */
function streamed(parts: readonly string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(encoder.encode(part));
      controller.close();
    },
  });
}

describe("POST /v1/import limits (issue 26)", () => {
  it("answers the documented shape when no limit is hit", async () => {
    const { app } = await makeApp({
      importLimits: { maxBytes: 10_000, maxLines: 5, maxMs: 60_000 },
    });
    const res = await app.request("/v1/import", {
      method: "POST",
      headers: NDJSON,
      body: lines(1, 5).join(""),
    });
    expect(await res.json()).toEqual({ imported: 5, deduplicated: 0, rejected: [] });
  });

  it("rejects a line nested deeper than any field before parsing it, and imports the rest", async () => {
    const { app } = await makeApp();
    const depth = 400_000;
    const deep = `{"content":"x","tags":${"[".repeat(depth)}${"]".repeat(depth)}}\n`;
    const res = await app.request("/v1/import", {
      method: "POST",
      headers: NDJSON,
      body: [...lines(1, 1), deep, ...lines(2, 2)].join(""),
    });
    expect(await res.json()).toEqual({
      imported: 2,
      deduplicated: 0,
      rejected: [
        {
          line: 2,
          error:
            "nested deeper than 32 levels of arrays and objects (no field of this API nests so deep)",
        },
      ],
    });
  });

  it("stops at the line limit, says through which line it stored, and a resumed import finishes", async () => {
    const { app, memory } = await makeApp({
      importLimits: { maxBytes: 10_000, maxLines: 4, maxMs: 60_000 },
    });
    const all = [...lines(1, 3), "not json\n", ...lines(5, 10)];
    const first = await app.request("/v1/import", {
      method: "POST",
      headers: NDJSON,
      body: all.join(""),
    });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({
      imported: 3,
      deduplicated: 0,
      rejected: [{ line: 4, error: expect.stringContaining("invalid JSON") as unknown }],
      incomplete: {
        reason: "line_limit",
        stored_through_line: 4,
        message:
          "import stopped after line 4 (at most 4 lines per request); send the lines after it in another request",
      },
    });
    // The client sends the lines after line 4, then after the next stop, until complete.
    const second = await app.request("/v1/import", {
      method: "POST",
      headers: NDJSON,
      body: all.slice(4).join(""),
    });
    expect(await second.json()).toMatchObject({
      imported: 4,
      incomplete: { stored_through_line: 4 },
    });
    const third = await app.request("/v1/import", {
      method: "POST",
      headers: NDJSON,
      body: all.slice(8).join(""),
    });
    expect(await third.json()).toEqual({ imported: 2, deduplicated: 0, rejected: [] });
    expect((await memory.stats()).total_memories).toBe(9);
  });

  it("stops a streamed body at the last whole line within the byte limit", async () => {
    const { app, memory } = await makeApp({
      importLimits: { maxBytes: 130, maxLines: 100, maxMs: 60_000 },
    });
    const all = lines(1, 6);
    const res = await app.request("/v1/import", {
      method: "POST",
      headers: NDJSON,
      body: streamed(all),
      duplex: "half",
    } as RequestInit);
    const answer = (await res.json()) as {
      imported: number;
      incomplete: { stored_through_line: number };
    };
    expect(answer.incomplete).toMatchObject({ reason: "size_limit" });
    const through = answer.incomplete.stored_through_line;
    expect(all.slice(0, through).join("").length).toBeLessThanOrEqual(130);
    expect(answer.imported).toBe(through);
    expect((await memory.stats()).total_memories).toBe(through);
  });

  it("refuses a body declared over the byte limit with 413 before reading it", async () => {
    const { app, memory } = await makeApp({
      importLimits: { maxBytes: 100, maxLines: 100, maxMs: 60_000 },
    });
    const body = lines(1, 6).join("");
    const res = await app.request("/v1/import", {
      method: "POST",
      headers: { ...NDJSON, "Content-Length": String(body.length) },
      body,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      error:
        "import body declared over the limit of 100 bytes; nothing was imported: send at most 100 lines per request",
    });
    expect((await memory.stats()).total_memories).toBe(0);
  });

  it("stops where the write journal's full backlog refused a batch, and a resumed import finishes", async () => {
    // The journal in front of a store that does not take writes yet: room for two batches of
    // 200 ids, then a writer is refused at once (store_busy), as the embedded Chroma's is when
    // an import outruns it (a 30,000-line import used to answer 503 after storing 23,800).
    const busy = busyJournaledStore(400);
    const { app, memory, store } = await makeApp({}, busy.store);
    const all = [...lines(1, 300), "not json\n", ...lines(302, 500)];
    const first = await app.request("/v1/import", {
      method: "POST",
      headers: NDJSON,
      body: all.join(""),
    });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({
      imported: 400,
      deduplicated: 0,
      rejected: [{ line: 301, error: expect.stringContaining("invalid JSON") as unknown }],
      incomplete: {
        reason: "store_busy",
        stored_through_line: 401,
        message:
          "import stopped after line 401 (the vector store is busy taking the earlier writes); send the lines after it in another request in a few seconds",
      },
    });
    busy.release();
    const second = await app.request("/v1/import", {
      method: "POST",
      headers: NDJSON,
      body: all.slice(401).join(""),
    });
    expect(await second.json()).toEqual({ imported: 99, deduplicated: 0, rejected: [] });
    expect((await memory.stats()).total_memories).toBe(499);
    await store.close();
  });
});
