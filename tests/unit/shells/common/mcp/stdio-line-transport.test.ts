import { PassThrough } from "node:stream";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { LineStdioTransport } from "../../../../../shells/common/mcp/stdio-line-transport.js";

/** A transport on in-memory streams, with what it handed on and what it wrote. */
async function harness(maxLineBytes?: number) {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = new LineStdioTransport(
    input,
    output,
    maxLineBytes === undefined ? {} : { maxLineBytes },
  );
  const messages: JSONRPCMessage[] = [];
  let closed = false;
  transport.onmessage = (message) => messages.push(message);
  transport.onclose = () => (closed = true);
  await transport.start();
  let written = "";
  output.setEncoding("utf8");
  output.on("data", (chunk: string) => (written += chunk));
  const feed = async (...chunks: (Buffer | string)[]) => {
    for (const chunk of chunks) input.write(chunk);
    await new Promise((resolve) => setImmediate(resolve));
  };
  const answers = () =>
    written
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { id: unknown; error: { code: number; message: string } });
  return { input, transport, messages, feed, answers, closed: () => closed };
}

const ping = (id: number) => `${JSON.stringify({ jsonrpc: "2.0", id, method: "ping" })}\n`;

describe("LineStdioTransport (issue 26)", () => {
  it("hands valid messages on, across chunk boundaries, and skips blank lines", async () => {
    const h = await harness();
    const line = ping(1);
    await h.feed(line.slice(0, 5), line.slice(5), "\n  \r\n", ping(2).replace("\n", "\r\n"));
    expect(h.messages.map((m) => (m as { id: number }).id)).toEqual([1, 2]);
    expect(h.answers()).toEqual([]);
  });

  it("answers malformed lines with the error each deserves and keeps reading", async () => {
    const h = await harness();
    await h.feed(
      Buffer.from([0xff, 0xfe, 0x0a]),
      "{nope\n",
      "[]\n",
      `${JSON.stringify({ jsonrpc: "2.0", id: { a: 1 }, method: "ping" })}\n`,
      `${JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call" })}\n`,
      `${JSON.stringify({ jsonrpc: "2.0", id: 4, result: {} })}\n`,
      ping(5),
    );
    expect(h.answers()).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: not UTF-8" } },
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: Invalid JSON" } },
      {
        jsonrpc: "2.0",
        id: null,
        error: {
          code: -32600,
          message:
            "Invalid Request: batches are not supported over stdio; send one message per line",
        },
      },
      {
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, message: "Invalid Request: 'id' must be a string or an integer" },
      },
      {
        jsonrpc: "2.0",
        id: 3,
        error: { code: -32602, message: "params is required: { name, arguments }" },
      },
    ]);
    // The response is dropped (nobody waits for it); the ping after all that still goes on.
    expect(h.messages.map((m) => (m as { id: number }).id)).toEqual([5]);
  });

  it("answers a line nested deeper than 64 levels with -32600 without parsing it", async () => {
    const h = await harness();
    const deep = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":${"[".repeat(70)}${"]".repeat(70)}}}`;
    await h.feed(`${deep}\n`, ping(2));
    expect(h.answers()).toEqual([
      {
        jsonrpc: "2.0",
        id: null,
        error: {
          code: -32600,
          message:
            "Invalid Request: nested deeper than 64 levels of arrays and objects (no MCP message needs more); not read",
        },
      },
    ]);
    expect(h.messages.map((m) => (m as { id: number }).id)).toEqual([2]);
  });

  it("answers an over-long line once and skips it without buffering it, then serves the next", async () => {
    const h = await harness(64);
    await h.feed("x".repeat(50), "y".repeat(50), "z".repeat(1000), "\n", ping(6));
    expect(h.answers()).toEqual([
      {
        jsonrpc: "2.0",
        id: null,
        error: {
          code: -32600,
          message:
            "Invalid Request: a message is at most 64 bytes on one line; this longer line was skipped",
        },
      },
    ]);
    expect(h.messages.map((m) => (m as { id: number }).id)).toEqual([6]);
  });

  it("reads a last line without newline and closes at the end of the input", async () => {
    const h = await harness();
    await h.feed(ping(7).trimEnd());
    expect(h.messages).toEqual([]);
    h.input.end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(h.messages.map((m) => (m as { id: number }).id)).toEqual([7]);
    expect(h.closed()).toBe(true);
  });
});
