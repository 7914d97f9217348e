import { Hono } from "hono";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import type { MemoryApi } from "../../../../../core/memory/memory-api.js";
import { memoryStatsSchema } from "../../../../../core/memory/index.js";
import { READ_ONLY_TOOL } from "../../../../../shells/common/mcp/mcp-tool.js";
import { createToolCatalog } from "../../../../../shells/common/mcp/tool-catalog.js";
import { buildOpenApiDocument } from "../../../../../shells/memsvc/http/openapi-document.js";
import { jsonObjectBody } from "../../../../../shells/memsvc/http/json-object-body.js";
import { memoryJsonCalls } from "../../../../../shells/memsvc/http/memory-json-calls.js";
import { mountMemoryOperations } from "../../../../../shells/memsvc/http/memory-operation-routes.js";
import { createMemoryTools } from "../../../../../shells/memsvc/mcp/memory-tools.js";
import {
  defineMemoryOperation,
  ERROR_TEXT,
  JSON_BODY_ERRORS,
  type MemoryOperation,
} from "../../../../../shells/memsvc/operations/memory-operation.js";
import { MEMORY_OPERATIONS } from "../../../../../shells/memsvc/operations/memory-operations.js";
import { makeApp } from "../http/memory-app-fixture.js";

interface Operation {
  operationId?: string;
  summary?: string;
  responses: Record<string, { description: string }>;
}
type Paths = Record<string, Record<string, Operation>>;

/** The document's path for a Hono path (`:id` is written `{id}`). */
const documented = (path: string) => path.replace(/:(\w+)/g, "{$1}");

/** A MemoryApi whose every method records its name and answers `{ method }`. */
function recordingMemory() {
  const called: string[] = [];
  const memory = new Proxy({} as MemoryApi, {
    get:
      (_target, method: string) =>
      (..._args: unknown[]) => {
        called.push(method);
        return Promise.resolve({ method });
      },
  });
  return { memory, called };
}

const routed = MEMORY_OPERATIONS.flatMap(({ rest }) => (rest === undefined ? [] : [rest]));
const tools = MEMORY_OPERATIONS.flatMap(({ mcp }) => (mcp === undefined ? [] : [mcp]));
const hot = routed.filter((rest) => rest.hot === true);

/** A use case the table does not have: the one row a new use case adds. */
const extraRow = defineMemoryOperation({
  input: v.object({}),
  output: memoryStatsSchema,
  call: (memory) => memory.stats(),
  rest: {
    method: "post",
    path: "/v1/stats/again",
    operationId: "getStatsAgain",
    summary: "Counts of live memories, once more",
    request: { from: "body", ref: "StatsAgainRequest" },
    response: "StatsAgain",
    errors: JSON_BODY_ERRORS,
    hot: true,
  },
  mcp: {
    name: "memory_stats_again",
    title: "Memory statistics again",
    description: "Counts of live memories, once more.",
    annotations: READ_ONLY_TOOL,
  },
});

