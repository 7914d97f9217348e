import type { SecurityFinding } from "../../results.js";
import type { Token } from "../../token.js";
import type { Detector } from "../detector.js";
import { makeFinding } from "../patterns.js";
import { spanText, type ScanContext, type StatementRange } from "../scan-context.js";
import { hasTruncation, isFingerprintAt, isSensitiveAt, isSystemTableAt } from "../signals.js";

const SET_OPERATORS: ReadonlySet<string> = new Set(["UNION", "EXCEPT", "INTERSECT", "MINUS"]);
/** A union branch is examined this many tokens far at most (bounds the work on nested unions). */
const SCAN_LIMIT = 512;
/** Tokens of the UNION shown in an injection finding's description. */
const SHOWN_TOKENS = 16;

/** A half-open range of indices into `ctx.sig`. */
interface Span {
  readonly from: number;
  readonly to: number;
}

/** The SELECT appended by a UNION: where its SELECT keyword is and where the branch ends. */
interface AppendedBranch extends Span {
  /** Index of the branch's SELECT keyword (`from` is the UNION keyword). */
  readonly select: number;
}

/** What the query before the UNION reads. */
interface FirstBranch extends Span {
  /** Index of its SELECT keyword, when one was found in the same query block. */
  readonly select: number | undefined;
  readonly readsCatalogs: boolean;
  readonly readsFingerprints: boolean;
  /** It has a FROM: it reads a table. */
  readonly readsTable: boolean;
  /** It has a WHERE: it looks one row up, as application queries do. */
  readonly filtered: boolean;
  /** Upper-case credential-like names it reads itself (`password` in a login query). */
  readonly sensitiveNames: ReadonlySet<string>;
}

interface SelectList {
  /** Number of items, or -1 when the list was not found. */
  readonly count: number;
  readonly star: boolean;
  readonly nulls: number;
  /** Items that are a bare integer literal or NULL. */
  readonly padding: number;
}

function isKeyword(token: Token | undefined, word: string): boolean {
  return token?.kind === "keyword" && token.upper === word;
}

function isSetOperator(token: Token | undefined): boolean {
  return token?.kind === "keyword" && SET_OPERATORS.has(token.upper);
}

/** Reads the select list of the SELECT at `select` (items split on commas at its depth). */
function readSelectList(ctx: ScanContext, select: number, end: number): SelectList {
  const { sig, depth } = ctx;
  const base = depth[select] ?? 0;
  let count = 0;
  let nulls = 0;
  let padding = 0;
  let star = false;
  let itemStart = select + 1;
  const stop = Math.min(end, select + SCAN_LIMIT);
  for (let index = select + 1; index <= stop; index++) {
    const token = sig[index];
    const atBase = token !== undefined && depth[index] === base;
    const endsItem =
      index === stop ||
      token === undefined ||
      (atBase &&
        (token.text === "," ||
          token.text === ")" ||
          token.upper === "FROM" ||
          token.upper === "INTO" ||
          token.upper === "WHERE" ||
          SET_OPERATORS.has(token.upper)));
    if (!endsItem) continue;
    if (index > itemStart) {
      count++;
      const first = sig[itemStart];
      if (first !== undefined && index - itemStart === 1) {
        if (first.upper === "NULL") nulls++;
        if (first.upper === "NULL" || (first.kind === "number" && /^\d+$/.test(first.text)))
          padding++;
        if (first.text === "*") star = true;
      }
    }
    if (token?.text !== ",") break;
    itemStart = index + 1;
  }
  return { count, star, nulls, padding };
}

/**
 * The SELECT appended by the UNION at `union` (after `ALL`, `DISTINCT` and opening brackets), up
 * to the next set operator at the UNION's depth or the end of its bracket; undefined when no
 * SELECT follows (`UNION` as a name, `UNION ALL VALUES …`).
 */
