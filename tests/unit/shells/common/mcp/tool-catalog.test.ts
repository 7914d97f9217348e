import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { AgentServicesError } from "../../../../../core/errors.js";
import { McpProtocolError } from "../../../../../shells/common/mcp/mcp-protocol-error.js";
import {
  defineMcpTool,
  READ_ONLY_TOOL,
  type McpTool,
} from "../../../../../shells/common/mcp/mcp-tool.js";
import { createToolCatalog } from "../../../../../shells/common/mcp/tool-catalog.js";

const echo = defineMcpTool({
  name: "echo",
  title: "Echo",
  description: "Returns its text.",
  input: v.object({
    text: v.pipe(
      v.string("parameter 'text' is required and must be a string"),
      v.description("What to echo."),
    ),
    times: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 1),
  }),
  annotations: READ_ONLY_TOOL,
  handler: ({ text, times }) => ({ ok: true, result: { text: text.repeat(times) } }),
});

function failingWith(error: unknown, name = "boom"): McpTool {
  return defineMcpTool({
    name,
    description: "Fails.",
    input: v.object({}),
    annotations: { readOnlyHint: false, destructiveHint: true },
    handler: () => {
      throw error;
    },
  });
}

function protocolError(run: () => unknown): McpProtocolError {
  try {
    run();
  } catch (error) {
    if (error instanceof McpProtocolError) return error;
    throw error;
  }
  throw new Error("expected an McpProtocolError");
}

describe("createToolCatalog", () => {
  it("advertises each tool with a JSON Schema generated from its valibot schema and its annotations", () => {
    const catalog = createToolCatalog([echo]);
    expect(catalog.listResult.tools).toEqual([
      {
        name: "echo",
        title: "Echo",
        description: "Returns its text.",
        inputSchema: {
          type: "object",
          properties: {
            text: { type: "string", description: "What to echo." },
            times: { type: "integer", minimum: 1, default: 1 },
          },
          required: ["text"],
        },
        annotations: {
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: false,
        },
      },
    ]);
    expect(JSON.parse(catalog.listResultJson)).toEqual(catalog.listResult);
  });

  it("returns the result object and its JSON text for a successful call", () => {
    const outcome = createToolCatalog([echo]).call("echo", { text: "ab", times: 2 });
    expect(outcome).toEqual({
      isError: false,
      text: '{"text":"abab"}',
      structured: { text: "abab" },
    });
  });

  it("rejects a missing parameter with the message of the parameter's own schema", () => {
    const error = protocolError(() => createToolCatalog([echo]).call("echo", {}));
    expect(error.code).toBe(-32602);
    expect(error.message).toBe("parameter 'text' is required and must be a string");
  });

  it("names the parameter when its schema has no message of its own", () => {
    const error = protocolError(() =>
      createToolCatalog([echo]).call("echo", { text: "a", times: 0 }),
    );
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/^parameter 'times': /);
  });

  it("treats absent arguments as an empty object", () => {
    const error = protocolError(() => createToolCatalog([echo]).call("echo", undefined));
    expect(error.message).toBe("parameter 'text' is required and must be a string");
  });

  it("rejects an unknown tool with -32602 listing the tools it has", () => {
    const error = protocolError(() => createToolCatalog([echo]).call("nope", {}));
    expect(error.code).toBe(-32602);
    expect(error.message).toBe("unknown tool 'nope'; available tools: echo");
  });

  it("turns a handler's failure reply into an error result the model can read", () => {
    const tool = defineMcpTool({
      name: "parse",
      description: "Parses.",
      input: v.object({}),
      annotations: READ_ONLY_TOOL,
      handler: () => ({ ok: false, error: "parse failed: line 1, column 8: unexpected FROM" }),
    });
    expect(createToolCatalog([tool]).call("parse", {})).toEqual({
      isError: true,
      text: "parse failed: line 1, column 8: unexpected FROM",
    });
  });

  it("maps the core's invalid_input error to -32602 with its message", () => {
    const catalog = createToolCatalog([
      failingWith(new AgentServicesError("invalid_input", "content: too long")),
    ]);
    const error = protocolError(() => catalog.call("boom", {}));
    expect([error.code, error.message]).toEqual([-32602, "content: too long"]);
  });

  it("reports other coded core errors as error results", () => {
    const catalog = createToolCatalog([
      failingWith(new AgentServicesError("not_found", "no memory m1")),
    ]);
    expect(catalog.call("boom", {})).toEqual({ isError: true, text: "not_found: no memory m1" });
  });

  it("reports an unexpected exception as a -32603 server fault and tells the fault handler", () => {
    const faults: string[] = [];
    const catalog = createToolCatalog([failingWith(new Error("invariant broken"))], {
      onServerFault: (_error, tool) => faults.push(tool),
    });
    const error = protocolError(() => catalog.call("boom", {}));
    expect([error.code, error.message]).toEqual([
      -32603,
      "internal error in tool 'boom': invariant broken",
    ]);
    expect(faults).toEqual(["boom"]);
  });

  it("awaits asynchronous handlers and maps their rejections the same way", async () => {
    const slow = defineMcpTool({
      name: "slow",
      description: "Async.",
      input: v.object({ fail: v.boolean() }),
      annotations: READ_ONLY_TOOL,
      handler: async ({ fail }) => {
        await Promise.resolve();
        if (fail) throw new AgentServicesError("store_unavailable", "chroma is down");
        return { ok: true, result: { done: true } };
      },
    });
    const catalog = createToolCatalog([slow]);
    await expect(catalog.call("slow", { fail: false })).resolves.toEqual({
      isError: false,
      text: '{"done":true}',
      structured: { done: true },
    });
    await expect(catalog.call("slow", { fail: true })).resolves.toEqual({
      isError: true,
      text: "store_unavailable: chroma is down",
    });
  });

  it("refuses two tools with the same name", () => {
    expect(() => createToolCatalog([echo, echo])).toThrow(/duplicate MCP tool name: echo/);
  });
});
