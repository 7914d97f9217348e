import { endsOperand, type Token } from "../token.js";
import { isSignificant, type LintContext } from "./lint-context.js";
import { INTERVAL_UNITS } from "./lint-tokens.js";

// Long because: one pass that reads the shape of every SELECT (its select list, FROM items with
// their aliases, and the column references of each clause) for the reference and aliasing rules;
// splitting the state machine across files would spread one loop's state over them.

/** The clause of a SELECT a token sits in. */
export type Clause = "select" | "from" | "on" | "where" | "group" | "having" | "order" | "other";

/** One item of a FROM clause (or a JOIN). */
export interface TableRef {
  /** The first token: the name, or `(` of a derived table. */
  readonly first: Token;
  /** The name's parts (`sales`, `orders`), empty for a derived table. */
  readonly name: Token[];
  /** A subquery, VALUES list or table function (`UNNEST(x)`): its alias is usually required. */
  derived: boolean;
  /** The last token before the alias. */
  last: Token;
  alias: Token | undefined;
  /** The `AS` before the alias, when written. */
  as: Token | undefined;
}

/** One item of a select list, as the tokens at the list's own parenthesis level. */
export interface SelectItem {
  readonly tokens: Token[];
  alias: Token | undefined;
  as: Token | undefined;
}

/** A column reference: its dotted parts (`o`, `total`), or a qualified star (`o`, `*`). */
export interface ColumnRef {
  readonly parts: readonly Token[];
  readonly clause: Clause;
}

/** One SELECT with what it reads. */
export interface QueryScope {
  readonly select: Token;
  readonly parent: QueryScope | undefined;
  readonly statement: number;
  readonly items: SelectItem[];
  readonly tables: TableRef[];
  /** Commas joining FROM items (`FROM a, b`). */
  readonly fromCommas: Token[];
  /** Column references in this SELECT's clauses, not in its subqueries. */
  readonly refs: ColumnRef[];
  /** The clause words at this SELECT's level (`FROM`, `WHERE`, `GROUP`, …). */
  readonly keywords: Token[];
  /** The token before the `(` this SELECT sits in (`EXISTS`, `IN`, …), if any. */
  readonly opener: Token | undefined;
}

/** One statement's significant tokens and the CTE names it defines after WITH. */
export interface StatementShape {
  readonly tokens: Token[];
  /** The tokens outside every parenthesis. */
  readonly top: Token[];
  readonly ctes: Token[];
}

const VERBS: ReadonlySet<string> = new Set(["SELECT", "INSERT", "UPDATE", "DELETE", "MERGE"]);

/**
 * The word a statement starts with (`DELETE`, `DROP`, …); for `WITH … DELETE`, the verb after
 * the CTEs. Undefined for an empty statement.
 *
 * @example
 * statementVerb(queryShape(createLintContext("WITH x AS (SELECT 1) DELETE FROM t")).statements[0]!)?.upper; // "DELETE"
 */
export function statementVerb(statement: StatementShape): Token | undefined {
  const first = statement.top[0];
  if (first?.upper !== "WITH") return first;
  return statement.top.find((t) => t.kind === "keyword" && VERBS.has(t.upper));
}

/**
 * The verb tokens of the statements led by the keyword `verb` that have none of the `limits`
 * keywords after it at their own level (a WHERE inside a subquery does not count): the
 * DELETEs and UPDATEs that touch every row.
 *
 * @example
 * unlimitedVerbs(createLintContext("DELETE FROM t"), "DELETE", new Set(["WHERE"])); // [DELETE]
 */
export function unlimitedVerbs(
  ctx: LintContext,
  verb: string,
  limits: ReadonlySet<string>,
): Token[] {
  const found: Token[] = [];
  for (const statement of queryShape(ctx).statements) {
    const head = statementVerb(statement);
    if (head?.upper !== verb || head.kind !== "keyword") continue;
    const after = statement.top.slice(statement.top.indexOf(head) + 1);
    if (!after.some((t) => t.kind === "keyword" && limits.has(t.upper))) found.push(head);
  }
  return found;
}

/** Every SELECT of a text and its statements. */
export interface QueryShape {
  readonly scopes: readonly QueryScope[];
  readonly statements: readonly StatementShape[];
}

