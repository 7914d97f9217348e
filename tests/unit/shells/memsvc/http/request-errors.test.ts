import { describe, expect, it } from "vitest";
import { AgentServicesError } from "../../../../../core/errors.js";
import { MAX_BODY_BYTES } from "../../../../../shells/memsvc/http/index.js";
import { makeApp, post } from "./memory-app-fixture.js";

async function errorOf(res: Response): Promise<string> {
  expect(res.headers.get("content-type")).toContain("application/json");
  const body = (await res.json()) as { error?: unknown };
  expect(typeof body.error).toBe("string");
  return body.error as string;
}

describe("request errors", () => {
  it("names the missing or invalid field in a 400", async () => {
    const { app } = await makeApp();
    const missing = await app.request("/v1/remember", post({ type: "fact" }));
    expect(missing.status).toBe(400);
    expect(await errorOf(missing)).toMatch(/^content: /);
    const confidence = await app.request("/v1/remember", post({ content: "x", confidence: 1.5 }));
    expect(confidence.status).toBe(400);
    expect(await errorOf(confidence)).toContain(
      "confidence: expected a number between 0 and 1, got 1.5",
    );
    const limit = await app.request("/v1/search", post({ message: "x", limit: 0 }));
    expect(await errorOf(limit)).toMatch(/^limit: /);
    const budget = await app.request("/v1/recall", post({ message: "x", budget: 1.5 }));
    expect(await errorOf(budget)).toMatch(/^budget: /);
    // 2^53-1 seconds is no representable expiry date: a 400 naming the field, not a 500.
    const ttl = await app.request(
      "/v1/remember",
      post({ content: "x", scope: "ttl", ttl_seconds: Number.MAX_SAFE_INTEGER }),
    );
    expect(ttl.status).toBe(400);
    expect(await errorOf(ttl)).toMatch(/^ttl_seconds: expected an integer from 1 to 3155760000/);
  });

  it("answers 400 to malformed JSON, a non-object body, an empty body and a wrong Content-Type", async () => {
    const { app } = await makeApp();
    const cases: [RequestInit, RegExp][] = [
      [post("{not json"), /malformed JSON/],
      [post([1, 2]), /expected a JSON object, got an array/],
      [post('"text"'), /expected a JSON object, got a string/],
      [post("null"), /got null/],
      [post(""), /empty body/],
      [
        { method: "POST", headers: { "Content-Type": "text/plain" }, body: "{}" },
        /Content-Type: expected application\/json/,
      ],
      [{ method: "POST", body: '{"content":"x"}' }, /Content-Type: expected application\/json/],
    ];
    for (const [init, message] of cases) {
      const res = await app.request("/v1/remember", init);
      expect(res.status).toBe(400);
      expect(await errorOf(res)).toMatch(message);
    }
  });

  it("refuses a body nested deeper than any field of the API before parsing it", async () => {
    const { app, memory } = await makeApp();
    const depth = 400_000; // 800 KB: parsing it took ~0.3 s, its garbage ~1 s more
    const deep = `{"content":"x","tags":${"[".repeat(depth)}${"]".repeat(depth)}}`;
    for (const path of ["/v1/remember", "/v1/recall", "/v1/remember/batch"]) {
      const res = await app.request(path, post(deep));
      expect(res.status, path).toBe(400);
      expect(await errorOf(res)).toBe(
        "body: nested deeper than 32 levels of arrays and objects (no field of this API nests so deep)",
      );
    }
    // Brackets and escaped quotes inside strings are text, not nesting.
    const bracketed = `[[[[\\"${"{[".repeat(100)}`;
    const stored = await app.request("/v1/remember", post({ content: bracketed, tags: ["[["] }));
    expect(stored.status).toBe(200);
    const { id } = (await stored.json()) as { id: string };
    expect((await memory.get(id)).content).toBe(bracketed);
  });

  it("refuses content that Unicode normalisation makes longer than 1,048,576 characters", async () => {
    const { app, memory } = await makeApp();
    // 60,000 x U+FDFA: 180 KB of body, 1,080,000 characters once normalised (NFKC), which took
    // ~3 s of the event loop to embed and index as one memory.
    const expanding = "\uFDFA".repeat(60_000);
    const expected =
      "expected at most 1048576 characters once Unicode-normalised (NFKC); store a longer text as several memories";
    const single = await app.request("/v1/remember", post({ content: expanding }));
    expect(single.status).toBe(400);
    expect((await errorOf(single)).startsWith(`content: ${expected}, got `)).toBe(true);
    const batch = await app.request(
      "/v1/remember/batch",
      post({ memories: [{ content: "fine" }, { content: expanding }] }),
    );
    expect(batch.status).toBe(400);
    expect(await errorOf(batch)).toMatch(/^memories\[1\]\.content: expected at most 1048576/);
    const stored = await app.request("/v1/remember", post({ content: "short \uFDFA" }));
    expect(stored.status).toBe(200);
    const { id } = (await stored.json()) as { id: string };
    const patch = await app.request(`/v1/memories/${id}`, {
      ...post({ content: expanding }),
      method: "PATCH",
    });
    expect(patch.status).toBe(400);
    expect(await errorOf(patch)).toMatch(/^content: expected at most 1048576/);
    expect((await memory.get(id)).content).toBe("short \uFDFA");
  });

  it("answers 400 to an id that is not a UUID and 404 to an unknown UUID", async () => {
    const { app } = await makeApp();
    const bad = await app.request("/v1/memories/not-a-uuid");
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toMatch(/^id: expected a UUID/);
    const unknown = await app.request("/v1/memories/0b6f3c1e-6d1c-4f1e-9a57-2f0d7f4b8c11", {
      method: "DELETE",
    });
    expect(unknown.status).toBe(404);
  });

  it("answers 413 to a declared body over 1,048,576 bytes without reading it", async () => {
    const { app } = await makeApp();
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const res = await app.request("/v1/remember", {
      method: "POST",
      headers: { "Content-Type": "application/json", "Content-Length": String(MAX_BODY_BYTES + 1) },
      body,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await errorOf(res)).toContain("1048576 bytes");
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it("stops reading an undeclared (chunked) body at the limit and answers 413", async () => {
    const { app } = await makeApp();
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024).fill(32));
      },
    });
    const res = await app.request("/v1/remember", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(sent).toBeLessThan(MAX_BODY_BYTES + 4 * 64 * 1024);
  });

  it("accepts a body of exactly 1,048,576 bytes", async () => {
    const { app } = await makeApp();
    const prefix = '{"content":"';
    const suffix = '"}';
    const text = prefix + "a".repeat(MAX_BODY_BYTES - prefix.length - suffix.length) + suffix;
    const res = await app.request("/v1/remember", post(text));
    expect(res.status).toBe(200);
  });

  it("answers unknown routes with a JSON 404 and wrong methods with a JSON 405 and Allow", async () => {
    const { app } = await makeApp();
    const missing = await app.request("/v2/remember");
    expect(missing.status).toBe(404);
    expect(await errorOf(missing)).toBe("no route for GET /v2/remember");
    const wrong = await app.request("/v1/remember");
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("POST");
    expect(await errorOf(wrong)).toContain("method GET not allowed");
    const put = await app.request("/v1/memories/0b6f3c1e-6d1c-4f1e-9a57-2f0d7f4b8c11", {
      method: "PUT",
    });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toContain("DELETE");
  });

  it("maps a failing embedder to 500 'failed to generate embedding' without leaking the cause", async () => {
    const { app, embedder, lines } = await makeApp();
    embedder.failWith(new Error("connect ECONNREFUSED api.cohere.internal:443 key=sk-live-123"));
    const res = await app.request("/v1/remember", post({ content: "x" }));
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: "failed to generate embedding" });
    expect(text).not.toMatch(/cohere|sk-live|ECONNREFUSED|at /);
    const logged = lines.find((l) => l.level === "error");
    expect(String(logged?.fields["cause"])).toContain("ECONNREFUSED");
  });

  it("maps a failing store to 500 'vector store unavailable' on writes, and keeps serving reads from the engine", async () => {
    const { app, store } = await makeApp();
    const stored = (await (
      await app.request("/v1/remember", post({ content: "kept in process" }))
    ).json()) as { id: string };
    store.failWith(new Error("fetch failed: 10.0.0.7:8000"));
    for (const [path, init] of [
      ["/v1/remember", post({ content: "x" })],
      ["/v1/remember/batch", post({ memories: [{ content: "x" }] })],
      [`/v1/memories/${stored.id}`, { method: "DELETE" }],
    ] as const) {
      const res = await app.request(path, init);
      expect(res.status, path).toBe(500);
      expect(await res.json()).toEqual({ error: "vector store unavailable" });
    }
    for (const [path, init] of [
      ["/v1/stats", {}],
      ["/v1/search", post({ message: "kept" })],
      [`/v1/memories/${stored.id}`, {}],
    ] as const) {
      expect((await app.request(path, init)).status, path).toBe(200);
    }
  });

  it("answers writes refused up front with 507 (a full disk) or 503 (a busy store), Retry-After and a message to act on", async () => {
    const { app, store } = await makeApp();
    for (const [code, status, text] of [
      ["insufficient_storage", 507, /^insufficient storage: the service's disk is full/],
      ["store_busy", 503, /^vector store busy: writes are refused for now/],
    ] as const) {
      store.upsert = () =>
        Promise.reject(new AgentServicesError(code, "the write journal in /data/journal is full"));
      const res = await app.request("/v1/remember", post({ content: "x" }));
      expect(res.status).toBe(status);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      const message = await errorOf(res);
      expect(message).toMatch(text);
      expect(message).not.toContain("/data/journal");
    }
  });

  it("maps an unexpected error to 500 'internal error' with no stack trace", async () => {
    const { app, memory } = await makeApp();
    memory.stats = () => Promise.reject(new TypeError("cannot read properties of undefined"));
    const res = await app.request("/v1/stats");
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: "internal error" });
  });
});
