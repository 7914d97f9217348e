/**
 * The cheap pass in front of the parse-limit guard: whenever it says "surely within the limits",
 * the guard over the tokens finds nothing (it may only skip work, never change a verdict), and
 * real SQL takes the cheap path.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { findParseLimit, PARSE_LIMITS } from "../../../core/sql/parse-limits.js";
import { tokenize } from "../../../core/sql/tokenizer.js";
import { surelyWithinParseLimits } from "../../../core/sql/within-parse-limits.js";
import { adversarialSql } from "../../fixtures/sql/adversarial.js";
import {
  DIALECT_ONLY_SQL,
  DIALECT_SQL,
  INVALID_SQL,
  PORTABLE_SQL,
} from "../../fixtures/sql/corpus.js";

const BENCH_QUERIES = readFileSync(
  new URL("../../fixtures/reference/sql-bench-queries.sql", import.meta.url),
  "utf8",
)
  .split(/^-- (?:small|medium|large)$/m)
  .slice(1)
  .map((part) => part.replace(/\n;\s*$/, "").trim());

/** Valid SQL of every dialect (none holds an unterminated comment). */
const REAL_SQL = [
  ...BENCH_QUERIES,
  ...PORTABLE_SQL,
  ...DIALECT_ONLY_SQL.map((c) => c.sql),
  ...Object.values(DIALECT_SQL).flat(),
];

/** Texts right at and right past each limit, and the ways a word can hide from ASCII matching. */
const EDGES: readonly string[] = [
  `SELECT ${"(".repeat(PARSE_LIMITS.depth)}1${")".repeat(PARSE_LIMITS.depth)}`,
  `SELECT ${"(".repeat(PARSE_LIMITS.depth + 1)}1${")".repeat(PARSE_LIMITS.depth + 1)}`,
  `SELECT ${"CASE WHEN a THEN ".repeat(PARSE_LIMITS.depth + 1)}1${" END".repeat(PARSE_LIMITS.depth + 1)}`,
  `SELECT ${"caſe when a then ".repeat(PARSE_LIMITS.depth + 1)}1${" end".repeat(PARSE_LIMITS.depth + 1)}`,
  `SELECT 1${"+1".repeat(PARSE_LIMITS.chain)}`,
  `SELECT 1${"::int".repeat(PARSE_LIMITS.chain + 1)}`,
  `SELECT 1${" #> x".repeat(PARSE_LIMITS.chain + 1)}`,
  `SELECT * FROM t WHERE ${"a OR ".repeat(PARSE_LIMITS.conditions)}b`,
  `SELECT * FROM t WHERE ${"a AnD ".repeat(PARSE_LIMITS.conditions)}b`,
  `SELECT a FROM t${" UNION SELECT a FROM t".repeat(PARSE_LIMITS.setOperations + 1)}`,
  `SELECT a FROM t${" unıon SELECT a FROM t".repeat(PARSE_LIMITS.setOperations + 1)}`,
  `SELECT a FROM t${" ınterſect SELECT a FROM t".repeat(PARSE_LIMITS.setOperations + 1)}`,
  `SELECT a FROM t${" mınuſ SELECT a FROM t".repeat(PARSE_LIMITS.setOperations + 1)}`,
  `SELECT a FROM t${" EXCEPT SELECT a FROM t".repeat(PARSE_LIMITS.setOperations + 1)}`,
  "SELECT 1; ".repeat(PARSE_LIMITS.statements),
  "SELECT 1; ".repeat(PARSE_LIMITS.statements + 1),
  "SELECT 1 /* open",
  "SELECT 1 /* closed */ /* open",
  "SELECT 1 /* closed */ , 2 /* closed too */",
  "SELECT 1 /*/ open",
  "SELECT '/*' AS a",
];

describe("surelyWithinParseLimits", () => {
  // Heavy: the corpus and every limit's edge texts. Took 0.4 s and 1.2 s in two runs of the unit
  // project on 2 shared cores with two busy loops running.
  it("is never sure of a text the guard refuses", () => {
    const texts = [
      ...REAL_SQL,
      ...INVALID_SQL,
      ...EDGES,
      ...[256, 1024, 4096, 16_384].flatMap((size) => Object.values(adversarialSql(size))),
    ];
    let sure = 0;
    for (const sql of texts) {
      if (!surelyWithinParseLimits(sql)) continue;
      sure++;
      expect(findParseLimit(tokenize(sql)), sql.slice(0, 60)).toBeUndefined();
    }
    // The property is not vacuous: most texts here are decided by the cheap pass.
    expect(sure).toBeGreaterThan(texts.length / 2);
  }, 30_000);

  // Heavy: every limit's edge texts. Took 0.4 s and 1.1 s in two runs of the unit project on 2
  // shared cores with two busy loops running.
  it("refuses to vouch for each limit's first text past it", () => {
    for (const sql of EDGES) {
      if (findParseLimit(tokenize(sql)) !== undefined) {
        expect(surelyWithinParseLimits(sql), sql.slice(0, 60)).toBe(false);
      }
    }
    // And the edges do go past the limits, the hidden words included.
    const refused = EDGES.filter((sql) => findParseLimit(tokenize(sql)) !== undefined);
    expect(refused.length).toBeGreaterThanOrEqual(14);
  }, 30_000);

  it("vouches for real SQL, so the benchmark queries are never tokenised for the guard", () => {
    for (const sql of REAL_SQL) expect(surelyWithinParseLimits(sql), sql).toBe(true);
  });

  it("vouches for balanced block comments and block comment markers in strings", () => {
    expect(surelyWithinParseLimits("SELECT a /* x */, b /* y */ FROM t")).toBe(true);
    expect(surelyWithinParseLimits("SELECT 1 /* closed */ /* open")).toBe(false);
    expect(surelyWithinParseLimits("SELECT 1 /*/")).toBe(false);
  });

  it("vouches for every text up to the smallest limit's length without looking, and the guard agrees", () => {
    const smallest = Math.min(...Object.values(PARSE_LIMITS));
    const dense = ["(", "CASE ", "+", " AND ", " UNION ", " JOIN ", ".", ";", "unıon "];
    for (const unit of dense) {
      const sql = unit.repeat(Math.ceil(smallest / unit.length)).slice(0, smallest);
      expect(surelyWithinParseLimits(sql), unit).toBe(true);
      expect(findParseLimit(tokenize(sql)), unit).toBeUndefined();
    }
    expect(surelyWithinParseLimits(`SELECT 1 /* open`)).toBe(false);
  });
});
