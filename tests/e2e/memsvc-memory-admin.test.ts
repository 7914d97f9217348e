import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanupMemsvc, startMemsvc, type MemsvcProcess } from "../support/spawn-memsvc.js";

const TOKEN = "admin-e2e-token";
const AUTH = { Authorization: `Bearer ${TOKEN}` };
let svc: MemsvcProcess;

beforeAll(async () => {
  svc = await startMemsvc({ env: { MEMSVC_API_AUTH_TOKEN: TOKEN } });
});
afterAll(cleanupMemsvc);

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
  text: string;
}

async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const init: RequestInit = { method, headers: { ...AUTH, ...headers } };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)["Content-Type"] ??= "application/json";
  }
  const res = await fetch(`${svc.baseUrl}${path}`, init);
  const text = await res.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // NDJSON or empty: the test reads `text`.
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

interface Listed {
  memories: { id: string; content: string; tags: string[] }[];
  next_cursor: string | null;
}

describe("the memory management API over HTTP (issue 11)", () => {
  let ids: string[] = [];

  beforeAll(async () => {
    const res = await call("POST", "/v1/remember/batch", {
      memories: [
        { content: "Deploys run on Fridays", type: "rule", scope: "permanent", tags: ["ops"] },
        {
          content: "Billing uses Stripe",
          project: "billing",
          scope: "project",
          tags: ["ops", "pay"],
        },
        { content: "Invoices go out monthly", project: "billing", scope: "project" },
        { content: "The web app is in React", project: "web", scope: "project" },
      ],
    });
    ids = (res.body.memories as { id: string }[]).map((m) => m.id);
  });

  it("rejects an unknown field with a suggestion instead of storing a session memory", async () => {
    const res = await call("POST", "/v1/remember", { content: "keep", scop: "permanent" });
    expect(res).toMatchObject({
      status: 400,
      body: { error: 'unknown field "scop"; did you mean "scope"?' },
    });
  });

  it("lists with filters and pages with a cursor", async () => {
    const all = await call("GET", "/v1/memories?limit=2&order=oldest");
    expect(all.status).toBe(200);
    const first = all.body as unknown as Listed;
    expect(first.memories.map((m) => m.id)).toEqual([...ids].sort().slice(0, 2));
    expect(first.next_cursor).toEqual(expect.any(String));
    const next = (
      await call("GET", `/v1/memories?limit=2&order=oldest&cursor=${first.next_cursor}`)
    ).body as unknown as Listed;
    expect([...first.memories, ...next.memories].map((m) => m.id).sort()).toEqual([...ids].sort());
    const billing = (await call("GET", "/v1/memories?project=billing&tag=ops&tag=pay"))
      .body as unknown as Listed;
    expect(billing.memories.map((m) => m.content)).toEqual(["Billing uses Stripe"]);
    const q = (await call("GET", "/v1/memories?q=react")).body as unknown as Listed;
    expect(q.memories.map((m) => m.content)).toEqual(["The web app is in React"]);
  });

  it.each([
    ["/v1/memories?limit=0", "limit: expected an integer between 1 and 1000, got 0"],
    ["/v1/memories?limit=many", 'limit: expected an integer between 1 and 1000, got "many"'],
    ["/v1/memories?cursor=xyz", "cursor: expected the next_cursor of a previous answer"],
    ["/v1/memories?projekt=a", 'unknown field "projekt"; did you mean "project"?'],
    [
      "/v1/memories?type=memo",
      'type: expected one of "rule", "fact", "episode", "procedure", "preference", got "memo"',
    ],
    ["/v1/export?vector=true", 'unknown field "vector"; did you mean "vectors"?'],
  ])("GET %s is a 400 naming the field", async (path, error) => {
    expect(await call("GET", path)).toMatchObject({ status: 400, body: { error } });
  });

  it("patches a memory: re-embedded content, updated_at moves, created_at does not", async () => {
    const id = ids[3] as string;
    const before = (await call("GET", `/v1/memories/${id}`)).body;
    const res = await call("PATCH", `/v1/memories/${id}`, {
      content: "The web app is in Svelte",
      tags: ["fe"],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id,
      content: "The web app is in Svelte",
      tags: ["fe"],
      created_at: before.created_at,
    });
    expect(res.body.updated_at).not.toBe(before.updated_at);
    const search = await call("POST", "/v1/search", {
      message: "svelte",
      include: ["tags", "project"],
      type: "fact",
    });
    expect((search.body.results as { memory: unknown }[])[0]?.memory).toMatchObject({
      id,
      tags: ["fe"],
      project: "web",
    });
  });

  it("answers PATCH errors as GET does", async () => {
    expect((await call("PATCH", "/v1/memories/not-a-uuid", { tags: [] })).status).toBe(400);
    expect(
      (await call("PATCH", "/v1/memories/00000000-0000-4000-8000-000000000000", { tags: [] }))
        .status,
    ).toBe(404);
    expect(await call("PATCH", `/v1/memories/${ids[0]}`, {})).toMatchObject({ status: 400 });
    expect(await call("PATCH", `/v1/memories/${ids[0]}`, { confidnce: 1 })).toMatchObject({
      status: 400,
      body: { error: 'unknown field "confidnce"; did you mean "confidence"?' },
    });
    expect((await call("PATCH", `/v1/memories/${ids[0]}`, "{", {})).status).toBe(400);
  });

  it("filters search and recall by type, scope, tags and min_score", async () => {
    const search = await call("POST", "/v1/search", {
      message: "billing stripe invoices",
      scope: "project",
      tags: ["pay"],
    });
    expect(
      (search.body.results as { memory: { content: string } }[]).map((r) => r.memory.content),
    ).toEqual(["Billing uses Stripe"]);
    const recall = await call("POST", "/v1/recall", {
      message: "deploys",
      type: "rule",
      min_score: 0.01,
    });
    expect(recall.body.context).toBe("--- Relevant Memories ---\n[rule] Deploys run on Fridays\n");
    expect((await call("POST", "/v1/search", { message: "x", min_score: 2 })).status).toBe(400);
  });

  it("exports NDJSON and imports it into an empty collection without losing anything", async () => {
    const exported = await call("GET", "/v1/export");
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toMatch(/^application\/x-ndjson/);
    const lines = exported.text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: string });
    expect(lines.map((l) => l.id).sort()).toEqual([...ids].sort());
    const withVectors = await call("GET", "/v1/export?vectors=true");
    const first = JSON.parse(withVectors.text.split("\n")[0] ?? "{}") as {
      vector?: number[];
      embedder?: string;
    };
    expect(first.vector).toHaveLength(100);
    expect(first.embedder).toBe("local-glove-sif-v1:100");

    // Importing into the same store deduplicates every line by id.
    const again = await call("POST", "/v1/import", exported.text, {
      "Content-Type": "application/x-ndjson",
    });
    expect(again.body).toEqual({ imported: 0, deduplicated: 4, rejected: [] });
    // Into an empty store: everything comes back the same.
    expect(await call("POST", "/v1/memories/delete", { all: true })).toMatchObject({
      body: { deleted: 4 },
    });
    const restored = await call("POST", "/v1/import", withVectors.text, {
      "Content-Type": "application/x-ndjson",
    });
    expect(restored.body).toEqual({ imported: 4, deduplicated: 0, rejected: [] });
    expect((await call("GET", "/v1/export")).text).toBe(exported.text);
  });

  it("reports bad import lines and refuses a wrong Content-Type", async () => {
    const res = await call(
      "POST",
      "/v1/import",
      '{"content":"ok line","scope":"permanent"}\nnot json\n',
      {
        "Content-Type": "application/x-ndjson",
      },
    );
    expect(res.body).toMatchObject({ imported: 1, deduplicated: 0, rejected: [{ line: 2 }] });
    expect(
      await call("POST", "/v1/import", "{}", { "Content-Type": "application/json" }),
    ).toMatchObject({
      status: 400,
      body: { error: 'Content-Type: expected application/x-ndjson, got "application/json"' },
    });
  });

  it("deletes by filter with dry_run, and needs a filter or all: true", async () => {
    expect(await call("POST", "/v1/memories/delete", {})).toMatchObject({ status: 400 });
    expect(
      await call("POST", "/v1/memories/delete", { project: "billing", dry_run: true }),
    ).toMatchObject({
      status: 200,
      body: { deleted: 0, matched: 2 },
    });
    expect(await call("POST", "/v1/memories/delete", { project: "billing" })).toMatchObject({
      body: { deleted: 2 },
    });
    const left = (await call("GET", "/v1/memories?project=billing")).body as unknown as Listed;
    expect(left.memories).toEqual([]);
  });

  it("needs the bearer token on every new route", async () => {
    for (const [method, path] of [
      ["GET", "/v1/memories"],
      ["GET", "/v1/export"],
      ["POST", "/v1/import"],
      ["POST", "/v1/memories/delete"],
      ["PATCH", `/v1/memories/${ids[0]}`],
    ] as const) {
      const res = await fetch(`${svc.baseUrl}${path}`, { method });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });

  it("documents every new route in the OpenAPI document with an operationId", async () => {
    const doc = (await call("GET", "/openapi.json")).body as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    expect(doc.paths["/v1/memories"]?.get?.operationId).toBe("listMemories");
    expect(doc.paths["/v1/memories/{id}"]?.patch?.operationId).toBe("updateMemory");
    expect(doc.paths["/v1/memories/delete"]?.post?.operationId).toBe("deleteMemories");
    expect(doc.paths["/v1/export"]?.get?.operationId).toBe("exportMemories");
    expect(doc.paths["/v1/import"]?.post?.operationId).toBe("importMemories");
  });
});

