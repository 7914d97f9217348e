import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LINT_RULES, lintSql } from "../../../../core/sql/lint/index.js";
import { scanSql } from "../../../../core/sql/security/index.js";
import { countTokenReads } from "../../../support/count-token-reads.js";

const KIB = 1024;

/** Adversarial inputs of about `size` characters. */
function pathological(size: number): Record<string, string> {
  const fill = (unit: string): string => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
  return {
    quotes: fill("'"),
    "quote pairs": fill("''"),
    "backslash quotes": fill("\\' OR 1=1 "),
    "nested comments": fill("/* "),
    "comment closers": fill("*/"),
    "open parens": fill("("),
    "tautology runs": `SELECT * FROM t WHERE a = 1${fill(" OR 1=1")}`,
    "constant chain": `SELECT * FROM t WHERE id = 1 OR 1${fill("+1")}`,
    "IN chains": `SELECT * FROM t WHERE a = 1 OR 1 IN (${fill("1 IN (")}`,
    "union chain": `SELECT a FROM t${fill(" UNION SELECT a FROM t")}`,
    "nested selects": fill("SELECT (") + "1",
    statements: fill("SELECT 1; "),
    "dollar tags": fill("$a$"),
    "split keywords": fill("UN/**/"),
    "concat calls": fill("CONCAT('a', "),
    "char calls": fill("CHAR(65)+"),
    "dotted names": `SELECT * FROM t WHERE ${fill("a.")}a = a`,
    "blank lines": fill("\n"),
    spaces: fill(" "),
    "leading commas": fill("\n, a"),
    "from lists": `SELECT 1 FROM ${fill("a b, ")}`,
    // The checks added for issue 8: look-backs from EXISTS, fingerprint comparisons, comment
    // tails, row generators and qualified package calls.
    "exists probes": `SELECT * FROM t WHERE id = 1${fill(" AND EXISTS(SELECT 1 FROM pg_user WHERE pass LIKE 'a%'")}`,
    "fingerprint comparisons": `SELECT * FROM t WHERE id = 1${fill(" AND version() = 'x' OR @@version = 1")}`,
    "comment tails": fill("SELECT 1 FROM t WHERE id = 5-- AND owner_id = 9\n"),
    "generator calls": `SELECT * FROM t WHERE 1 = ${fill("generate_series(1, 50000000, ")}`,
    "package calls": `SELECT * FROM t WHERE 1 = ${fill("CTXSYS.DRITHSX.")}SN(1)`,
  };
}

describe("bounded work on adversarial input", () => {
  const small = pathological(8 * KIB);
  const large = pathological(16 * KIB);

  for (const name of Object.keys(small)) {
    // Heavy: 16 KiB through the scanner and every lint rule, per text. Took up to 0.6 s and up to
    // 1.4 s in two runs of the unit project on 2 shared cores with two busy loops running.
    it(`scans and lints "${name}" with work proportional to the input size`, () => {
      const a = small[name] as string;
      const b = large[name] as string;
      const scanA = countTokenReads(a, (tokens) => scanSql(a, undefined, tokens));
      const scanB = countTokenReads(b, (tokens) => scanSql(b, undefined, tokens));
      expect(scanB / Math.max(1, scanA), "scanner growth when the input doubles").toBeLessThan(2.3);
      for (const rule of LINT_RULES) {
        const lintA = countTokenReads(a, (tokens) => lintSql(a, { rules: [rule.code] }, tokens));
        const lintB = countTokenReads(b, (tokens) => lintSql(b, { rules: [rule.code] }, tokens));
        expect(
          lintB / Math.max(1, lintA),
          `${rule.code} growth when the input doubles`,
        ).toBeLessThan(2.3);
      }
      expect(scanB / b.length, "token reads per character").toBeLessThan(400);
    }, 30_000);
  }

  // Every tool (the scanner and the rules included) on 256 KiB of adversarial text runs in
  // tests/integration/sql-adversarial-input.test.ts: it takes half a minute (issue 8).

  it("never throws and always returns consistent counts on arbitrary input", () => {
    const pieces = [
      "'",
      "--",
      "/*",
      "*/",
      "(",
      ")",
      ";",
      " OR ",
      "1=1",
      "UNION",
      " SELECT ",
      "NULL,",
      "#",
      "$$",
      "\n",
      "CHAR(65)",
      "0x41414141",
      "+",
      "||",
      "a",
      " AND ",
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
        const sql = parts.join("");
        const r = scanSql(sql);
        expect(r.critical_count + r.high_count + r.medium_count + r.low_count).toBe(
          r.findings.length,
        );
        expect(r.is_clean).toBe(r.findings.length === 0);
        expect(scanSql(sql)).toEqual(r);
        const lint = lintSql(sql);
        expect(lint.violation_count).toBe(lint.violations.length);
      }),
      { numRuns: 300 },
    );
  });
});

