import { describe, expect, it } from "vitest";
import { readFlatRequest } from "../../../../../shells/common/mcp/json-rpc-envelope.js";

const call = (args: unknown, id: unknown = 1) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "validate_sql", arguments: args },
  });

describe("readFlatRequest", () => {
  it.each([
    [call({ sql: "SELECT id, name FROM users WHERE id = 42" })],
    [call({ sql: "SELECT 'it''s'\n\tFROM \"t\" -- é ✓ 😀", dialect: "mysql" }, "req-7")],
    [call({ sql: 'SELECT "\\u0041" \\ x', indent_size: 4, uppercase_keywords: true }, -3)],
    [call({ sql: "x", add_semicolon: false, lineage: null }, 0)],
    [call({}, 123456789012345)],
    [
      '{"method":"tools/call","params":{"arguments":{"sql":"SELECT 1"},"name":"parse_sql"},"jsonrpc":"2.0","id":9}',
    ],
    ['{"jsonrpc":"2.0","id":1,"method":"ping"}'],
    ['{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}'],
    ['{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":"x"}}'],
    [
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"sql":"a","sql":"b"}}}',
    ],
    ['{"jsonrpc":"2.0","id":"\\u0031","method":"tools\\/call","params":{"name":"t\\n"}}'],
    ["{}"],
  ])("reads %s as JSON.parse does", (text) => {
    const read = readFlatRequest(text);
    expect(read).toBeDefined();
    expect(read).toStrictEqual(JSON.parse(text));
    expect(JSON.stringify(read)).toBe(JSON.stringify(JSON.parse(text)));
  });

  it("keeps the key order of the text, as JSON.parse does", () => {
    const text =
      '{"id":2,"params":{"arguments":{"b":1,"a":2},"name":"t"},"method":"m","jsonrpc":"2.0"}';
    expect(JSON.stringify(readFlatRequest(text))).toBe(JSON.stringify(JSON.parse(text)));
  });

  it.each([
    // Not JSON at all: JSON.parse decides (and refuses).
    ['{"jsonrpc":"2.0","id":01,"method":"ping"}'],
    ['{"jsonrpc":"2.0","id":1,"method":"ping",}'],
    ['{"jsonrpc":"2.0","id":1,"method":"ping"'],
    ['{"jsonrpc":"2.0","id":1,"method":"ping"}x'],
    ['{"jsonrpc":"2.0","id":1,"method":"a\tb"}'],
    ['{"jsonrpc":"2.0","id":1,"method":"\\x"}'],
    ['{"jsonrpc":"2.0","id":-,"method":"ping"}'],
    // JSON, but not the flat compact shape: JSON.parse reads it.
    ['{ "jsonrpc": "2.0", "id": 1, "method": "ping" }'],
    ['\uFEFF{"jsonrpc":"2.0","id":1,"method":"ping"}'],
    ['{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"ping"}'],
    ['{"jsonrpc":"2.0","id":1.5,"method":"ping"}'],
    ['{"jsonrpc":"2.0","id":1e3,"method":"ping"}'],
    ['{"jsonrpc":"2.0","id":1234567890123456,"method":"ping"}'],
    ['{"jsonrpc":"2.0","id":1,"method":"ping","extra":1}'],
    ['{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}'],
    ['{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{}}}'],
    ['{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":[1]}}}'],
    ['{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":{}}}}'],
    ['{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{"__proto__":1}}}'],
    ['{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{"A b":1}}}'],
    ['[{"jsonrpc":"2.0","id":1,"method":"ping"}]'],
    [""],
  ])("leaves %s to JSON.parse", (text) => {
    expect(readFlatRequest(text)).toBeUndefined();
  });
});
