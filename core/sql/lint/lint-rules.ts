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

/**
 * The explicit registry of lint rules, in code order. Adding a rule means adding it here (and
 * regenerating `docs/rules/` with `npx tsx scripts/generate-rule-docs.ts`).
 *
 * @example
 * LINT_RULES.map((r) => r.code); // ["L001", …, "L010"]
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
];