/** Every RegExp literal in the files under `dir` (a heuristic scan of the source text). */
function regexLiterals(dir: string): { file: string; source: string }[] {
  const found: { file: string; source: string }[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      found.push(...regexLiterals(path));
      continue;
    }
    if (!name.endsWith(".ts")) continue;
    for (const line of readFileSync(path, "utf8").split("\n")) {
      const code = line.trimStart();
      if (code.startsWith("*") || code.startsWith("//") || code.startsWith("/*")) continue;
      for (const m of line.matchAll(
        /(?:^|[(,=:!&|?;{}\s])\/((?:\\.|\[(?:\\.|[^\]\\])*\]|[^/\\\n[])+)\/[gimsuy]*/g,
      )) {
        const source = m[1] as string;
        try {
          new RegExp(source);
          found.push({ file: path, source });
        } catch {
          // Not a regular expression (for example two divisions on one line).
        }
      }
    }
  }
  return found;
}

/** True when a quantified group contains a quantifier: the shape of catastrophic backtracking. */
function hasNestedQuantifier(source: string): boolean {
  const groups: { start: number; quantified: boolean }[] = [];
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      continue;
    }
    if (c === "[") inClass = true;
    else if (c === "(") groups.push({ start: i, quantified: false });
    else if (c === "*" || c === "+" || c === "{") {
      for (const g of groups) g.quantified = true;
    } else if (c === ")") {
      const group = groups.pop();
      const next = source[i + 1];
      const repeated =
        next === "*" ||
        next === "+" ||
        (next === "{" &&
          /^\{\d*,\d*\}/.test(source.slice(i + 1)) &&
          !/^\{\d+\}/.test(source.slice(i + 1)));
      if (group !== undefined && group.quantified && repeated) return true;
      if (group !== undefined && group.quantified) for (const g of groups) g.quantified = true;
    }
  }
  return false;
}

describe("regular expressions in the tokenizer, lint rules and scanner", () => {
  const root = new URL("../../../../core/sql/", import.meta.url).pathname;
  const sources = [
    ...regexLiterals(join(root, "lint")),
    ...regexLiterals(join(root, "security")),
    ...["tokenizer.ts", "keywords.ts"].flatMap((f) =>
      regexLiterals(root).filter((r) => r.file.endsWith(`/sql/${f}`)),
    ),
  ];

  it("finds the regular expressions it checks", () => {
    expect(sources.length).toBeGreaterThan(5);
  });

  it("recognises a nested quantifier when it sees one", () => {
    expect(hasNestedQuantifier("(a+)+")).toBe(true);
    expect(hasNestedQuantifier("(\\d+(\\.\\d*)?)")).toBe(false);
  });

  it("has no quantified group containing a quantifier (linear by construction)", () => {
    for (const { file, source } of sources)
      expect(hasNestedQuantifier(source), `${file}: /${source}/`).toBe(false);
  });
});
