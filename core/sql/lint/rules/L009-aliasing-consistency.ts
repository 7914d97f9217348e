import { endsOperand, type Token } from "../../token.js";
import { notAnAlias, PRIVILEGE_VERBS } from "../query-shape.js";
import { isSignificant } from "../lint-context.js";
import type { LintFinding, LintRule } from "../lint-rule.js";
import { INTERVAL_UNITS } from "../lint-tokens.js";

// Long because: the seed rule's two checks (mixed table aliases, column aliases without AS) share
// one walk whose FROM and select-list states are read together; split, each half needs the other.

/** Words that end a FROM clause or a select list at their own parenthesis depth. */
const CLAUSE_END: ReadonlySet<string> = new Set([
  "WHERE", "GROUP", "ORDER", "HAVING", "LIMIT", "UNION", "EXCEPT", "INTERSECT", "MINUS", "WINDOW",
  "QUALIFY", "FETCH", "OFFSET", "RETURNING", "SET", "VALUES", "INTO", "FROM", "FOR", "CONNECT",
  "START", "PIVOT", "UNPIVOT", "SELECT",
]); // prettier-ignore
const JOIN_WORDS: ReadonlySet<string> = new Set(["JOIN", "APPLY", "STRAIGHT_JOIN"]);
const REF_PREFIX: ReadonlySet<string> = new Set(["LATERAL", "ONLY"]);
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
  | "done";

interface Frame {
  fromState: FromState;
  aliased: number;
  unaliased: number;
  anchor: Token | undefined;
  lastSelect: Token | undefined;
  inSelectList: boolean;
  /** The first and the last three significant tokens of the current select item. */
  first: Token | undefined;
  last: Token | undefined;
  prev: Token | undefined;
  prevPrev: Token | undefined;
}

function newFrame(): Frame {
  return {
    fromState: "none",
    aliased: 0,
    unaliased: 0,
    anchor: undefined,
    lastSelect: undefined,
    inSelectList: false,
    first: undefined,
    last: undefined,
    prev: undefined,
    prevPrev: undefined,
  };
}

function isName(token: Token): boolean {
  return token.kind === "identifier" || token.kind === "quoted_identifier";
}

/** The token model's operand rule, plus the keywords that end an operand in a select list. */
function endsSelectOperand(token: Token | undefined): boolean {
  if (token?.kind !== "keyword") return endsOperand(token);
  // An interval unit is a keyword only after `INTERVAL n` (see lint-tokens.ts).
  return OPERAND_END_WORDS.has(token.upper) || INTERVAL_UNITS.has(token.upper);
}

/**
 * L009: a FROM clause where some tables have aliases and others don't, and select-list aliases
 * written without `AS` (the `require_column_as` setting); with `require_table_as`, table aliases
 * written without `AS` too.
 *
 * @example
 * aliasingConsistency.check(createLintContext("SELECT u.id, orders.total FROM users u JOIN orders ON u.id = orders.user_id"), report);
 * // "Some tables have aliases while others don't" at 1:1
 */