describe("the memory operation table", () => {
  it("names each route, operation and tool once, and every row is a route or a tool", () => {
    const routes = routed.map((rest) => `${rest.method} ${rest.path}`);
    const ids = routed.map((rest) => rest.operationId);
    const names = tools.map((mcp) => mcp.name);
    expect(new Set(routes).size).toBe(routes.length);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(names).size).toBe(names.length);
    for (const row of MEMORY_OPERATIONS) expect(row.rest ?? row.mcp).toBeDefined();
  });

  it("marks as hot only POST routes that take a JSON body (what the fast lane answers)", () => {
    expect(hot.length).toBeGreaterThan(0);
    for (const rest of hot) {
      expect(rest.method, rest.path).toBe("post");
      expect(rest.request.from, rest.path).toBe("body");
    }
  });

  it("puts every route in the OpenAPI document with its operationId, summary and errors", async () => {
    const { app } = await makeApp();
    const doc = (await (await app.request("/openapi.json")).json()) as { paths: Paths };
    for (const rest of routed) {
      const operation = doc.paths[documented(rest.path)]?.[rest.method];
      expect(operation?.operationId, `${rest.method} ${rest.path}`).toBe(rest.operationId);
      expect(operation?.summary).toBe(rest.summary);
      expect(Object.keys(operation?.responses ?? {}).sort()).toEqual(
        ["200", ...Object.keys(rest.errors)].sort(),
      );
      for (const [status, text] of Object.entries(rest.errors)) {
        expect(operation?.responses[status]?.description).toBe(text);
      }
    }
  });

  it("lists every tool in tools/list in table order, and names them in the /mcp summary", async () => {
    const { memory } = recordingMemory();
    const list = createToolCatalog(createMemoryTools(memory)).listResult.tools;
    expect(list.map((tool) => tool.name)).toEqual(tools.map((mcp) => mcp.name));
    for (const [i, mcp] of tools.entries()) {
      expect(list[i]).toMatchObject({
        title: mcp.title,
        description: mcp.description,
        annotations: mcp.annotations,
      });
    }
    const { app } = await makeApp();
    const doc = (await (await app.request("/openapi.json")).json()) as { paths: Paths };
    expect(doc.paths["/mcp"]?.["post"]?.summary).toBe(
      `MCP (streamable HTTP, stateless JSON): tools ${tools.map((mcp) => mcp.name).join(", ")}`,
    );
  });

  it("gives the fast lane exactly the hot routes, each calling its row's use case", async () => {
    const { memory, called } = recordingMemory();
    const calls = memoryJsonCalls();
    expect(Object.keys(calls)).toEqual(hot.map((rest) => rest.path));
    for (const row of MEMORY_OPERATIONS.filter(({ rest }) => rest?.hot === true)) {
      called.length = 0;
      await calls[row.rest?.path ?? ""]?.(memory, {});
      await row.call(memory, {});
      expect(called).toHaveLength(2);
      expect(called[0]).toBe(called[1]);
    }
  });

  it("makes each tool call its row's use case", async () => {
    const { memory, called } = recordingMemory();
    const catalog = createToolCatalog(createMemoryTools(memory));
    const args: Record<string, unknown> = { id: "0b6f3c1e-6d1c-4f1e-9a57-2f0d7f4b8c11" };
    const argumentsOf: Record<string, unknown> = {
      remember: { content: "x", scope: "session" },
      remember_batch: { memories: [{ content: "x", scope: "session" }] },
      recall: { message: "x" },
      search: { message: "x" },
      forget: args,
      get_memory: args,
      memory_stats: {},
      list_memories: {},
      update_memory: { ...args, content: "y" },
      delete_memories: { all: true },
    };
    expect(Object.keys(argumentsOf)).toEqual(tools.map((mcp) => mcp.name));
    for (const row of MEMORY_OPERATIONS) {
      if (row.mcp === undefined) continue;
      called.length = 0;
      await catalog.call(row.mcp.name, argumentsOf[row.mcp.name]);
      await row.call(memory, argumentsOf[row.mcp.name] as never);
      expect(called, row.mcp.name).toHaveLength(2);
      expect(called[0]).toBe(called[1]);
    }
  });

  it("wires a new row into the routes, the document, the tools and the fast lane", async () => {
    const operations: readonly MemoryOperation[] = [...MEMORY_OPERATIONS, extraRow];
    const { memory, called } = recordingMemory();
    const app = new Hono();
    mountMemoryOperations(app, memory, jsonObjectBody(1024), operations);
    const res = await app.request("/v1/stats/again", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    expect(await res.json()).toEqual({ method: "stats" });
    const doc = (await buildOpenApiDocument(app, "0.0.0")) as unknown as { paths: Paths };
    expect(doc.paths["/v1/stats/again"]?.["post"]?.operationId).toBe("getStatsAgain");
    expect(doc.paths["/v1/stats/again"]?.["post"]?.responses["413"]?.description).toBe(
      ERROR_TEXT.tooLarge,
    );
    const list = createToolCatalog(createMemoryTools(memory, {}, operations)).listResult.tools;
    expect(list.at(-1)?.name).toBe("memory_stats_again");
    const calls = memoryJsonCalls(operations);
    await calls["/v1/stats/again"]?.(memory, {});
    expect(called).toEqual(["stats", "stats"]);
  });

  it("refuses a hot row the fast lane could not answer", () => {
    const broken = defineMemoryOperation({
      ...extraRow,
      rest: { ...extraRow.rest!, method: "get", request: { from: "nothing" } },
    });
    expect(() => memoryJsonCalls([broken])).toThrow(/not a POST with a JSON body/);
  });
});
