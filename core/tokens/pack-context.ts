import { measureText, tokensForMeasure, type TextMeasure } from "./estimate-tokens.js";

/** First line of every non-empty recall context. */
export const CONTEXT_HEADER = "--- Relevant Memories ---\n";

/** One candidate line of a context: a label (the memory type) and the text. */
export interface ContextEntry {
  readonly label: string;
  readonly text: string;
}

/** The packed context and which entries made it in. */
export interface PackedContext {
  /** `""` when nothing fits, else the header and one line per included entry. */
  readonly context: string;
  /** Indexes into the entries given, in the order they appear in the context. */
  readonly included: readonly number[];
  /** `estimateTokens(context)`: never above the budget. */
  readonly tokens_used: number;
}

/** Characters that would break "one line per memory": every Unicode line terminator. */
const LINE_BREAKS = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/gu;

/**
 * One context line: `[<label>] <text>\n`, with line breaks inside the text turned into spaces
 * so each memory stays on exactly one line.
 *
 * @example
 * formatContextLine("rule", "deploys\nneed review"); // "[rule] deploys need review\n"
 */
export function formatContextLine(label: string, text: string): string {
  return `[${label}] ${text.replace(LINE_BREAKS, " ")}\n`;
}

/**
 * Packs entries (already in priority order) into a context of at most `budget` estimated tokens,
 * header included. Greedy: an entry that does not fit is skipped and later, smaller ones may still
 * fit. The estimate is of the whole final text; running word and byte totals are exact because
 * every line ends in a newline, so measures add up.
 *
 * @example
 * const packed = packContext([{ label: "rule", text: "Use UTC everywhere" }], 2000);
 * packed.context; // "--- Relevant Memories ---\n[rule] Use UTC everywhere\n"
 */
export function packContext(entries: readonly ContextEntry[], budget: number): PackedContext {
  let total: TextMeasure = measureText(CONTEXT_HEADER);
  const lines: string[] = [];
  const included: number[] = [];
  entries.forEach((entry, index) => {
    const line = formatContextLine(entry.label, entry.text);
    const measure = measureText(line);
    const next = { words: total.words + measure.words, bytes: total.bytes + measure.bytes };
    if (tokensForMeasure(next) > budget) return;
    total = next;
    lines.push(line);
    included.push(index);
  });
  if (included.length === 0) return { context: "", included: [], tokens_used: 0 };
  return {
    context: CONTEXT_HEADER + lines.join(""),
    included,
    tokens_used: tokensForMeasure(total),
  };
}
