import type { Token } from "./token.js";
import { tokenize } from "./tokenizer.js";

/** A line that holds only clause words (`SELECT`, `GROUP BY`, `insert into`, `union all`). */
const CLAUSE_LINE = /^\s*[A-Za-z]+(?: [A-Za-z]+)*$/;

/**
 * Joins each clause line of sql-formatter's output with its body when the body is one level
 * deeper throughout (no nested block) and no comment or multi-line token is involved, so joining
 * changes only whitespace: `SELECT\n  id,\n  name\nFROM\n  users` becomes
 * `SELECT id, name\nFROM users`, the reference server's layout. With `indent_size` 0 the levels
 * cannot be told apart, so each statement's lines are joined. `tokens`, the tokens of `text` when
 * the caller has them (format's guard does), spare a second tokenisation.
 *
 * @example
 * compactClauses("SELECT\n  id\nFROM\n  users", 2); // "SELECT id\nFROM users"
 */
export function compactClauses(
  text: string,
  indentSize: number,
  tokens: readonly Token[] = tokenize(text),
): string {
  const lines = text.split("\n");
  const unsafe = unsafeLines(tokens, lines.length);
  if (indentSize === 0) return joinStatements(lines, unsafe);
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const depth = indentOf(line);
    const bodyStart = i + 1;
    let end = bodyStart;
    let flat = !unsafe[i] && CLAUSE_LINE.test(line);
    while (flat && end < lines.length) {
      const next = lines[end] as string;
      if (next.trim() === "" || indentOf(next) <= depth) break;
      if (indentOf(next) !== depth + indentSize || unsafe[end]) flat = false;
      end++;
    }
    if (!flat || end === bodyStart) {
      out.push(line);
      continue;
    }
    out.push([line.trimEnd(), ...lines.slice(bodyStart, end).map((l) => l.trim())].join(" "));
    i = end - 1;
  }
  return out.join("\n");
}

/** Lines that hold a comment or part of a token spanning lines: never join them. */
function unsafeLines(tokens: readonly Token[], count: number): boolean[] {
  const unsafe = new Array<boolean>(count).fill(false);
  for (const t of tokens) {
    if (t.kind === "newline" || t.kind === "whitespace") continue;
    const breaks = countNewlines(t.text);
    const comment = t.kind === "line_comment" || t.kind === "block_comment";
    if (!comment && breaks === 0) continue;
    for (let l = t.line - 1; l <= t.line - 1 + breaks && l < count; l++) unsafe[l] = true;
  }
  return unsafe;
}

function joinStatements(lines: readonly string[], unsafe: readonly boolean[]): string {
  const out: string[] = [];
  let current: string[] = [];
  let currentSafe = true;
  const flush = () => {
    if (current.length === 0) return;
    if (currentSafe) out.push(current.map((l) => l.trim()).join(" "));
    else out.push(...current);
    current = [];
    currentSafe = true;
  };
  lines.forEach((line, i) => {
    if (line.trim() === "") {
      flush();
      out.push(line);
      return;
    }
    current.push(line);
    if (unsafe[i]) currentSafe = false;
  });
  flush();
  return out.join("\n");
}

function indentOf(line: string): number {
  let n = 0;
  while (line.charCodeAt(n) === 32) n++;
  return n;
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf("\n"); i !== -1; i = s.indexOf("\n", i + 1)) n++;
  return n;
}
