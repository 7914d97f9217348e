export { SQL_DIALECTS, toSqlDialect } from "./dialects.js";
export type { SqlDialect } from "./dialects.js";
export type { Token, TokenKind } from "./token.js";
export type * from "./results.js";