function appendedBranch(
  ctx: ScanContext,
  union: number,
  statement: StatementRange,
): AppendedBranch | undefined {
  const { sig, depth } = ctx;
  const unionDepth = depth[union] ?? 0;
  let select = union + 1;
  while (
    isKeyword(sig[select], "ALL") ||
    isKeyword(sig[select], "DISTINCT") ||
    sig[select]?.text === "("
  )
    select++;
  if (select >= statement.to || sig[select]?.upper !== "SELECT") return undefined;
  const limit = Math.min(statement.to, select + SCAN_LIMIT);
  let end = select + 1;
  while (end < limit) {
    const tokenDepth = depth[end] ?? 0;
    if (tokenDepth < unionDepth || (tokenDepth === unionDepth && isSetOperator(sig[end]))) break;
    end++;
  }
  return { from: union, to: end, select };
}

/** Facts about the query the UNION was appended to, starting at its first SELECT. */
function describeFirstBranch(
  ctx: ScanContext,
  select: number | undefined,
  union: number,
  statement: StatementRange,
): FirstBranch {
  const { sig } = ctx;
  const from = select ?? statement.from;
  const to = Math.min(union, from + SCAN_LIMIT);
  let readsCatalogs = false;
  let readsFingerprints = false;
  let readsTable = false;
  let filtered = false;
  const sensitiveNames = new Set<string>();
  for (let index = from; index < to; index++) {
    const token = sig[index];
    if (isSystemTableAt(sig, index)) readsCatalogs = true;
    if (isFingerprintAt(sig, index)) readsFingerprints = true;
    if (isKeyword(token, "FROM")) readsTable = true;
    if (isKeyword(token, "WHERE")) filtered = true;
    if (token !== undefined && isSensitiveAt(sig, index)) sensitiveNames.add(token.upper);
  }
  return {
    from,
    to,
    select,
    readsCatalogs,
    readsFingerprints,
    readsTable,
    filtered,
    sensitiveNames,
  };
}

/**
 * Index of the token that marks the appended branch as an injection, or -1: a catalog or server
 * fingerprint the first branch does not read itself, or a select list padded to guess the
 * column count (`NULL, NULL`; bare numbers after a table read, while `SELECT 1, 2 UNION SELECT
 * 3, 4` is data).
 */
function injectionMarker(ctx: ScanContext, first: FirstBranch, appended: AppendedBranch): number {
  const { sig } = ctx;
  for (let index = appended.select; index < appended.to; index++) {
    if (!first.readsCatalogs && isSystemTableAt(sig, index)) return index;
    if (!first.readsFingerprints && isFingerprintAt(sig, index)) return index;
  }
  const list = readSelectList(ctx, appended.select, appended.to);
  const padded =
    list.nulls >= 2 ||
    (list.count >= 1 && list.nulls === list.count) ||
    (first.readsTable && list.count >= 2 && list.padding === list.count);
  return padded ? appended.to - 1 : -1;
}

/** True when the appended branch reads credential-like names the first branch does not. */
function readsOtherCredentials(
  ctx: ScanContext,
  first: FirstBranch,
  appended: AppendedBranch,
): boolean {
  const { sig } = ctx;
  for (let index = appended.select; index < appended.to; index++) {
    const token = sig[index];
    if (token !== undefined && isSensitiveAt(sig, index) && !first.sensitiveNames.has(token.upper))
      return true;
  }
  return false;
}

/**
 * True when a different shape is appended to a filtered query: a guess at the column count.
 * Two unfiltered tables of matching columns (`SELECT * … UNION SELECT a, b …`) are a report.
 */
function guessesShape(ctx: ScanContext, first: FirstBranch, appended: AppendedBranch): boolean {
  if (first.select === undefined || !first.filtered) return false;
  const left = readSelectList(ctx, first.select, appended.from);
  const right = readSelectList(ctx, appended.select, appended.to);
  if (left.star !== right.star) return true;
  return !left.star && !right.star && left.count !== right.count;
}

