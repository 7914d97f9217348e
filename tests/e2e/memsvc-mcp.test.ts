import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cleanupMemsvc,
  isAlive,
  makeTempDir,
  MEMSVC_BIN,
  memsvcEnv,
  startMemsvc,
  type MemsvcProcess,
} from "../support/spawn-memsvc.js";

const TOKEN = "mcp-e2e-token";
const TOOLS = [
  "remember",
  "remember_batch",
  "recall",
  "search",
  "forget",
  "get_memory",
  "memory_stats",
  "list_memories",
  "update_memory",
  "delete_memories",
];
let svc: MemsvcProcess;

beforeAll(async () => {
  svc = await startMemsvc({ env: { MEMSVC_API_AUTH_TOKEN: TOKEN } });
});
afterAll(cleanupMemsvc);

interface ToolResult {
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  content?: { text?: string }[];
}

async function httpClient(token: string | undefined): Promise<Client> {
  const client = new Client({ name: "memsvc-e2e", version: "1.0.0" });
  const requestInit =
    token === undefined ? undefined : { headers: { Authorization: `Bearer ${token}` } };
  await client.connect(
    new StreamableHTTPClientTransport(
      new URL(`${svc.baseUrl}/mcp`),
      requestInit ? { requestInit } : {},
    ),
  );
  return client;
}

describe("memory MCP tools over streamable HTTP (official SDK client)", () => {
  it("lists the ten tools and runs remember, get_memory, search, recall, memory_stats and forget", async () => {
    const client = await httpClient(TOKEN);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(TOOLS);
      expect(tools[0]?.inputSchema.required).toEqual(["content", "scope"]);
      expect(client.getInstructions()).toContain("`recall`");

      const stored = (await client.callTool({
        name: "remember",
        arguments: {
          content: "Always run migrations before deploys",
          type: "procedure",
          scope: "permanent",
        },
      })) as ToolResult;
      const id = stored.structuredContent?.["id"] as string;
      expect(stored.structuredContent).toEqual({ id, stored: true });

      const got = (await client.callTool({ name: "get_memory", arguments: { id } })) as ToolResult;
      expect(got.structuredContent).toMatchObject({ id, type: "procedure", scope: "permanent" });

      const search = (await client.callTool({
        name: "search",
        arguments: { message: "migrations deploys" },
      })) as ToolResult;
      expect(
        (search.structuredContent?.["results"] as { memory: { id: string } }[])[0]?.memory.id,
      ).toBe(id);

      const recall = (await client.callTool({
        name: "recall",
        arguments: { message: "migrations" },
      })) as ToolResult;
      expect(recall.structuredContent?.["context"]).toContain(
        "[procedure] Always run migrations before deploys",
      );

      const stats = (await client.callTool({ name: "memory_stats", arguments: {} })) as ToolResult;
      expect(stats.structuredContent?.["total_memories"]).toBe(1);

      const forgot = (await client.callTool({ name: "forget", arguments: { id } })) as ToolResult;
      expect(forgot.structuredContent).toEqual({ deleted: true });
      const gone = (await client.callTool({ name: "get_memory", arguments: { id } })) as ToolResult;
      expect(gone.isError).toBe(true);
      expect(gone.content?.[0]?.text).toMatch(/^not_found: /);
    } finally {
      await client.close();
    }
  });

  it("answers invalid arguments with a tool error naming the parameter, for the model", async () => {
    const client = await httpClient(TOKEN);
    try {
      // MCP 2025-11-25: input validation errors are tool execution errors (clients show them to
      // the model, which can correct its call); an unknown tool stays a protocol error.
      const bad = (await client.callTool({
        name: "search",
        arguments: { message: "x", limit: 0 },
      })) as ToolResult;
      expect(bad.isError).toBe(true);
      expect(bad.content?.[0]?.text).toMatch(/^invalid_input: parameter 'limit': /);
      const unknown = client.callTool({ name: "serch", arguments: { message: "x" } });
      await expect(unknown).rejects.toBeInstanceOf(McpError);
    } finally {
      await client.close();
    }
  });

  it("needs the same bearer token as the REST API", async () => {
    await expect(httpClient(undefined)).rejects.toThrow();
    await expect(httpClient("wrong")).rejects.toThrow();
  });
});

describe("memsvc mcp over stdio (official SDK client)", () => {
  it("serves the memory tools on stdin/stdout and stops its Chroma once the client closes", async () => {
    const dataDir = makeTempDir();
    const env = Object.fromEntries(
      Object.entries(memsvcEnv(dataDir)).filter((e): e is [string, string] => e[1] !== undefined),
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MEMSVC_BIN, "mcp"],
      env,
      cwd: dataDir,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const client = new Client({ name: "memsvc-e2e-stdio", version: "1.0.0" });
    await client.connect(transport);
    const pid = transport.pid;
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(TOOLS);
      expect(client.getInstructions()).toContain("`remember`");
      const stored = (await client.callTool({
        name: "remember",
        arguments: { content: "stdio works", scope: "session" },
      })) as ToolResult;
      expect(stored.structuredContent?.["stored"]).toBe(true);
      const noScope = (await client.callTool({
        name: "remember",
        arguments: { content: "The user prefers TypeScript" },
      })) as ToolResult;
      expect(noScope.isError).toBe(true);
      expect(noScope.content?.[0]?.text).toMatch(/^invalid_input: parameter 'scope': /);
      const stats = (await client.callTool({ name: "memory_stats", arguments: {} })) as ToolResult;
      expect(stats.structuredContent?.["total_memories"]).toBe(1);
    } finally {
      await client.close();
    }
    const chromaPid = Number(/"msg":"embedded Chroma started".*?"pid":(\d+)/.exec(stderr)?.[1]);
    expect(chromaPid).toBeGreaterThan(0);
    for (let i = 0; i < 100 && ((pid !== null && isAlive(pid)) || isAlive(chromaPid)); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(pid !== null && isAlive(pid)).toBe(false);
    expect(isAlive(chromaPid)).toBe(false);
  });
});
