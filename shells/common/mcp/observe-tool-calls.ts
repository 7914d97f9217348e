import { JSON_RPC, McpProtocolError } from "./mcp-protocol-error.js";
import type { ToolCallOutcome, ToolCatalog } from "./tool-catalog.js";

/** One finished tool call: which tool, how it ended, how long it took. */
export interface ObservedToolCall {
  /** The tool's name, or `unknown` for a name the catalog does not have (bounded labels). */
  readonly tool: string;
  readonly outcome: "ok" | "tool_error" | "invalid_params" | "fault";
  readonly ms: number;
}

/**
 * The same catalog, telling `onCall` about every call once it ended (for a log line and
 * metrics). Calls stay synchronous when the tool is; the arguments are never passed on, so no
 * SQL or memory text reaches the observer.
 *
 * @example
 * const catalog = observeToolCalls(createToolCatalog(tools), (call) => logger.info("tool call", call));
 */
export function observeToolCalls(
  catalog: ToolCatalog,
  onCall: (call: ObservedToolCall) => void,
): ToolCatalog {
  const known = new Set(catalog.listResult.tools.map((tool) => tool.name));
  return {
    listResult: catalog.listResult,
    listResultJson: catalog.listResultJson,
    call(name, args) {
      const started = performance.now();
      const tool = known.has(name) ? name : "unknown";
      const done = (outcome: ObservedToolCall["outcome"]): void =>
        onCall({ tool, outcome, ms: Math.round((performance.now() - started) * 100) / 100 });
      const failed = (error: unknown): never => {
        const invalid = error instanceof McpProtocolError && error.code === JSON_RPC.INVALID_PARAMS;
        done(invalid ? "invalid_params" : "fault");
        throw error;
      };
      const settled = (outcome: ToolCallOutcome): ToolCallOutcome => {
        done(outcome.isError ? "tool_error" : "ok");
        return outcome;
      };
      let result: ToolCallOutcome | Promise<ToolCallOutcome>;
      try {
        result = catalog.call(name, args);
      } catch (error) {
        return failed(error);
      }
      return result instanceof Promise ? result.then(settled, failed) : settled(result);
    },
  };
}