const JOIN_WORDS: ReadonlySet<string> = new Set(["JOIN", "APPLY", "STRAIGHT_JOIN"]);
const REF_PREFIX: ReadonlySet<string> = new Set(["LATERAL", "ONLY"]);
const CLAUSE_WORDS: Readonly<Record<string, Clause>> = {
  WHERE: "where",
  GROUP: "group",
  HAVING: "having",
  ORDER: "order",
  QUALIFY: "other",
  WINDOW: "other",
  LIMIT: "other",
  OFFSET: "other",
  FETCH: "other",
  FOR: "other",
  RETURNING: "other",
};
const SET_OPERATORS: ReadonlySet<string> = new Set(["UNION", "EXCEPT", "INTERSECT", "MINUS"]);
/**
 * Words after a table name that are not an alias: table hints and sampling read as names
 * (MySQL's `FORCE INDEX (i)`, `USE KEY`, `IGNORE INDEX`; SQLite's `INDEXED BY i`).
 */
const NOT_ALIAS: ReadonlySet<string> = new Set([
  "TABLESAMPLE", "FINAL", "NOLOCK", "SAMPLE", "FORCE", "USE", "IGNORE", "INDEXED",
]); // prettier-ignore
/** Statements whose SELECT is a privilege (`GRANT SELECT ON v TO SHARE s`), not a query. */
export const PRIVILEGE_VERBS: ReadonlySet<string> = new Set(["GRANT", "REVOKE", "DENY"]);
const OPERAND_END_WORDS: ReadonlySet<string> = new Set(["END", "NULL", "TRUE", "FALSE"]);

type FromState =
  | "none"
  | "expectRef"
  | "afterName"
  | "expectNamePart"
  | "inCall"
  | "derived"
  | "afterDerived"
  | "expectAlias"
  | "afterAlias"
  | "on"
  | "other";

interface Frame {
  scope: QueryScope | undefined;
  /** The nearest frame (this or an ancestor) that holds a scope. */
  readonly owner: Frame | undefined;
  clause: Clause;
  from: FromState;
  table: TableRef | undefined;
  item: SelectItem | undefined;
  withCtes: boolean;
  lastName: Token | undefined;
  /** The token before the `(` that opened this frame. */
  opener: Token | undefined;
}

/**
 * True when a name after an operand is no alias although it looks like one: PostgreSQL's digit
 * separators (`1_000` is the number and the name `_000`, touching) and `TIME ZONE`.
 *
 * @example
 * notAnAlias(timeToken, zoneToken); // true for `… WITH TIME ZONE`
 */
export function notAnAlias(before: Token | undefined, name: Token): boolean {
  if (before?.kind === "number" && before.end === name.start) return true;
  return before?.upper === "TIME" && name.upper === "ZONE";
}

export function isName(token: Token | undefined): token is Token {
  return token !== undefined && (token.kind === "identifier" || token.kind === "quoted_identifier");
}

/** The token model's operand rule, plus keywords that end an operand (`END`, `NULL`, …). */
export function endsItemOperand(token: Token | undefined): boolean {
  if (token?.kind !== "keyword") return endsOperand(token);
  return OPERAND_END_WORDS.has(token.upper) || INTERVAL_UNITS.has(token.upper);
}

/** A name's comparison key: unquoted names case-insensitively, quoted ones without quotes. */
export function nameKey(token: Token): string {
  if (token.kind === "quoted_identifier") return token.text.slice(1, -1).toUpperCase();
  return token.upper;
}

const cache = new WeakMap<readonly Token[], QueryShape>();

/**
 * The shape of every SELECT in the context's text, read once per lint call and shared by the
 * rules that need it. A reading of tokens, not a parse: it never fails, and on text it cannot
 * follow it reports less rather than more.
 *
 * @example
 * const shape = queryShape(createLintContext("SELECT o.id FROM orders o"));
 * shape.scopes[0]?.tables[0]?.alias?.text; // "o"
 */
export function queryShape(ctx: LintContext): QueryShape {
  const cached = cache.get(ctx.tokens);
  if (cached !== undefined) return cached;
  const shape = readShape(ctx.tokens.filter(isSignificant));
  cache.set(ctx.tokens, shape);
  return shape;
}

