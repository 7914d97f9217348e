import fc from "fast-check";
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

describe("readFlatRequest against JSON.parse, generated", () => {
  const scalar = fc.oneof(
    fc.string({ unit: "binary" }),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
  );
  const argumentName = fc.oneof(fc.stringMatching(/^[a-z0-9_]{1,12}$/), fc.string());
  const request = fc
    .record(
      {
        jsonrpc: fc.oneof(fc.constant("2.0"), scalar),
        id: fc.oneof(fc.integer(), fc.string({ unit: "binary" }), fc.constant(null), scalar),
        method: fc.oneof(fc.constantFrom("tools/call", "ping", "tools/list"), fc.string()),
        params: fc.record(
          {
            name: fc.oneof(fc.constantFrom("validate_sql", "lint_sql"), scalar),
            arguments: fc.oneof(fc.dictionary(argumentName, scalar), scalar),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    )
    .chain((value) =>
      // Any key order, as a client may send them.
      fc
        .shuffledSubarray(Object.keys(value), { minLength: Object.keys(value).length })
        .map((keys) =>
          JSON.stringify(Object.fromEntries(keys.map((k) => [k, (value as never)[k]]))),
        ),
    );

  it("reads a generated request exactly as JSON.parse does, or leaves it to JSON.parse", () => {
    let reads = 0;
    fc.assert(
      fc.property(request, (text) => {
        const read = readFlatRequest(text);
        if (read === undefined) return;
        reads += 1;
        expect(read).toStrictEqual(JSON.parse(text));
        expect(JSON.stringify(read)).toBe(JSON.stringify(JSON.parse(text)));
      }),
      { numRuns: 2_000 },
    );
    // The generator makes the shapes the reader takes, not only ones it leaves to JSON.parse.
    expect(reads).toBeGreaterThan(200);
  });

  it("never reads a text JSON.parse refuses, and agrees on every text it reads", () => {
    // A generated request with one character inserted, removed or replaced somewhere.
    const edited = fc
      .tuple(request, fc.nat(), fc.constantFrom("insert", "remove", "replace"), fc.string())
      .map(([text, at, how, piece]) => {
        const i = at % (text.length + 1);
        const tail = how === "insert" ? text.slice(i) : text.slice(i + 1);
        return text.slice(0, i) + (how === "remove" ? "" : piece.slice(0, 1)) + tail;
      });
    fc.assert(
      fc.property(edited, (text) => {
        const read = readFlatRequest(text);
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          expect(read).toBeUndefined();
          return;
        }
        if (read !== undefined) expect(JSON.stringify(read)).toBe(JSON.stringify(parsed));
      }),
      { numRuns: 3_000 },
    );
  });
});
