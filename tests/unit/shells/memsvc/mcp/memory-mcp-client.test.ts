import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { beforeAll, describe, expect, it } from "vitest";
import { MEMORY_SCOPES, MEMORY_TYPES } from "../../../../../core/memory/index.js";
import type { SqlToolkit } from "../../../../../core/sql/results.js";
import { createSqlsvcApp } from "../../../../../shells/sqlsvc/sqlsvc-app.js";
import { makeApp, post } from "../http/memory-app-fixture.js";

type App = Awaited<ReturnType<typeof makeApp>>["app"];

/** The official SDK client, its HTTP requests answered by the app in process (no socket). */
async function connect(app: { request: App["request"] }): Promise<Client> {
  const client = new Client({ name: "unit", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("http://memsvc.test/mcp"), {
      fetch: (url, init) => Promise.resolve(app.request(String(url), init)),
    }),
  );
  return client;
}

interface JsonSchema {
  readonly description?: string;
  readonly properties?: Record<string, JsonSchema>;
  readonly items?: JsonSchema;
  readonly required?: readonly string[];
}

/** Every `type` and `scope` parameter of a schema, nested ones (batch items) included. */
function kindParameters(schema: JsonSchema, at: string): [string, JsonSchema][] {
  const found: [string, JsonSchema][] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (name === "type" || name === "scope") found.push([`${at}.${name}`, property]);
    found.push(...kindParameters(property, `${at}.${name}`));
    if (property.items !== undefined)
      found.push(...kindParameters(property.items, `${at}.${name}[]`));
  }
  return found;
}

describe("memsvc over MCP, through the official SDK client (issue 22)", () => {
  beforeAll(async () => {
    // The app loads the MCP SDK on the first /mcp request: keep that out of the first test.
    await Promise.all([
      import("../../../../../shells/memsvc/mcp/memory-tools.js"),
      import("../../../../../shells/common/mcp/mount-mcp-http.js"),
    ]);
  });

  it("sends instructions in the initialize result: when to recall, what to remember, how to correct", async () => {
    const { app } = await makeApp();
    const client = await connect(app);
    const instructions = client.getInstructions() ?? "";
    expect(client.getServerVersion()).toMatchObject({ name: "memsvc", version: "9.9.9" });
    for (const words of ["`recall`", "`remember`", "`scope`", "`update_memory`", "`forget`"]) {
      expect(instructions).toContain(words);
    }
    for (const scope of MEMORY_SCOPES) expect(instructions).toContain(`\`${scope}\``);
    await client.close();
  });

  it("tells the model how recall gives the ids to correct or forget, and that works", async () => {
    const { app } = await makeApp();
    const client = await connect(app);
    expect(client.getInstructions()).toContain("`recall` with `items: true` lists the ids");
    await client.callTool({
      name: "remember",
      arguments: { content: "The staging database is read-only", scope: "permanent" },
    });
    const recalled = await client.callTool({
      name: "recall",
      arguments: { message: "is the staging database read-only?", items: true },
    });
    const items = (recalled.structuredContent as { items: { id: string; created_at: string }[] })
      .items;
    expect(items).toHaveLength(1);
    expect(items[0]?.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const forgot = await client.callTool({ name: "forget", arguments: { id: items[0]?.id } });
    expect(forgot.structuredContent).toEqual({ deleted: true });
    await client.close();
  });

  it("describes every type and scope value in every tool's input schema", async () => {
    const { app } = await makeApp();
    const client = await connect(app);
    const { tools } = await client.listTools();
    const parameters = tools.flatMap((tool) =>
      kindParameters(tool.inputSchema as JsonSchema, tool.name),
    );
    // remember, remember_batch (items), recall, search, memory_stats, list_memories,
    // update_memory, delete_memories: each has both.
    expect(parameters.length).toBe(16);
    for (const [name, schema] of parameters) {
      const values = name.endsWith(".type") ? MEMORY_TYPES : MEMORY_SCOPES;
      for (const value of values) expect(schema.description, name).toContain(`\`${value}\`:`);
    }
    const search = tools.find((tool) => tool.name === "search")?.inputSchema as JsonSchema;
    expect(search.properties?.["scope"]?.description).toMatch(/^Only memories of this scope\. /);
    await client.close();
  });

  it("requires scope in the MCP remember tool, so a lasting fact never silently expires", async () => {
    const { app } = await makeApp();
    const client = await connect(app);
    const { tools } = await client.listTools();
    const remember = tools.find((tool) => tool.name === "remember")?.inputSchema as JsonSchema;
    expect(remember.required).toEqual(["content", "scope"]);
    const batch = tools.find((tool) => tool.name === "remember_batch")?.inputSchema as JsonSchema;
    expect(batch.properties?.["memories"]?.items?.required).toEqual(["content", "scope"]);

    // A tool error (not a protocol error), so that the model is shown what to fix.
    const refused = await client.callTool({
      name: "remember",
      arguments: { content: "The user prefers TypeScript" },
    });
    expect(refused.isError).toBe(true);
    expect((refused.content as { text: string }[])[0]?.text).toMatch(
      /^invalid_input: parameter 'scope'.*"permanent".*required/,
    );
    const refusedBatch = await client.callTool({
      name: "remember_batch",
      arguments: { memories: [{ content: "x" }] },
    });
    expect(refusedBatch.isError).toBe(true);
    expect((refusedBatch.content as { text: string }[])[0]?.text).toMatch(/scope/);
    const stats = await client.callTool({ name: "memory_stats", arguments: {} });
    expect(stats.structuredContent).toMatchObject({ total_memories: 0 });

    const stored = await client.callTool({
      name: "remember",
      arguments: { content: "The user prefers TypeScript", type: "preference", scope: "permanent" },
    });
    const id = (stored.structuredContent as { id: string }).id;
    const got = await client.callTool({ name: "get_memory", arguments: { id } });
    expect(got.structuredContent).toMatchObject({ scope: "permanent", expires_at: null });
    await client.close();
  });

  it("leaves REST's remember as the seed has it: scope defaults to session", async () => {
    const { app } = await makeApp();
    const res = await app.request("/v1/remember", post({ content: "a note for today" }));
    expect(res.status).toBe(200);
    const { id } = (await res.json()) as { id: string };
    const memory = (await (await app.request(`/v1/memories/${id}`)).json()) as {
      scope: string;
    };
    expect(memory.scope).toBe("session");
  });
});

describe("sqlsvc over MCP, through the official SDK client", () => {
  it("sends instructions that say when to use which tool", async () => {
    const toolkit = {} as SqlToolkit; // initialize and tools/list call no tool
    const app = createSqlsvcApp({ toolkit, version: "9.8.7", authToken: "" });
    const client = await connect(app);
    const instructions = client.getInstructions() ?? "";
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    for (const tool of tools) expect(instructions, tool.name).toContain(tool.name);
    await client.close();
  });
});