function readShape(code: readonly Token[]): QueryShape {
  const scopes: QueryScope[] = [];
  const statements: StatementShape[] = [{ tokens: [], top: [], ctes: [] }];
  const newFrame = (parent: Frame | undefined, opener?: Token): Frame => ({
    scope: undefined,
    owner: parent === undefined ? undefined : parent.scope !== undefined ? parent : parent.owner,
    clause: "other",
    from: "none",
    table: undefined,
    item: undefined,
    withCtes: false,
    lastName: undefined,
    opener,
  });
  const stack: Frame[] = [newFrame(undefined)];

  const finishTable = (f: Frame): void => {
    if (f.table !== undefined) f.scope?.tables.push(f.table);
    f.table = undefined;
  };
  const finishItem = (f: Frame): void => {
    const item = f.item;
    f.item = undefined;
    if (item === undefined || f.scope === undefined || item.tokens.length === 0) return;
    const t = item.tokens;
    const last = t[t.length - 1];
    const before = t[t.length - 2];
    if (isName(last) && before?.upper === "AS" && before.kind === "keyword") {
      item.alias = last;
      item.as = before;
    } else if (
      isName(last) &&
      t.length >= 2 &&
      endsItemOperand(before) &&
      !notAnAlias(before, last) &&
      before?.text !== "." &&
      t[0]?.upper !== "TOP" &&
      t[0]?.upper !== "DISTINCT"
    ) {
      item.alias = last;
    }
    f.scope.items.push(item);
  };
  const finishScope = (f: Frame): void => {
    if (f.scope === undefined) return;
    finishItem(f);
    finishTable(f);
    const aliases = new Set(f.scope.items.flatMap((i) => (i.alias === undefined ? [] : [i.alias])));
    const refs = f.scope.refs.filter(
      (r) => !(r.parts.length === 1 && aliases.has(r.parts[0] as Token)),
    );
    f.scope.refs.length = 0;
    f.scope.refs.push(...refs);
    f.scope = undefined;
    f.from = "none";
  };

  for (let i = 0; i < code.length; i++) {
    const t = code[i] as Token;
    const prev = code[i - 1];
    const next = code[i + 1];
    const f = stack[stack.length - 1] as Frame;
    const kw = t.kind === "keyword" ? t.upper : "";
    const statement = statements[statements.length - 1] as StatementShape;
    statement.tokens.push(t);
    if (stack.length === 1 && t.text !== ";") statement.top.push(t);

    if (t.text === "(" && t.kind === "punctuation") {
      if (f.scope !== undefined && f.clause === "select") f.item?.tokens.push(t);
      if (f.scope !== undefined && f.clause === "from") {
        if (f.from === "expectRef") {
          f.table = { first: t, name: [], derived: true, last: t, alias: undefined, as: undefined };
          f.from = "derived";
        } else if (f.from === "afterName") f.from = "inCall";
      }
      stack.push(newFrame(f, prev));
      continue;
    }
    if (t.text === ")" && t.kind === "punctuation") {
      if (stack.length === 1) continue;
      finishScope(stack.pop() as Frame);
      const p = stack[stack.length - 1] as Frame;
      if (p.scope !== undefined && p.clause === "select") p.item?.tokens.push(t);
      if (p.from === "derived" || p.from === "inCall") {
        if (p.table !== undefined) {
          p.table.derived = true;
          p.table.last = t;
        }
        p.from = "afterDerived";
      }
      continue;
    }
    if (t.text === ";") {
      if (stack.length === 1) {
        finishScope(f);
        f.withCtes = false;
        statements.push({ tokens: [], top: [], ctes: [] });
      }
      continue;
    }

    // Statement level: CTE names.
    if (kw === "WITH" && f.scope === undefined) f.withCtes = true;
    if (
      f.withCtes &&
      f.scope === undefined &&
      kw === "AS" &&
      next?.text === "(" &&
      f.lastName !== undefined
    ) {
      statement.ctes.push(f.lastName);
    }
    if (isName(t) && prev?.text !== ".") f.lastName = t;

    if (kw === "SELECT" && !PRIVILEGE_VERBS.has(statement.tokens[0]?.upper ?? "")) {
      finishScope(f);
      f.withCtes = false;
      const scope: QueryScope = {
        select: t,
        parent: f.owner?.scope,
        statement: statements.length - 1,
        items: [],
        tables: [],
        fromCommas: [],
        refs: [],
        keywords: [],
        opener: f.opener,
      };
      scopes.push(scope);
      f.scope = scope;
      f.clause = "select";
      f.item = { tokens: [], alias: undefined, as: undefined };
      continue;
    }

    if (f.scope !== undefined) {
      if (SET_OPERATORS.has(kw)) {
        finishScope(f);
        continue;
      }
      if (kw === "FROM" && prev?.upper !== "DISTINCT") {
        finishItem(f);
        f.scope.keywords.push(t);
        f.clause = "from";
        f.from = "expectRef";
        continue;
      }
      const clause = kw === "" ? undefined : CLAUSE_WORDS[kw];
      const needsBy = kw === "GROUP" || kw === "ORDER";
      if (clause !== undefined && (!needsBy || next?.upper === "BY")) {
        finishItem(f);
        finishTable(f);
        f.scope.keywords.push(t);
        f.clause = clause;
        f.from = "none";
      } else if (f.clause === "select") {
        if (t.text === ",") {
          finishItem(f);
          f.item = { tokens: [], alias: undefined, as: undefined };
          continue;
        }
        f.item?.tokens.push(t);
      } else if (f.clause === "from") {
        if (stepFrom(f, t, finishTable)) continue;
      }
    }

    collectRef(stack, code, i);
  }
  while (stack.length > 0) finishScope(stack.pop() as Frame);
  return { scopes, statements: statements.filter((s) => s.tokens.length > 0) };
}

