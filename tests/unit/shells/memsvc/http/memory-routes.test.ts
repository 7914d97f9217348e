import { describe, expect, it } from "vitest";
import { makeApp, post } from "./memory-app-fixture.js";

describe("memory API routes", () => {
  it("answers /healthz with status ok", async () => {
    const { app } = await makeApp();
    const res = await app.request("/healthz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("stores a batch and lists {id, stored, deduplicated} per item in order", async () => {
    const { app } = await makeApp();
    const res = await app.request(
      "/v1/remember/batch",
      post({ memories: [{ content: "a" }, { content: "b" }, { content: "a" }] }),
    );
    expect(res.status).toBe(200);
    const { memories } = (await res.json()) as {
      memories: { id: string; stored: boolean; deduplicated: boolean }[];
    };
    expect(memories.map((m) => [m.stored, m.deduplicated])).toEqual([
      [true, false],
      [true, false],
      [true, true],
    ]);
    expect(memories[2]?.id).toBe(memories[0]?.id);
    expect((await app.request(`/v1/memories/${memories[1]?.id}`)).status).toBe(200);
  });

  it("refuses a batch with an invalid item with 400 naming the item and field, storing nothing", async () => {
    const { app } = await makeApp();
    const res = await app.request(
      "/v1/remember/batch",
      post({ memories: [{ content: "fine" }, { content: "x", scope: "forever" }] }),
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/^memories\[1\]\.scope: /);
    const stats = (await (await app.request("/v1/stats")).json()) as { total_memories: number };
    expect(stats.total_memories).toBe(0);
  });

  it("stores a memory, returns it in full, deletes it and then answers 404", async () => {
    const { app } = await makeApp();
    const res = await app.request(
      "/v1/remember",
      post({ content: "Deploys run on Fridays", type: "rule", tags: ["ops"] }),
    );
    expect(res.status).toBe(200);
    const { id, stored } = (await res.json()) as { id: string; stored: boolean };
    expect(stored).toBe(true);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const got = await app.request(`/v1/memories/${id}`);
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual({
      id,
      content: "Deploys run on Fridays",
      type: "rule",
      scope: "session",
      tags: ["ops"],
      project: "",
      confidence: 1,
      created_at: "2026-11-21T10:00:00.000Z",
      updated_at: "2026-11-21T10:00:00.000Z",
      last_accessed: "2026-11-21T10:00:00.000Z",
      access_count: 0,
      expires_at: "2026-11-22T10:00:00.000Z",
    });

    const deleted = await app.request(`/v1/memories/${id}`, { method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ deleted: true });
    const gone = await app.request(`/v1/memories/${id}`);
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { error: string }).error).toContain(id);
  });

  it("recalls a formatted context and searches with the memory subset and a score", async () => {
    const { app } = await makeApp();
    await app.request(
      "/v1/remember",
      post({ content: "deploys run on fridays", type: "rule", scope: "permanent" }),
    );
    const recall = await app.request("/v1/recall", post({ message: "when do deploys run" }));
    expect(recall.status).toBe(200);
    const body = (await recall.json()) as {
      context: string;
      memory_count: number;
      tokens_used: number;
    };
    expect(body.context).toBe("--- Relevant Memories ---\n[rule] deploys run on fridays\n");
    expect(body.memory_count).toBe(1);
    expect(body.tokens_used).toBeGreaterThan(0);

    const search = await app.request("/v1/search", post({ message: "deploys", limit: 5 }));
    const { results } = (await search.json()) as {
      results: { memory: Record<string, unknown>; score: number }[];
    };
    expect(results).toHaveLength(1);
    expect(Object.keys(results[0]?.memory ?? {}).sort()).toEqual([
      "confidence",
      "content",
      "id",
      "scope",
      "type",
    ]);
    expect(results[0]?.score).toBeGreaterThan(0);
  });

  it("reports stats with every type and scope key", async () => {
    const { app } = await makeApp();
    await app.request("/v1/remember", post({ content: "a fact" }));
    const res = await app.request("/v1/stats");
    expect(await res.json()).toEqual({
      total_memories: 1,
      by_type: { rule: 0, fact: 1, episode: 0, procedure: 0, preference: 0 },
      by_scope: { permanent: 0, project: 0, session: 1, ttl: 0 },
    });
  });

  it("answers /readyz 200 when the check passes and 503 with its message when it fails", async () => {
    const ready = await makeApp();
    expect((await ready.app.request("/readyz")).status).toBe(200);
    const failing = await makeApp({
      readiness: () => Promise.reject(new Error("vector store unavailable")),
    });
    const res = await failing.app.request("/readyz");
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: "vector store unavailable" });
  });

  it("serves an OpenAPI 3.1 document whose request schemas come from the core's validation", async () => {
    const { app } = await makeApp();
    const doc = (await (await app.request("/openapi.json")).json()) as {
      openapi: string;
      info: { version: string };
      paths: Record<string, unknown>;
      components: {
        schemas: Record<
          string,
          { required?: string[]; properties?: Record<string, { enum?: string[] }> }
        >;
      };
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("9.9.9");
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/healthz",
        "/v1/remember",
        "/v1/recall",
        "/v1/search",
        "/v1/memories/{id}",
        "/v1/stats",
        "/mcp",
      ]),
    );
    const remember = doc.components.schemas["RememberRequest"];
    expect(remember?.required).toEqual(["content"]);
    expect(remember?.properties?.["type"]?.enum).toEqual([
      "rule",
      "fact",
      "episode",
      "procedure",
      "preference",
    ]);
  });

  it("logs one line per request with method, path, status and duration", async () => {
    const { app, lines } = await makeApp();
    await app.request("/v1/stats?q=secret");
    const requests = lines.filter((l) => l.msg === "request");
    expect(requests).toHaveLength(1);
    expect(requests[0]?.fields).toMatchObject({ method: "GET", path: "/v1/stats", status: 200 });
    expect(typeof requests[0]?.fields["ms"]).toBe("number");
  });
});
