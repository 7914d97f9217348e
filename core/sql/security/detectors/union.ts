import type { Token } from "../../token.js";
import type { Detector } from "../detector.js";
import { makeFinding } from "../patterns.js";
import { spanText } from "../scan-context.js";
import { hasTruncation, isFingerprintAt, isSensitiveAt, isSystemTableAt } from "../signals.js";

const SET_OPERATORS: ReadonlySet<string> = new Set(["UNION", "EXCEPT", "INTERSECT", "MINUS"]);
/** A union branch is examined this many tokens far at most (bounds the work on nested unions). */
const SCAN_LIMIT = 512;

interface SelectList {
  /** Number of items, or -1 when the list was not found. */
  readonly count: number;
  readonly star: boolean;
  readonly nulls: number;
  /** Items that are a bare integer literal or NULL. */
  readonly padding: number;
}

/** Reads the select list of the SELECT at `select` (items split on commas at its depth). */
function readSelectList(
  sig: readonly Token[],
  depth: Int32Array,
  select: number,
  end: number,
): SelectList {
  const base = depth[select] ?? 0;
  let count = 0;
  let nulls = 0;
  let padding = 0;
  let star = false;
  let itemStart = select + 1;
  const stop = Math.min(end, select + SCAN_LIMIT);
  for (let j = select + 1; j <= stop; j++) {
    const t = sig[j];
    const atBase = t !== undefined && depth[j] === base;
    const ends =
      j === stop ||
      t === undefined ||
      (atBase &&
        (t.text === "," ||
          t.upper === "FROM" ||
          t.text === ")" ||
          t.upper === "INTO" ||
          SET_OPERATORS.has(t.upper) ||
          t.upper === "WHERE"));
    if (!ends) continue;
    if (j > itemStart) {
      count++;
      const first = sig[itemStart] as Token;
      if (j - itemStart === 1) {
        if (first.upper === "NULL") nulls++;
        if (first.upper === "NULL" || (first.kind === "number" && /^\d+$/.test(first.text)))
          padding++;
        if (first.text === "*") star = true;
      }
    }
    if (t === undefined || t.text !== ",") break;
    itemStart = j + 1;
  }
  return { count, star, nulls, padding };
}

/**
 * UNION-based extraction. CRITICAL `UNION_INJECTION` when the appended SELECT reads system
 * catalogs the first one doesn't (`UNION SELECT table_name FROM information_schema.tables`), pads
 * columns with NULLs (`UNION SELECT NULL`, `UNION SELECT NULL, NULL`) or, after a table read, with
 * bare numbers (`UNION SELECT 1,2,3`), or reads server fingerprints (`version()`, `@@version`). HIGH `UNION_GENERIC` when it reads
 * credentials the first one doesn't (`UNION SELECT password FROM admins`), its shape differs from
 * the first (`SELECT *` against named columns, different column counts) or the query shows
 * truncation (`… UNION SELECT … --`). A legitimate UNION of same-shaped selects is not reported.
 *
 * @example
 * scanSql("SELECT a FROM t WHERE id = 1 UNION SELECT NULL, NULL").findings[0]?.pattern; // "UNION_INJECTION"
 */
