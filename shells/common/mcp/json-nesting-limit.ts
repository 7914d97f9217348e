import { nestsDeeperThan } from "../../../core/memory/model/json-nesting.js";

/**
 * The deepest nesting of arrays and objects an MCP message may have: the envelope (`params`,
 * `arguments`) and the deepest tool argument (a `schema` of tables and columns) take under 10.
 */
export const MAX_MCP_NESTING = 64;

/**
 * The message of the JSON-RPC error (-32600, invalid request, id null: the message is not read)
 * for a message refused by {@link nestsTooDeep}. Not -32700: the text may be valid JSON.
 */
export const TOO_DEEP_MESSAGE = `Invalid Request: nested deeper than ${MAX_MCP_NESTING} levels of arrays and objects (no MCP message needs more); not read`;

/**
 * Whether an MCP message's text nests deeper than {@link MAX_MCP_NESTING}, told in one pass
 * before `JSON.parse` sees it: V8 parses deep nesting at ~1.5-2 µs a level, so a 4 MiB stdio line
 * of `{"a":[[[…]]]}` held the event loop 4.6 s and a 1 MiB HTTP body ~1 s, for a message no
 * tool accepts (a valid `ping` with such params is refused too: issue 26 asks that the session
 * keeps serving, which it does).
 *
 * @example
 * nestsTooDeep('{"jsonrpc":"2.0","id":1,"method":"ping"}'); // false
 */
export function nestsTooDeep(text: string): boolean {
  return nestsDeeperThan(text, MAX_MCP_NESTING);
}
