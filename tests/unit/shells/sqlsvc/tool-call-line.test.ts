import { describe, expect, it } from "vitest";
import { createJsonLogger } from "../../../../shells/common/logger.js";
import type { ObservedToolCall } from "../../../../shells/common/mcp/observe-tool-calls.js";
import { toolCallLine } from "../../../../shells/sqlsvc/tool-call-line.js";

function loggerLine(call: ObservedToolCall, id: string | undefined, at: number): string {
  let line = "";
  const logger = createJsonLogger({ write: (text) => (line = text), now: () => new Date(at) });
  logger.info("tool call", { tool: call.tool, outcome: call.outcome, ms: call.ms, request_id: id });
  return line;
}

describe("toolCallLine", () => {
  it.each([
    [{ tool: "validate_sql", outcome: "ok", ms: 0.05 }, "trace-42", 0],
    [{ tool: "unknown", outcome: "invalid_params", ms: 12 }, 'a"b\\c', 1_764_300_000_123],
    [{ tool: "analyze_sql", outcome: "fault", ms: 1234.56 }, undefined, 1_764_300_000_999],
  ] as const)("writes the JSON logger's bytes for %j", (call, id, at) => {
    expect(toolCallLine(call, id, at)).toBe(loggerLine(call, id, at));
  });

  it("formats the time of each millisecond, not the first one's", () => {
    const call = { tool: "parse_sql", outcome: "ok", ms: 1 } as const;
    toolCallLine(call, "x", 1000);
    expect(toolCallLine(call, "x", 1001)).toBe(loggerLine(call, "x", 1001));
  });
});