/** `… ORDER BY 5 --`: probing the column count before a UNION attack, with the rest cut off. */
function columnCountProbe(ctx: ScanContext, statement: StatementRange): string | undefined {
  const { sig } = ctx;
  const last = statement.to - 1;
  if (last - 2 < statement.from) return undefined;
  const endsWithOrderByNumber =
    sig[last]?.kind === "number" &&
    sig[last - 1]?.upper === "BY" &&
    sig[last - 2]?.upper === "ORDER";
  if (!endsWithOrderByNumber || !hasTruncation(ctx)) return undefined;
  return spanText(sig, last - 2, last + 1);
}

/** Checks every UNION of one statement, tracking the first SELECT of each query block. */
function scanStatement(
  ctx: ScanContext,
  statement: StatementRange,
  emit: (finding: SecurityFinding) => void,
): void {
  const { sig, depth } = ctx;
  // The first SELECT of the current query block, per bracket depth.
  const firstSelectAt = new Map<number, number>();
  // `CREATE VIEW v AS SELECT a, b … UNION SELECT q.* …`: a definition, written by its author, not
  // an application query with a payload in it; branches of different shapes are no guess there.
  const definesObject = isKeyword(sig[statement.from], "CREATE");
  for (let index = statement.from; index < statement.to; index++) {
    const token = sig[index];
    const tokenDepth = depth[index] ?? 0;
    if (token?.text === "(") firstSelectAt.delete(tokenDepth + 1);
    if (isKeyword(token, "SELECT") && !firstSelectAt.has(tokenDepth))
      firstSelectAt.set(tokenDepth, index);
    if (!isKeyword(token, "UNION")) continue;

    const appended = appendedBranch(ctx, index, statement);
    if (appended === undefined) continue;
    const firstSelect = firstSelectAt.get(tokenDepth) ?? firstSelectAt.get(tokenDepth + 1);
    const first = describeFirstBranch(ctx, firstSelect, index, statement);

    const marker = injectionMarker(ctx, first, appended);
    if (marker >= 0) {
      const shown = spanText(sig, index, Math.min(marker + 1, index + SHOWN_TOKENS));
      emit(makeFinding("UNION_INJECTION", "CRITICAL", `Pattern detected: ${shown}`));
      continue;
    }
    if (
      readsOtherCredentials(ctx, first, appended) ||
      (!definesObject && guessesShape(ctx, first, appended)) ||
      hasTruncation(ctx)
    ) {
      const shown = spanText(sig, index, appended.select + 1);
      emit(makeFinding("UNION_GENERIC", "HIGH", `Pattern detected: ${shown}`));
    }
  }
  const probe = columnCountProbe(ctx, statement);
  if (probe !== undefined) {
    emit(
      makeFinding("UNION_GENERIC", "HIGH", `Column-count probe before a UNION attack: ${probe}`),
    );
  }
}

/**
 * UNION-based extraction. CRITICAL `UNION_INJECTION` when the appended SELECT reads system
 * catalogs or server fingerprints the first one doesn't (`UNION SELECT table_name FROM
 * information_schema.tables`, `UNION SELECT version()`), or pads columns with NULLs
 * (`UNION SELECT NULL, NULL`) or, after a table read, with bare numbers (`UNION SELECT 1,2,3`).
 * HIGH `UNION_GENERIC` when it reads credentials the first one doesn't (`UNION SELECT password
 * FROM admins`), its shape differs from a filtered first one (`SELECT *` against named columns,
 * different column counts) or the query shows truncation (`… UNION SELECT … --`); and for
 * `… ORDER BY 5 --` column-count probes. A legitimate UNION of same-shaped selects is not
 * reported.
 *
 * Steps, per UNION: find the appended branch ({@link appendedBranch}), describe the query it was
 * appended to ({@link describeFirstBranch}), look for an injection marker
 * ({@link injectionMarker}), else for the weaker signals.
 *
 * @example
 * scanSql("SELECT a FROM t WHERE id = 1 UNION SELECT NULL, NULL").findings[0]?.pattern; // "UNION_INJECTION"
 */
export const unionDetector: Detector = {
  family: "union",
  patterns: ["UNION_INJECTION", "UNION_GENERIC"],
  detect(ctx, emit) {
    for (const statement of ctx.statements) scanStatement(ctx, statement, emit);
  },
};
