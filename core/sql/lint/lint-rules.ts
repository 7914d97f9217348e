import type { LintRule } from "./lint-rule.js";
import { trailingWhitespace } from "./rules/L001-trailing-whitespace.js";
import { mixedIndentation } from "./rules/L002-mixed-indentation.js";
import { consecutiveBlankLines } from "./rules/L003-consecutive-blank-lines.js";
import { indentationDepth } from "./rules/L004-indentation-depth.js";
import { longLines } from "./rules/L005-long-lines.js";
import { columnAlignment } from "./rules/L006-column-alignment.js";
import { keywordCase } from "./rules/L007-keyword-case.js";
import { commaPlacement } from "./rules/L008-comma-placement.js";
import { aliasingConsistency } from "./rules/L009-aliasing-consistency.js";
import { redundantWhitespace } from "./rules/L010-redundant-whitespace.js";
import { deleteWithoutWhere } from "./rules/L011-delete-without-where.js";
import { updateWithoutWhere } from "./rules/L012-update-without-where.js";
import { dropStatement } from "./rules/L013-drop-statement.js";
import { truncateStatement } from "./rules/L014-truncate-statement.js";
import { distinctWithGroupBy } from "./rules/L015-distinct-with-group-by.js";
import { orderByDirection } from "./rules/L016-order-by-direction.js";
import { implicitJoinType } from "./rules/L017-implicit-join-type.js";
import { commaJoin } from "./rules/L018-comma-join.js";
import { unqualifiedColumn } from "./rules/L019-unqualified-column.js";
import { unknownQualifier } from "./rules/L020-unknown-qualifier.js";
import { unusedCte } from "./rules/L021-unused-cte.js";
import { selectStar } from "./rules/L022-select-star.js";
import { notInSubquery } from "./rules/L023-not-in-subquery.js";
import { leadingWildcardLike } from "./rules/L024-leading-wildcard-like.js";
import { nullComparison } from "./rules/L025-null-comparison.js";
import { implicitTableAlias } from "./rules/L026-implicit-table-alias.js";
import { implicitColumnAlias } from "./rules/L027-implicit-column-alias.js";
import { unusedTableAlias } from "./rules/L028-unused-table-alias.js";
import { selfAlias } from "./rules/L029-self-alias.js";
import { duplicateTableAlias } from "./rules/L030-duplicate-table-alias.js";
import { notEqualStyle } from "./rules/L031-not-equal-style.js";
import { mixedQuoting } from "./rules/L032-mixed-quoting.js";
import { trailingSelectComma } from "./rules/L033-trailing-select-comma.js";
import { functionNameCase } from "./rules/L034-function-name-case.js";
import { countRows } from "./rules/L035-count-rows.js";
import { consecutiveSemicolons } from "./rules/L036-consecutive-semicolons.js";
import { elseNull } from "./rules/L037-else-null.js";
import { coalesceStyle } from "./rules/L038-coalesce-style.js";

/**
 * The explicit registry of lint rules, in code order. Adding a rule means adding it here (and
 * regenerating `docs/rules/` with `npx tsx scripts/generate-rule-docs.ts`). The seed's L001–L010
 * run by default; the others when `rules` names them (or `all`, or their category).
 *
 * @example
 * LINT_RULES.map((r) => r.code); // ["L001", …, "L038"]
 */
export const LINT_RULES: readonly LintRule[] = [
  trailingWhitespace,
  mixedIndentation,
  consecutiveBlankLines,
  indentationDepth,
  longLines,
  columnAlignment,
  keywordCase,
  commaPlacement,
  aliasingConsistency,
  redundantWhitespace,
  deleteWithoutWhere,
  updateWithoutWhere,
  dropStatement,
  truncateStatement,
  distinctWithGroupBy,
  orderByDirection,
  implicitJoinType,
  commaJoin,
  unqualifiedColumn,
  unknownQualifier,
  unusedCte,
  selectStar,
  notInSubquery,
  leadingWildcardLike,
  nullComparison,
  implicitTableAlias,
  implicitColumnAlias,
  unusedTableAlias,
  selfAlias,
  duplicateTableAlias,
  notEqualStyle,
  mixedQuoting,
  trailingSelectComma,
  functionNameCase,
  countRows,
  consecutiveSemicolons,
  elseNull,
  coalesceStyle,
];