export const unionDetector: Detector = {
  family: "union",
  patterns: ["UNION_INJECTION", "UNION_GENERIC"],
  detect(ctx, emit) {
    const { sig, depth } = ctx;
    let truncation: boolean | undefined;
    for (const statement of ctx.statements) {
      // The first SELECT of the current query block, per parenthesis depth.
      const firstSelect = new Map<number, number>();
      for (let u = statement.from; u < statement.to; u++) {
        const t = sig[u] as Token;
        const d = depth[u] ?? 0;
        if (t.text === "(") firstSelect.delete(d + 1);
        if (t.kind === "keyword" && t.upper === "SELECT" && !firstSelect.has(d))
          firstSelect.set(d, u);
        if (t.kind !== "keyword" || t.upper !== "UNION") continue;

        let r = u + 1;
        while (sig[r]?.upper === "ALL" || sig[r]?.upper === "DISTINCT" || sig[r]?.text === "(") r++;
        if (r >= statement.to || sig[r]?.upper !== "SELECT") continue;
        let end = r + 1;
        const limit = Math.min(statement.to, r + SCAN_LIMIT);
        while (end < limit) {
          const e = sig[end] as Token;
          if (
            (depth[end] ?? 0) < d ||
            (depth[end] === d && e.kind === "keyword" && SET_OPERATORS.has(e.upper))
          )
            break;
          end++;
        }
        const leftSelect = firstSelect.get(d) ?? firstSelect.get(d + 1);
        const leftFrom = leftSelect ?? statement.from;
        const leftTo = Math.min(u, leftFrom + SCAN_LIMIT);

        let signal = -1;
        let leftSystem = false;
        let leftFingerprint = false;
        let leftReads = false;
        let leftFiltered = false;
        for (let j = leftFrom; j < leftTo; j++) {
          const l = sig[j] as Token;
          if (isSystemTableAt(sig, j)) leftSystem = true;
          if (isFingerprintAt(sig, j)) leftFingerprint = true;
          if (l.kind === "keyword" && l.upper === "FROM") leftReads = true;
          if (l.kind === "keyword" && l.upper === "WHERE") leftFiltered = true;
        }
        for (let j = r; j < end && signal < 0; j++) {
          if (
            (!leftSystem && isSystemTableAt(sig, j)) ||
            (!leftFingerprint && isFingerprintAt(sig, j))
          )
            signal = j;
        }
        const right = readSelectList(sig, depth, r, end);
        const unionText = spanText(sig, u, r + 1);
        const padded =
          right.nulls >= 2 ||
          (right.count >= 1 && right.nulls === right.count) ||
          // A row of bare numbers appended to a table read; `SELECT 1, 2 UNION SELECT 3, 4` is data.
          (leftReads && right.count >= 2 && right.padding === right.count);
        if (signal < 0 && padded) signal = end - 1;
        if (signal >= 0) {
          const text = spanText(sig, u, Math.min(signal + 1, u + 16));
          emit(makeFinding("UNION_INJECTION", "CRITICAL", `Pattern detected: ${text}`));
          continue;
        }

        const leftNames = new Set<string>();
        for (let j = leftFrom; j < leftTo; j++)
          if (isSensitiveAt(sig, j)) leftNames.add((sig[j] as Token).upper);
        let sensitive = false;
        for (let j = r; j < end && !sensitive; j++) {
          if (isSensitiveAt(sig, j) && !leftNames.has((sig[j] as Token).upper)) sensitive = true;
        }
        const left =
          leftSelect === undefined ? undefined : readSelectList(sig, depth, leftSelect, u);
        // A different shape appended to a filtered query is a guess at the column count; two
        // unfiltered tables of matching columns (`SELECT * … UNION SELECT a, b …`) are a report.
        const shape =
          left !== undefined &&
          leftFiltered &&
          (left.star !== right.star || (!left.star && !right.star && left.count !== right.count));
        truncation ??= hasTruncation(ctx);
        if (sensitive || shape || truncation) {
          emit(makeFinding("UNION_GENERIC", "HIGH", `Pattern detected: ${unionText}`));
        }
      }
      // `… ORDER BY 5 --`: probing the column count before a UNION, with the rest cut off.
      const last = statement.to - 1;
      if (
        last - 2 >= statement.from &&
        sig[last]?.kind === "number" &&
        sig[last - 1]?.upper === "BY" &&
        sig[last - 2]?.upper === "ORDER"
      ) {
        truncation ??= hasTruncation(ctx);
        if (truncation) {
          const probe = spanText(sig, last - 2, last + 1);
          emit(
            makeFinding(
              "UNION_GENERIC",
              "HIGH",
              `Column-count probe before a UNION attack: ${probe}`,
            ),
          );
        }
      }
    }
  },
};
