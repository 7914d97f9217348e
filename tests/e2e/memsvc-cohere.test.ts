import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeCohereServer, type FakeCohereFailure } from "../support/fake-cohere-server.js";
import { cleanupMemsvc, startMemsvc, type MemsvcProcess } from "../support/spawn-memsvc.js";

const KEY = "test-cohere-key-42";
let cohere: FakeCohereServer;
let svc: MemsvcProcess;

beforeAll(async () => {
  cohere = await FakeCohereServer.start();
  svc = await startMemsvc({
    env: {
      MEMSVC_EMBEDDER_PROVIDER: "cohere",
      MEMSVC_EMBEDDER_COHERE_BASE_URL: cohere.url,
      MEMSVC_EMBEDDER_COHERE_TIMEOUT_SECONDS: "1",
      MEMSVC_EMBEDDER_COHERE_MAX_RETRIES: "1",
      COHERE_API_KEY: KEY,
    },
  });
});
afterAll(async () => {
  await cleanupMemsvc();
  await cohere.close();
});

/** Never waits forever: a hang fails the test with a clear timeout instead. */
async function post(path: string, body: unknown) {
  const res = await fetch(`${svc.baseUrl}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  return { status: res.status, text: await res.text() };
}

describe("memsvc with the Cohere embedder (fake Cohere server)", () => {
  it("names the Cohere embedder on startup", () => {
    expect(svc.embedder).toBe("cohere:embed-v4.0:1024 (1024 dimensions)");
  });

  it("embeds documents as search_document and queries as search_query with the configured key", async () => {
    const stored = await post("/v1/remember", { content: "the staging database is read only" });
    expect(stored.status).toBe(200);
    const search = await post("/v1/search", { message: "staging database" });
    expect(search.status).toBe(200);
    const results = (JSON.parse(search.text) as { results: { memory: { content: string } }[] })
      .results;
    expect(results[0]?.memory.content).toBe("the staging database is read only");
    const kinds = cohere.requests.map((r) => r.inputType);
    expect(kinds).toContain("search_document");
    expect(kinds).toContain("search_query");
    expect(
      cohere.requests.every((r) => r.authorization === `Bearer ${KEY}` && r.model === "embed-v4.0"),
    ).toBe(true);
    expect(cohere.requests[0]?.outputDimension).toBe(1024);
  });

  const failures: [string, FakeCohereFailure][] = [
    ["429 rate limit", { kind: "status", status: 429 }],
    ["500 server error", { kind: "status", status: 500 }],
    ["slow answer past the timeout", { kind: "slow", delayMs: 5_000 }],
    ["malformed body", { kind: "malformed" }],
    ["dropped connection", { kind: "drop" }],
  ];
  for (const [name, failure] of failures) {
    it(`turns a ${name} into a clear 500 without leaking the key or the provider address`, async () => {
      cohere.failAlways(failure);
      try {
        for (const [path, body] of [
          ["/v1/remember", { content: `something new about ${name}` }],
          ["/v1/recall", { message: "staging" }],
        ] as const) {
          const res = await post(path, body);
          expect(res.status, path).toBe(500);
          expect(JSON.parse(res.text)).toEqual({ error: "failed to generate embedding" });
          expect(res.text).not.toContain(KEY);
          expect(res.text).not.toContain(String(new URL(cohere.url).port));
        }
      } finally {
        cohere.failAlways(undefined);
      }
    });
  }

  it("logs the cause of embedder failures on stderr without the key", () => {
    expect(svc.stderr()).toContain('"msg":"request failed","code":"embedder_failed"');
    expect(svc.stderr()).not.toContain(KEY);
  });

  it("answers /readyz 503 while Cohere fails and 200 once it answers", async () => {
    cohere.failAlways({ kind: "status", status: 503 });
    try {
      const res = await fetch(`${svc.baseUrl}/readyz`, { signal: AbortSignal.timeout(20_000) });
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ error: "embedder unavailable" });
    } finally {
      cohere.failAlways(undefined);
    }
    expect((await fetch(`${svc.baseUrl}/readyz`)).status).toBe(200);
  });

  it("keeps serving once Cohere recovers", async () => {
    expect((await post("/v1/search", { message: "staging" })).status).toBe(200);
  });
});
