import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { readBody, streamBody } from "../../../../../shells/common/http/body-reader.js";

const LIMIT = 10;
const encoder = new TextEncoder();

/** A body streamed in the given chunks, recording whether anyone cancelled it. */
function streamed(chunks: readonly string[]) {
  const state = { cancelled: false, pulled: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks[state.pulled++];
      if (next === undefined) controller.close();
      else controller.enqueue(encoder.encode(next));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { body, state };
}

/** An app whose one route reads its body with `read` and answers what it got, or 413. */
function appReading(read: "whole" | "stream", stopAfter = Infinity) {
  const app = new Hono();
  app.post("/", async (c) => {
    try {
      if (read === "whole") {
        const body = await readBody(c, LIMIT);
        return body === undefined ? c.text("too large", 413) : c.text(body.toString());
      }
      let text = "";
      let seen = 0;
      for await (const chunk of streamBody(c, LIMIT, () => new Error("too large"))) {
        text += Buffer.from(chunk).toString();
        if (++seen >= stopAfter) break;
      }
      return c.text(text);
    } catch (error) {
      return c.text((error as Error).message, 413);
    }
  });
  return app;
}

function post(
  app: Hono,
  body: string | ReadableStream<Uint8Array>,
  headers: Record<string, string> = {},
) {
  return app.request("/", { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

describe("the one body reader", () => {
  for (const read of ["whole", "stream"] as const) {
    it(`${read}: reads a body within the limit, declared or streamed`, async () => {
      const declared = await post(appReading(read), "0123456789", { "content-length": "10" });
      expect([declared.status, await declared.text()]).toEqual([200, "0123456789"]);
      const { body } = streamed(["01234", "56789"]);
      const chunked = await post(appReading(read), body);
      expect([chunked.status, await chunked.text()]).toEqual([200, "0123456789"]);
    });

    it(`${read}: refuses a body declared over the limit without reading it`, async () => {
      const { body, state } = streamed(["0123456789", "x"]);
      const res = await post(appReading(read), body, { "content-length": "11" });
      expect(res.status).toBe(413);
      expect(state.pulled).toBeLessThanOrEqual(1); // a stream may pull once on its own, no more
      expect(state.cancelled).toBe(false);
    });

    it(`${read}: stops a streamed body at the limit and lets go of it, never cancels`, async () => {
      const { body, state } = streamed(["0123456", "789x", "more", "more"]);
      const res = await post(appReading(read), body);
      expect(res.status).toBe(413);
      expect(state.pulled).toBeLessThan(4);
      expect(state.cancelled).toBe(false);
    });
  }

  it("stream: a consumer that stops early lets go of the stream, never cancels it", async () => {
    const { body, state } = streamed(["01", "23", "45"]);
    const res = await post(appReading("stream", 1), body);
    expect([res.status, await res.text()]).toEqual([200, "01"]);
    expect(state.cancelled).toBe(false);
  });
});
