import { pgStatementKind } from "./pg-statement.js";

/** The start of a one-statement tree, up to its node type: `{"version":…,"stmts":[{"stmt":{"`. */
const HEAD = /^\{"version":\d+,"stmts":\[\{"stmt":\{"([A-Za-z_]+)":\{/;
/** Only entries after the first carry a location; its absence means at most one statement. */
const LOCATION_KEY = '"stmt_location":';
const LENGTH_KEY = ',"stmt_len":';
/** The last field of a SelectStmt that is no set operation (`all`, `larg`, `rarg` are unset). */
const NOT_A_SET_OPERATION = '"op":"SETOP_NONE"';
/** Node types whose kind depends on a field of the body (`pgStatementKind`). */
const KIND_BY_FIELD = new Set(["CreateTableAsStmt", "GrantStmt"]);

/**
 * The kind of the one statement of libpg-query's JSON tree, read from the text's two ends
 * without scanning it: the node type at the start and, for a SelectStmt, whether its body ends
 * with `"op":"SETOP_NONE"` (a plain SELECT) — what `parse_sql` needs for most texts, at a
 * fraction of the cost of an outline of the whole text. `undefined` when the tree is not in
 * that shape (several statements, none, a set operation, a kind read from another field): the
 * caller then outlines the text (`outlinePgStatements`). When it answers, it answers what
 * `pgStatementKind` names from the outline.
 *
 * @example
 * onePgStatementKind('{"version":180004,"stmts":[{"stmt":{"SelectStmt":{"targetList":[…],"op":"SETOP_NONE"}}}]}');
 * // "Select"
 * onePgStatementKind('{"version":180004,"stmts":[{"stmt":{"SelectStmt":{…}}},{"stmt":{…},"stmt_location":9}]}');
 * // undefined: two statements
 */
export function onePgStatementKind(json: string): string | undefined {
  const head = HEAD.exec(json);
  if (head === null) return undefined;
  const type = head[1] as string;
  if (KIND_BY_FIELD.has(type)) return undefined;
  const bodyEnd = bodyClose(json);
  if (bodyEnd < head[0].length) return undefined;
  if (type === "SelectStmt" && !json.endsWith(NOT_A_SET_OPERATION, bodyEnd)) return undefined;
  // Last, as the one check that reads the whole text: no second statement.
  if (json.includes(LOCATION_KEY)) return undefined;
  return type === "SelectStmt" ? "Select" : pgStatementKind({ [type]: {} });
}

/**
 * The index of the `}` closing the statement's body: the text ends `}}]}` after it, or
 * `}},"stmt_len":N}]}`; -1 when it ends otherwise.
 */
function bodyClose(json: string): number {
  if (!json.endsWith("}]}")) return -1;
  const entryEnd = json.length - 3;
  if (json.charCodeAt(entryEnd - 1) === 125) {
    return json.charCodeAt(entryEnd - 2) === 125 ? entryEnd - 2 : -1;
  }
  const length = json.lastIndexOf(LENGTH_KEY);
  if (length < 2 || !/^\d+$/.test(json.slice(length + LENGTH_KEY.length, entryEnd))) return -1;
  return json.charCodeAt(length - 1) === 125 && json.charCodeAt(length - 2) === 125
    ? length - 2
    : -1;
}
