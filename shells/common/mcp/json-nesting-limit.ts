import { nestsDeeperThan } from "../../../core/memory/model/json-nesting.js";

/**
 * The deepest nesting of arrays and objects an MCP message may have: the envelope (`params`,
 * `arguments`) and the deepest tool argument (a `schema` of tables and columns) take under 10.
 */
export const MAX_MCP_NESTING = 64;

/** The JSON-RPC parse error's message for a message refused by {@link nestsTooDeep}. */
export const TOO_DEEP_MESSAGE = `Parse error: nested deeper than ${MAX_MCP_NESTING} levels of arrays and objects`;

/**
 * Whether an MCP message's text nests deeper than {@link MAX_MCP_NESTING}, told in one pass
 * before `JSON.parse` sees it: 1 MB of `[` took ~0.7 s of the event loop to parse and collect,
 * for a message no tool accepts.
 *
 * @example
 * nestsTooDeep('{"jsonrpc":"2.0","id":1,"method":"ping"}'); // false
 */
export function nestsTooDeep(text: string): boolean {
  return nestsDeeperThan(text, MAX_MCP_NESTING);
}