export const aliasingConsistency: LintRule = {
  code: "L009",
  name: "AliasingConsistency",
  severity: "warning",
  category: "style",
  description:
    "Reports a FROM clause (with its joins) in which some tables have an alias and others do not, at the SELECT that owns it, and a select-list alias written without AS. Mixed aliasing makes readers guess which prefix refers to which table; an alias without AS is indistinguishable from a missing comma (`SELECT a b` silently returns one column named b). Table aliases may omit AS because Oracle does not accept it there (teams that never target Oracle can require it); derived tables with an alias count as aliased.",
  bad: "SELECT u.id, orders.total amount\nFROM users u\nJOIN orders ON u.id = orders.user_id",
  good: "SELECT u.id, o.total AS amount\nFROM users AS u\nINNER JOIN orders AS o ON u.id = o.user_id",
  fixable: false,
  options: [
    {
      name: "require_column_as",
      values: "true or false; default true",
      description: "Report a select-list alias written without AS (`SELECT a b`).",
    },
    {
      name: "require_table_as",
      values: "true or false; default false",
      description: "Report a table alias written without AS (`FROM users u`).",
    },
  ],
  examples: [
    {
      options: { L009: { require_table_as: true } },
      bad: "SELECT u.id\nFROM users u",
      good: "SELECT u.id\nFROM users AS u",
    },
    {
      options: { L009: { require_column_as: false } },
      bad: "SELECT u.id\nFROM users u\nJOIN orders ON u.id = orders.user_id",
      good: "SELECT u.id, o.total amount\nFROM users u\nJOIN orders o ON u.id = o.user_id",
    },
  ],
  check(ctx, report) {
    const { require_table_as: tableAs, require_column_as: columnAs } = ctx.settings.L009;
    const implicitTableAlias = (alias: Token): void => {
      if (!tableAs) return;
      report({
        line: alias.line,
        column: alias.column,
        message: `Table alias '${alias.text}' is missing the AS keyword`,
        suggestion: `Write 'AS ${alias.text}' to make the alias explicit`,
      });
    };
    const frames: Frame[] = [newFrame()];
    let previous: Token | undefined;
    // The first word of the current statement: `GRANT SELECT ON …` names a privilege, no query.
    let statementVerb = "";

    const finishFrom = (frame: Frame): void => {
      if (frame.fromState === "afterName") frame.unaliased++;
      if (frame.aliased > 0 && frame.unaliased > 0 && frame.anchor !== undefined) {
        report({
          line: frame.anchor.line,
          column: frame.anchor.column,
          message: "Some tables have aliases while others don't",
          suggestion: "Use aliases consistently for all tables in the query",
        });
      }
      frame.fromState = "none";
      frame.aliased = 0;
      frame.unaliased = 0;
    };

    const finishItem = (frame: Frame): void => {
      const alias = frame.last;
      const before = frame.prev;
      if (
        columnAs &&
        frame.inSelectList &&
        alias !== undefined &&
        isName(alias) &&
        endsSelectOperand(before) &&
        !notAnAlias(before, alias) &&
        // `SELECT TOP 5 a`, `SELECT TOP (5) a` and `SELECT DISTINCT ON (a) a` are not aliases.
        frame.first?.upper !== "TOP" &&
        frame.first?.upper !== "DISTINCT"
      ) {
        const finding: LintFinding = {
          line: alias.line,
          column: alias.column,
          message: `Column alias '${alias.text}' is missing the AS keyword`,
          suggestion: `Write 'AS ${alias.text}' to make the alias explicit`,
        };
        report(finding);
      }
      frame.first = undefined;
      frame.last = undefined;
      frame.prev = undefined;
      frame.prevPrev = undefined;
    };

    const noteItem = (frame: Frame, token: Token): void => {
      if (!frame.inSelectList) return;
      if (frame.first === undefined) frame.first = token;
      frame.prevPrev = frame.prev;
      frame.prev = frame.last;
      frame.last = token;
    };

    for (const token of ctx.tokens) {
      if (!isSignificant(token)) continue;
      const frame = frames[frames.length - 1] as Frame;
      const upper = token.kind === "keyword" ? token.upper : "";
      const before = previous;
      previous = token;
      if (before === undefined || before.text === ";") statementVerb = token.upper;

      if (token.text === ")") {
        if (frames.length > 1) {
          const closed = frames.pop() as Frame;
          finishItem(closed);
          finishFrom(closed);
          const parent = frames[frames.length - 1] as Frame;
          if (parent.fromState === "derived") parent.fromState = "afterDerived";
          else if (parent.fromState === "inCall") parent.fromState = "afterName";
          noteItem(parent, token);
        }
        continue;
      }

      // The select list.
      if (upper === "SELECT" && !PRIVILEGE_VERBS.has(statementVerb)) {
        if (frame.inSelectList) finishItem(frame);
        if (frame.fromState !== "none") finishFrom(frame);
        frame.lastSelect = token;
        frame.inSelectList = true;
        frame.first = undefined;
        frame.last = undefined;
        frame.prev = undefined;
        frame.prevPrev = undefined;
        continue;
      }
      if (frame.inSelectList) {
        if (token.text === ",") {
          finishItem(frame);
          continue;
        }
        if (token.text === ";" || CLAUSE_END.has(upper)) {
          finishItem(frame);
          frame.inSelectList = false;
        } else {
          noteItem(frame, token);
        }
      }

      // The FROM clause.
      if (upper === "FROM" && before?.upper !== "DISTINCT") {
        if (frame.fromState !== "none") finishFrom(frame);
        frame.fromState = "expectRef";
        frame.anchor = frame.lastSelect ?? token;
      } else if (frame.fromState !== "none") {
        step(frame, token, upper, implicitTableAlias);
        if (frame.fromState === "done" && (token.text === ";" || CLAUSE_END.has(upper))) {
          finishFrom(frame);
          if (token.text === ";") frame.lastSelect = undefined;
        }
      } else if (token.text === ";") {
        frame.lastSelect = undefined;
      }

      if (token.text === "(") frames.push(newFrame());
    }
    while (frames.length > 0) {
      const frame = frames.pop() as Frame;
      finishItem(frame);
      finishFrom(frame);
    }
  },
};

/** Advances the FROM-clause state machine of `frame` over one significant token. */
function step(
  frame: Frame,
  token: Token,
  upper: string,
  implicitAlias: (alias: Token) => void,
): void {
  switch (frame.fromState) {
    case "expectRef":
      if (REF_PREFIX.has(upper)) return;
      if (isName(token)) frame.fromState = "afterName";
      else if (token.text === "(") frame.fromState = "derived";
      else frame.fromState = "done";
      return;
    case "expectNamePart":
      frame.fromState = "afterName";
      return;
    case "afterName":
      if (token.text === ".") frame.fromState = "expectNamePart";
      else if (token.text === "(") frame.fromState = "inCall";
      else if (upper === "AS") frame.fromState = "expectAlias";
      else if (isName(token)) {
        frame.aliased++;
        frame.fromState = "done";
        implicitAlias(token);
      } else {
        frame.unaliased++;
        frame.fromState = "done";
        afterRef(frame, token, upper);
      }
      return;
    case "afterDerived":
      if (upper === "AS") frame.fromState = "expectAlias";
      else if (isName(token)) {
        frame.aliased++;
        frame.fromState = "done";
        implicitAlias(token);
      } else {
        frame.fromState = "done";
        afterRef(frame, token, upper);
      }
      return;
    case "expectAlias":
      frame.aliased++;
      frame.fromState = "done";
      return;
    case "done":
      afterRef(frame, token, upper);
      return;
    default:
      return;
  }
}

function afterRef(frame: Frame, token: Token, upper: string): void {
  if (token.text === "," || JOIN_WORDS.has(upper)) frame.fromState = "expectRef";
}
