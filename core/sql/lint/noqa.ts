import type { Token } from "../token.js";

/**
 * The `noqa` comments of one text, as SQLFluff users write them:
 *
 * - `-- noqa` silences every rule on the comment's line;
 * - `-- noqa: L007,L010` silences the listed rules on that line;
 * - `-- noqa: disable=L005` … `-- noqa: enable=L005` silence the rules (or `all`) from the
 *   disabling comment's line up to the line before the enabling one (to the end when none).
 *
 * Rules are named by code, CamelCase name or SQLFluff alias (`-- noqa: AM04`), in any letter case. `#` comments (MySQL) work too.
 *
 * @example
 * const noqa = readNoqa(tokenize("SELECT a  -- noqa: L010\nFROM  t"), resolveRuleName);
 * noqa.suppresses(1, "L010"); // true
 * noqa.suppresses(2, "L010"); // false
 */
export interface Noqa {
  suppresses(line: number, code: string): boolean;
  /** False when the text holds no noqa comment (the engine then skips the check). */
  readonly any: boolean;
}

const ALL = "*";
const DIRECTIVE = /^(?:--|#)\s*noqa\s*(?::(.*))?$/i;

/**
 * Reads the noqa comments of `tokens`. `resolve` maps a code or name as written to a rule code
 * or to the codes of every rule it stands for (a SQLFluff alias may name several); undefined for a
 * name no rule has, which is ignored.
 *
 * @example
 * readNoqa(tokenize("SELECT 1 -- noqa"), (n) => n.toUpperCase()).suppresses(1, "L007"); // true
 */
export function readNoqa(
  tokens: readonly Token[],
  resolve: (name: string) => string | readonly string[] | undefined,
): Noqa {
  const onLine = new Map<number, Set<string>>();
  /** Per rule code (or ALL): the disabled line ranges, `[from, to)`. */
  const ranges = new Map<string, [number, number][]>();
  const open = new Map<string, number>();
  for (const token of tokens) {
    if (token.kind !== "line_comment") continue;
    const match = DIRECTIVE.exec(token.text.trim());
    if (match === null) continue;
    const body = (match[1] ?? "").trim();
    const range = /^(disable|enable)\s*=(.*)$/i.exec(body);
    if (range !== null) {
      const disable = (range[1] as string).toLowerCase() === "disable";
      for (const code of codes(range[2] as string, resolve)) {
        if (disable) {
          if (!open.has(code)) open.set(code, token.line);
        } else {
          const enables = code === ALL ? [...open.keys()] : [code];
          for (const c of enables) {
            const from = open.get(c);
            if (from === undefined) continue;
            open.delete(c);
            push(ranges, c, [from, token.line]);
          }
        }
      }
      continue;
    }
    const set = onLine.get(token.line) ?? new Set<string>();
    if (body === "") set.add(ALL);
    else for (const code of codes(body, resolve)) set.add(code);
    onLine.set(token.line, set);
  }
  for (const [code, from] of open) push(ranges, code, [from, Number.POSITIVE_INFINITY]);

  const inRange = (key: string, line: number) =>
    ranges.get(key)?.some(([from, to]) => line >= from && line < to) ?? false;
  return {
    any: onLine.size > 0 || ranges.size > 0,
    suppresses(line, code) {
      const here = onLine.get(line);
      if (here !== undefined && (here.has(ALL) || here.has(code))) return true;
      return inRange(ALL, line) || inRange(code, line);
    },
  };
}

function push(map: Map<string, [number, number][]>, key: string, range: [number, number]): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [range]);
  else list.push(range);
}

/** The rule codes a comma-separated list names (`all` is every rule). */
function codes(
  list: string,
  resolve: (name: string) => string | readonly string[] | undefined,
): string[] {
  const out: string[] = [];
  for (const part of list.split(",")) {
    const name = part.trim();
    if (name === "") continue;
    if (name.toLowerCase() === "all") out.push(ALL);
    else {
      const code = resolve(name);
      if (typeof code === "string") out.push(code);
      else if (code !== undefined) out.push(...code);
    }
  }
  return out;
}
