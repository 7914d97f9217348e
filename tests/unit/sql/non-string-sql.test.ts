import { beforeAll, describe, expect, it } from "vitest";
import { AgentServicesError } from "../../../core/errors.js";
import { formatSql } from "../../../core/sql/format.js";
import { lintSql } from "../../../core/sql/lint/index.js";
import type { SqlToolkit } from "../../../core/sql/results.js";
import { scanSql } from "../../../core/sql/security/index.js";
import { createSqlToolkit } from "../../../core/sql/sql-toolkit.js";
import { tokenize } from "../../../core/sql/tokenizer.js";
import { loadedParser } from "./loaded-parser.js";

let tools: SqlToolkit;
beforeAll(async () => {
  tools = createSqlToolkit(await loadedParser());
});

/** What a plain JavaScript caller can pass where TypeScript would have refused it. */
const WRONG: [unknown, string][] = [
  [undefined, "undefined"],
  [null, "null"],
  [5, "number"],
  [{ sql: "SELECT 1" }, "object"],
];

function thrown(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("SQL given as something other than a string (QA pass as a library user)", () => {
  it.each(WRONG)("every toolkit tool refuses %j with invalid_input naming sql", (sql, got) => {
    const text = sql as string;
    const calls: Record<keyof SqlToolkit, () => unknown> = {
      validate: () => tools.validate(text, "postgresql"),
      format: () => tools.format(text),
      parse: () => tools.parse(text),
      metadata: () => tools.metadata(text),
      scan: () => tools.scan(text),
      lint: () => tools.lint(text),
      fix: () => tools.fix(text),
      analyze: () => tools.analyze(text),
    };
    for (const [tool, call] of Object.entries(calls)) {
      const error = thrown(call);
      expect(error, tool).toBeInstanceOf(AgentServicesError);
      expect(error, tool).toMatchObject({
        code: "invalid_input",
        message: `sql: expected a string, got ${got}`,
      });
    }
  });

  it.each(WRONG)(
    "tokenize, lintSql, scanSql and formatSql refuse %j instead of calling it clean",
    (sql) => {
      const text = sql as string;
      for (const call of [
        () => tokenize(text),
        () => lintSql(text),
        () => scanSql(text),
        () => formatSql(text),
      ]) {
        expect(thrown(call)).toMatchObject({ code: "invalid_input" });
      }
    },
  );
});