/** Advances the FROM clause over `t`; true when `t` was a table name, alias or join word. */
function stepFrom(f: Frame, t: Token, finishTable: (f: Frame) => void): boolean {
  const kw = t.kind === "keyword" ? t.upper : "";
  if (t.text === "," && f.from !== "derived" && f.from !== "inCall") {
    finishTable(f);
    f.scope?.fromCommas.push(t);
    f.from = "expectRef";
    return true;
  }
  if (JOIN_WORDS.has(kw)) {
    finishTable(f);
    f.from = "expectRef";
    return true;
  }
  if (kw === "ON") {
    finishTable(f);
    f.from = "on";
    return true;
  }
  if (kw === "USING") {
    finishTable(f);
    f.from = "other";
    return true;
  }
  switch (f.from) {
    case "expectRef":
      if (REF_PREFIX.has(kw)) return true;
      if (isName(t)) {
        f.table = { first: t, name: [t], derived: false, last: t, alias: undefined, as: undefined };
        f.from = "afterName";
        return true;
      }
      f.from = "other";
      return false;
    case "expectNamePart":
      if (isName(t)) {
        f.table?.name.push(t);
        if (f.table !== undefined) f.table.last = t;
      }
      f.from = "afterName";
      return true;
    case "afterName":
    case "afterDerived":
      if (t.text === "." && f.from === "afterName") {
        f.from = "expectNamePart";
        return true;
      }
      if (kw === "AS" && f.table !== undefined) {
        f.table.as = t;
        f.from = "expectAlias";
        return true;
      }
      if (isName(t) && !NOT_ALIAS.has(t.upper) && f.table !== undefined) {
        f.table.alias = t;
        f.from = "afterAlias";
        return true;
      }
      f.from = "other";
      return false;
    case "expectAlias":
      if (f.table !== undefined && isName(t)) f.table.alias = t;
      f.from = "afterAlias";
      return true;
    case "on":
      return false;
    default:
      return true;
  }
}

/** Records the column reference starting at `code[i]`, if it is one and its clause counts. */
function collectRef(stack: readonly Frame[], code: readonly Token[], i: number): void {
  const t = code[i] as Token;
  if (!isName(t)) return;
  const prev = code[i - 1];
  if (prev?.text === "." || prev?.upper === "AS" || prev?.text === "::") return;
  const top = stack[stack.length - 1] as Frame;
  const owner = top.scope !== undefined ? top : top.owner;
  if (owner?.scope === undefined) return;
  let clause = owner.clause;
  if (clause === "from") {
    if (owner.from !== "on") return;
    clause = "on";
  }
  const parts: Token[] = [t];
  let j = i + 1;
  while (code[j]?.text === "." && (isName(code[j + 1]) || code[j + 1]?.text === "*")) {
    parts.push(code[j + 1] as Token);
    j += 2;
  }
  const after = code[j];
  if (after?.text === "(" || after?.text === "=>" || after?.text === ".") return;
  if (parts.length === 1 && INTERVAL_UNITS.has(t.upper)) return;
  owner.scope.refs.push({ parts, clause });
}
