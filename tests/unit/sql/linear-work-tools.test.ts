/**
 * Issue 8: the pure passes every SQL tool runs before or instead of a parser do work
 * proportional to their input on adversarial text: the parse-limit guard, the dialect-feature
 * checks and the formatter. Work is counted as reads of the tokens they are given, not timed (the
 * model is tests/unit/sql/security/linear-work.test.ts, which covers the scanner and the lint
 * rules). The parser wrappers (validate, parse, metadata, analyze) are counted at the WASM
 * boundary, and every tool runs on 256 KiB of each pattern, in
 * tests/integration/sql-adversarial-input.test.ts.
 */
import { describe, expect, it } from "vitest";
import { SQL_DIALECTS } from "../../../core/sql/dialects.js";
import { findDialectViolation } from "../../../core/sql/dialect-features.js";
import { formatSql } from "../../../core/sql/format.js";
import { findParseLimit } from "../../../core/sql/parse-limits.js";
import { adversarialSql } from "../../fixtures/sql/adversarial.js";
import { countTokenReads } from "../../support/count-token-reads.js";

const KIB = 1024;

describe("work of the pure passes of every SQL tool on adversarial input (issue 8)", () => {
  const small = adversarialSql(4 * KIB);
  const large = adversarialSql(8 * KIB);

  for (const name of Object.keys(large)) {
    it(
      `guards, checks dialects and formats "${name}" with work proportional to its size`,
      { timeout: 30_000 },
      () => {
        const a = small[name] as string;
        const b = large[name] as string;
        const work = (sql: string) => ({
          guard: countTokenReads(sql, (tokens) => findParseLimit(tokens)),
          dialects: countTokenReads(sql, (tokens) => {
            for (const d of SQL_DIALECTS) findDialectViolation(tokens, d);
          }),
          format: countTokenReads(sql, (tokens) => formatSql(sql, {}, tokens)),
        });
        // Quadratic work would grow 4x; 3x leaves room for texts whose outcome shifts with size.
        const wa = work(a);
        const wb = work(b);
        // An unterminated token ends formatting at once: compare only texts formatted alike.
        const sameOutcome = formatSql(a).ok === formatSql(b).ok;
        for (const key of ["guard", "dialects", "format"] as const) {
          if (key !== "format" || sameOutcome) {
            expect(
              wb[key] / Math.max(1, wa[key]),
              `${key} growth when the input doubles`,
            ).toBeLessThan(3);
          }
          expect(wb[key] / b.length, `${key} token reads per character`).toBeLessThan(400);
        }
      },
    );
  }
});
