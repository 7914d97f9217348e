import { describe, expect, it } from "vitest";
import { checkJsonRpcMessage } from "../../../../../shells/common/mcp/json-rpc-message-check.js";

describe("checkJsonRpcMessage (issue 26)", () => {
  it.each([
    [{ jsonrpc: "2.0", id: 1, method: "ping" }],
    [{ jsonrpc: "2.0", id: "a", method: "tools/call", params: { name: "t" } }],
    [{ jsonrpc: "2.0", method: "notifications/initialized" }],
    [{ jsonrpc: "2.0", method: "tools/call" }],
  ])("takes %j as a request or notification", (message) => {
    expect(checkJsonRpcMessage(message)).toEqual({ kind: "request" });
  });

  it.each([
    [{ jsonrpc: "2.0", id: 1, result: {} }],
    [{ jsonrpc: "2.0", id: null, error: { code: -32700, message: "x" } }],
  ])("takes %j as a response", (message) => {
    expect(checkJsonRpcMessage(message)).toEqual({ kind: "response" });
  });

  it.each([
    [null, "expected a JSON-RPC 2.0 message object"],
    [[], "expected a JSON-RPC 2.0 message object"],
    [{ jsonrpc: "2.0", id: { a: 1 }, method: "ping" }, "'id' must be a string or an integer"],
    [{ jsonrpc: "2.0", id: null, method: "ping" }, "'id' must be a string or an integer"],
    [{ jsonrpc: "2.0", id: true, method: "ping" }, "'id' must be a string or an integer"],
    [{ jsonrpc: "1.0", id: 1, method: "ping" }, "'jsonrpc' must be \"2.0\""],
    [{ jsonrpc: "2.0", id: 1, method: ["x"] }, "'method' must be a string"],
    [{ jsonrpc: "2.0", id: 1, method: "ping", params: "x" }, "'params' must be an object"],
    [{ jsonrpc: "2.0", id: 1, method: "ping", params: null }, "'params' must be an object"],
    [{ jsonrpc: "2.0", id: 1 }, "expected a 'method' (request or notification) or a response"],
  ])("refuses %j with -32600 under id null", (message, why) => {
    expect(checkJsonRpcMessage(message)).toEqual({
      kind: "refused",
      refusal: { code: -32600, message: `Invalid Request: ${why}`, id: null },
    });
  });

  it.each([
    [undefined, "params is required: { name, arguments }"],
    [{}, "params.name must be a string naming a tool"],
    [{ name: "t", arguments: [1] }, "params.arguments must be an object of named parameters"],
  ])("refuses a tools/call with params %j with -32602 under its id", (params, message) => {
    const call = {
      jsonrpc: "2.0",
      id: 9,
      method: "tools/call",
      ...(params === undefined ? {} : { params }),
    };
    expect(checkJsonRpcMessage(call)).toEqual({
      kind: "refused",
      refusal: { code: -32602, message, id: 9 },
    });
  });
});
