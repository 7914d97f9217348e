import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { MEMSVC_BIN, cleanupMemsvc, makeTempDir, memsvcEnv } from "../support/spawn-memsvc.js";
import { SQLSVC_BIN, sqlsvcEnv } from "../support/spawn-sqlsvc.js";

/** What a client bug or a stray write could put on the pipe, one entry per line (issue 26). */
const GARBAGE: readonly (readonly [string, Buffer | string])[] = [
  ["invalid UTF-8", Buffer.from([0xff, 0xfe, 0x80, 0xc3])],
  ["100,000 nested brackets", "[".repeat(100_000)],
  ["100,000 nested braces", "{".repeat(100_000)],
  ["a JSON-RPC response", JSON.stringify({ jsonrpc: "2.0", id: 424242, result: {} })],
  [
    "an error response",
    JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: 1, message: "x" } }),
  ],
  [
    "a 101-item batch",
    JSON.stringify(
      Array.from({ length: 101 }, (_, i) => ({ jsonrpc: "2.0", id: 9000 + i, method: "ping" })),
    ),
  ],
  ["a 10 MB line", "x".repeat(10_000_000)],
  ["an object id", JSON.stringify({ jsonrpc: "2.0", id: { a: 1 }, method: "ping" })],
  [
    "string params",
    JSON.stringify({ jsonrpc: "2.0", id: 8001, method: "tools/call", params: "x" }),
  ],
  ["tools/call without params", JSON.stringify({ jsonrpc: "2.0", id: 8002, method: "tools/call" })],
  ["null", "null"],
  ["a number", "42"],
  ["an empty batch", "[]"],
  ["an empty object", "{}"],
  ["truncated JSON", '{"jsonrpc":"2.0","id":1,"method":"pi'],
  ["a NUL byte", "\u0000"],
  [
    "deep params in a valid request",
    `{"jsonrpc":"2.0","id":8003,"method":"ping","params":{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}}`,
  ],
  ["an unknown method", JSON.stringify({ jsonrpc: "2.0", id: 8004, method: "nope" })],
];

interface Served {
  readonly child: ChildProcess;
  readonly answers: Map<unknown, { result?: unknown; error?: { code: number; message: string } }>;
  readonly errorsWithNullId: { code: number; message: string }[];
  waitFor(id: number): Promise<void>;
}

/** Starts a stdio server and collects every answer it writes, by id. */
function serve(args: readonly string[], env: NodeJS.ProcessEnv, cwd?: string): Served {
  const child = spawn(process.execPath, args, { env, cwd, stdio: ["pipe", "pipe", "pipe"] });
  const answers: Served["answers"] = new Map();
  const errorsWithNullId: Served["errorsWithNullId"] = [];
  const waiting = new Map<unknown, () => void>();
  let exited: Error | undefined;
  const failures = new Set<(error: Error) => void>();
  child.once("exit", (code) => {
    exited = new Error(`server exited (${String(code)})`);
    for (const fail of failures) fail(exited);
  });
  let pending = "";
  child.stderr?.resume();
  child.stdout?.setEncoding("utf8");
  child.stdout?.on("data", (chunk: string) => {
    pending += chunk;
    let newline: number;
    while ((newline = pending.indexOf("\n")) !== -1) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      const message = JSON.parse(line) as {
        id: unknown;
        result?: unknown;
        error?: { code: number; message: string };
      };
      if (message.id === null && message.error !== undefined) errorsWithNullId.push(message.error);
      else answers.set(message.id, message);
      waiting.get(message.id)?.();
    }
  });
  return {
    child,
    answers,
    errorsWithNullId,
    waitFor: (id) => {
      if (answers.has(id)) return Promise.resolve();
      if (exited !== undefined) return Promise.reject(exited);
      return new Promise<void>((resolve, reject) => {
        failures.add(reject);
        waiting.set(id, () => {
          failures.delete(reject);
          resolve();
        });
      });
    },
  };
}

/** Writes one line and waits until the pipe took it. */
function writeLine(child: ChildProcess, line: Buffer | string): Promise<void> {
  return new Promise((resolve, reject) => {
    const stdin = child.stdin;
    if (stdin === null) throw new Error("no stdin");
    stdin.write(line);
    stdin.write("\n", (error) => (error ? reject(error) : resolve()));
  });
}

/** Feeds every garbage line between valid requests; each valid request must be answered. */
async function feedGarbage(served: Served, validRequest: (id: number) => object): Promise<void> {
  let id = 1;
  const ask = async () => {
    const current = id++;
    await writeLine(served.child, JSON.stringify(validRequest(current)));
    await served.waitFor(current);
    expect(served.answers.get(current)?.error, `request ${current}`).toBeUndefined();
  };
  await ask();
  for (const [, line] of GARBAGE) {
    await writeLine(served.child, line);
    await ask();
  }
  expect(served.child.exitCode).toBeNull();
}

describe("stdio MCP servers answer every malformed line and keep serving (issue 26)", () => {
  afterAll(() => cleanupMemsvc());

  it.each([
    ["sqlsvc-mcp --stdio", () => serve([SQLSVC_BIN, "--stdio"], sqlsvcEnv())],
    [
      "memsvc mcp",
      () => {
        const dir = makeTempDir();
        const env = memsvcEnv(dir, { MEMSVC_EMBEDDER_LOCAL_MODEL: "hashing" });
        return serve([MEMSVC_BIN, "mcp"], env, dir);
      },
    ],
  ] as const)("%s", { timeout: 120_000 }, async (_name, start) => {
    const served = start();
    try {
      await feedGarbage(served, (id) => ({ jsonrpc: "2.0", id, method: "tools/list" }));
      // The errors each line deserves: parse errors and invalid requests under id null, the
      // bad tools/call params under their own ids, the unknown method -32601.
      const codes = served.errorsWithNullId.map((error) => error.code);
      expect(codes.filter((code) => code === -32700).length).toBeGreaterThanOrEqual(3);
      expect(codes.filter((code) => code === -32600).length).toBeGreaterThanOrEqual(10);
      expect(served.errorsWithNullId.some((e) => /longer line was skipped/.test(e.message))).toBe(
        true,
      );
      expect(served.answers.get(8002)?.error).toEqual({
        code: -32602,
        message: "params is required: { name, arguments }",
      });
      // Nested past 64 levels: refused unread (JSON.parse of a 4 MiB line of it took 4.6 s),
      // valid or not, under id null; the next request is served as usual.
      expect(served.answers.has(8003)).toBe(false);
      const deep = served.errorsWithNullId.filter((e) =>
        /nested deeper than 64 levels/.test(e.message),
      );
      expect(deep.map((e) => e.code)).toEqual([-32600, -32600, -32600]);
      expect(served.answers.get(8004)?.error?.code).toBe(-32601);
      // A response is never answered, nor are the batch's items.
      expect(served.answers.has(424242)).toBe(false);
      expect(served.answers.has(9000)).toBe(false);
      const exited = new Promise<number | null>((resolve) => served.child.once("exit", resolve));
      served.child.stdin?.end();
      expect(await exited).toBe(0);
    } finally {
      served.child.kill("SIGKILL");
    }
  });
});
