import { beforeAll, describe, expect, it } from "vitest";
import { makeApp, post } from "./memory-app-fixture.js";

const rpc = (method: string, params: unknown = {}) =>
  post({ jsonrpc: "2.0", id: 1, method, params });

interface RpcAnswer {
  result?: {
    tools?: { name: string }[];
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
    content?: { text: string }[];
  };
  error?: { code: number; message: string };
}

describe("POST /mcp memory tools", () => {
  // The app loads the MCP SDK on the first /mcp request (~25 MB of modules). Loading it here, in a
  // hook with room to spare, keeps that one-off cost out of the first test's 5 s: under load 20
  // it took 5.4 s and failed "lists the seven memory tools".
  beforeAll(async () => {
    await Promise.all([
      import("../../../../../shells/memsvc/mcp/memory-tools.js"),
      import("../../../../../shells/common/mcp/mount-mcp-http.js"),
      import("../../../../../shells/common/mcp/tool-catalog.js"),
    ]);
  });

  it("lists the ten memory tools, each with an outputSchema", async () => {
    const { app } = await makeApp();
    const res = await app.request("/mcp", rpc("tools/list"));
    expect(res.status).toBe(200);
    const body = (await res.json()) as RpcAnswer;
    expect(body.result?.tools?.map((t) => t.name)).toEqual([
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
    ]);
    for (const tool of body.result?.tools ?? []) {
      expect((tool as { outputSchema?: { type?: string } }).outputSchema?.type, tool.name).toBe(
        "object",
      );
    }
  });

  it("remembers and gets a memory through tool calls", async () => {
    const { app } = await makeApp();
    const stored = (await (
      await app.request(
        "/mcp",
        rpc("tools/call", {
          name: "remember",
          arguments: { content: "use pnpm", scope: "permanent" },
        }),
      )
    ).json()) as RpcAnswer;
    const id = stored.result?.structuredContent?.["id"];
    expect(typeof id).toBe("string");
    const got = (await (
      await app.request("/mcp", rpc("tools/call", { name: "get_memory", arguments: { id } }))
    ).json()) as RpcAnswer;
    expect(got.result?.structuredContent).toMatchObject({ id, content: "use pnpm", type: "fact" });
  });

  it("reports invalid arguments and unknown ids as tool errors the model sees", async () => {
    const { app } = await makeApp();
    const bad = (await (
      await app.request("/mcp", rpc("tools/call", { name: "remember", arguments: { content: "" } }))
    ).json()) as RpcAnswer;
    // MCP 2025-11-25: input validation errors are tool execution errors, not protocol errors.
    expect(bad.error).toBeUndefined();
    expect(bad.result?.isError).toBe(true);
    expect(bad.result?.content?.[0]?.text).toBe(
      "invalid_input: parameter 'content': expected a non-empty string",
    );
    const unknownTool = (await (
      await app.request("/mcp", rpc("tools/call", { name: "remembr", arguments: {} }))
    ).json()) as RpcAnswer;
    expect(unknownTool.error?.code).toBe(-32602);
    const missing = (await (
      await app.request(
        "/mcp",
        rpc("tools/call", {
          name: "forget",
          arguments: { id: "0b6f3c1e-6d1c-4f1e-9a57-2f0d7f4b8c11" },
        }),
      )
    ).json()) as RpcAnswer;
    expect(missing.result?.isError).toBe(true);
    expect(missing.result?.content?.[0]?.text).toMatch(/^not_found: /);
  });

  it("refuses an unknown field beside forget's and get_memory's id, as every other tool does", async () => {
    const { app } = await makeApp();
    for (const name of ["forget", "get_memory"]) {
      const answer = (await (
        await app.request(
          "/mcp",
          rpc("tools/call", {
            name,
            arguments: { id: "0b6f3c1e-6d1c-4f1e-9a57-2f0d7f4b8c11", extra: 1 },
          }),
        )
      ).json()) as RpcAnswer;
      expect([name, answer.result?.isError]).toEqual([name, true]);
      expect(answer.result?.content?.[0]?.text).toMatch(/^invalid_input: .*unknown field "extra"/);
    }
  });

  it("names what a batch item's missing field expects, not the body's shape", async () => {
    const { app } = await makeApp();
    const call = async (memories: unknown[]) =>
      (await (
        await app.request(
          "/mcp",
          rpc("tools/call", { name: "remember_batch", arguments: { memories } }),
        )
      ).json()) as RpcAnswer;
    const noScope = await call([{ content: "a", scope: "session" }, { content: "b" }]);
    expect(noScope.result?.isError).toBe(true);
    expect(noScope.result?.content?.[0]?.text).toMatch(
      /^invalid_input: parameter 'memories\.1\.scope': is required \(expected one of "permanent", .*required over MCP/,
    );
    const noContent = await call([{ scope: "session" }]);
    expect(noContent.result?.content?.[0]?.text).toBe(
      "invalid_input: parameter 'memories.0.content': is required (expected a non-empty string)",
    );
  });

  it("reports a failing embedder with the same fixed text as the REST API", async () => {
    const { app, embedder } = await makeApp();
    embedder.failWith(new Error("socket hang up at 10.1.2.3"));
    const res = (await (
      await app.request("/mcp", rpc("tools/call", { name: "search", arguments: { message: "x" } }))
    ).json()) as RpcAnswer;
    expect(res.result?.isError).toBe(true);
    expect(res.result?.content?.[0]?.text).toBe("failed to generate embedding");
  });
});