/** The structured result of a tool call. */
function structured<T>(result: unknown): { structuredContent: T } {
  return result as { structuredContent: T };
}

describe("the management MCP tools (official SDK client)", () => {
  async function client(): Promise<Client> {
    const c = new Client({ name: "memsvc-admin-e2e", version: "1.0.0" });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(`${svc.baseUrl}/mcp`), {
        requestInit: { headers: AUTH },
      }),
    );
    return c;
  }

  it("lists, updates and deletes memories, with answers that match their outputSchema", async () => {
    const mcp = await client();
    try {
      const { tools } = await mcp.listTools();
      const list = tools.find((t) => t.name === "list_memories");
      expect(list?.outputSchema).toMatchObject({ type: "object" });
      const stored = structured<{ id: string }>(
        await mcp.callTool({
          name: "remember",
          arguments: { content: "MCP memory", project: "mcp", scope: "project" },
        }),
      );
      const id = stored.structuredContent.id;
      // The SDK client checks structuredContent against the advertised outputSchema.
      const listed = structured<Listed>(
        await mcp.callTool({
          name: "list_memories",
          arguments: { project: "mcp" },
        }),
      );
      expect(listed.structuredContent.memories.map((m) => m.id)).toEqual([id]);
      const updated = structured<{ tags: string[] }>(
        await mcp.callTool({
          name: "update_memory",
          arguments: { id, tags: ["via-mcp"] },
        }),
      );
      expect(updated.structuredContent.tags).toEqual(["via-mcp"]);
      const dry = structured<unknown>(
        await mcp.callTool({
          name: "delete_memories",
          arguments: { project: "mcp", dry_run: true },
        }),
      );
      expect(dry.structuredContent).toEqual({ deleted: 0, matched: 1 });
      const done = structured<unknown>(
        await mcp.callTool({
          name: "delete_memories",
          arguments: { project: "mcp" },
        }),
      );
      expect(done.structuredContent).toEqual({ deleted: 1 });
    } finally {
      await mcp.close();
    }
  });

  it("rejects an unknown argument with a tool error the model sees and a suggestion", async () => {
    const mcp = await client();
    // MCP 2025-11-25: input validation errors are tool execution errors, not protocol errors.
    const textOf = (result: unknown) => {
      const { isError, content } = result as { isError?: boolean; content?: { text?: string }[] };
      expect(isError).toBe(true);
      return content?.[0]?.text ?? "";
    };
    try {
      const unknown = await mcp.callTool({ name: "list_memories", arguments: { projet: "x" } });
      expect(textOf(unknown)).toContain('did you mean "project"?');
      const empty = await mcp.callTool({ name: "delete_memories", arguments: {} });
      expect(textOf(empty)).toContain('"all": true');
    } finally {
      await mcp.close();
    }
  });
});
