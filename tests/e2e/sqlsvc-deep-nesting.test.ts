/**
 * Issue 8: "deep nesting gives a clear tool error (or a result), never -32603", for every tool,
 * over real HTTP at the largest accepted text (256 KiB), where calls run in the budgeted worker
 * thread. A call that runs past its budget on a loaded machine is also a tool error, so the check
 * holds on any machine.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson, startSqlsvc, toolCall, type SqlsvcProcess } from "../support/spawn-sqlsvc.js";

const KIB = 1024;
const TOOLS = [
  "validate_sql",
  "format_sql",
  "parse_sql",
  "extract_metadata",
  "security_scan",
  "lint_sql",
  "analyze_sql",
];

/** Nested parentheses, CASE and sub-selects, each just under 256 KiB. */
function deepTexts(size: number): Record<string, string> {
  const half = Math.floor((size - 20) / 2);
  const cases = Math.floor((size - 20) / 21);
  const selects = Math.floor((size - 20) / 9);
  return {
    parentheses: `SELECT ${"(".repeat(half)}1${")".repeat(half)}`,
    "CASE nesting": `SELECT ${"CASE WHEN a THEN ".repeat(cases)}1${" END".repeat(cases)}`,
    "nested selects": `${"SELECT (".repeat(selects)}1${")".repeat(selects)}`,
  };
}

interface CallAnswer {
  result?: { isError?: boolean; content?: { text: string }[] };
  error?: { code: number; message: string };
}

describe("sqlsvc-mcp on 256 KiB of deep nesting, every tool (issue 8)", () => {
  let server: SqlsvcProcess;

  beforeAll(async () => {
    server = await startSqlsvc();
  });

  afterAll(async () => {
    await server?.stop();
  });

  for (const [name, sql] of Object.entries(deepTexts(256 * KIB))) {
    it(`answers "${name}" with a result or a tool error, never a protocol error`, async () => {
      expect(sql.length).toBeLessThanOrEqual(256 * KIB);
      expect(sql.length).toBeGreaterThan(250 * KIB);
      for (const tool of TOOLS) {
        const res = await postJson(server.url, toolCall(tool, { sql }, 1));
        expect(res.status, tool).toBe(200);
        const body = (await res.json()) as CallAnswer;
        expect(body.error, `${tool}: ${JSON.stringify(body.error)}`).toBeUndefined();
        expect(body.result, tool).toBeDefined();
        if (body.result?.isError === true) {
          // A clear sentence, not an internal error.
          expect(body.result.content?.[0]?.text, tool).toMatch(/\w+ \w+/);
          expect(body.result.content?.[0]?.text, tool).not.toMatch(/internal error/i);
        }
      }
    }, 300_000);
  }
});
