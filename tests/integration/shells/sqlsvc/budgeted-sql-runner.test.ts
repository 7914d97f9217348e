/**
 * Issue 8: a call that runs past its budget is stopped with a clear tool error, and the process
 * stays responsive meanwhile. The slow input is deliberate: the test worker spins forever on text
 * starting with SLOW. Nothing here asserts a duration; the budget is what ends the slow call.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { SqlToolkit } from "../../../../core/sql/results.js";
import { BudgetedSqlRunner } from "../../../../shells/sqlsvc/budgeted-sql-runner.js";

const WORKER = new URL("../../../support/slow-sql-worker.mjs", import.meta.url);

/** In-process toolkit: only `validate` is used (small texts never reach the thread). */
const inline = {
  validate: () => ({ ok: true, result: { valid: true, dialect: "inline" } }),
} as unknown as SqlToolkit;

const big = (prefix: string) => prefix + " x".repeat(40);

describe("BudgetedSqlRunner", () => {
  let runner: BudgetedSqlRunner | undefined;
  afterEach(async () => {
    await runner?.close();
  });

  it("runs calls on small texts in-process and larger ones in the worker thread", async () => {
    runner = new BudgetedSqlRunner({
      inline,
      budgetMs: 30_000,
      inlineMaxChars: 16,
      workerUrl: WORKER,
    });
    expect(runner.run({ tool: "validate", sql: "SELECT 1" })).toEqual({
      ok: true,
      result: { valid: true, dialect: "inline" },
    });
    expect(await runner.run({ tool: "validate", sql: big("SELECT") })).toEqual({
      ok: true,
      result: { valid: true },
    });
  }, 60_000);

  it("stops a call past its budget with a tool error and keeps answering others (issue 8)", async () => {
    runner = new BudgetedSqlRunner({
      inline,
      budgetMs: 1_000,
      inlineMaxChars: 16,
      workerUrl: WORKER,
    });
    // Warm the thread up so its start-up is not part of the budget under test.
    await runner.run({ tool: "parse", sql: big("SELECT") });
    const slow = runner.run({ tool: "parse", sql: big("SLOW") });
    // While the thread spins, the process answers small calls (its event loop is free)…
    expect(runner.run({ tool: "validate", sql: "SELECT 1" })).toMatchObject({ ok: true });
    // …and a large call queued behind the slow one is answered by the next thread.
    const queued = runner.run({ tool: "lint", sql: big("SELECT"), options: {} });
    expect(await slow).toEqual({
      ok: false,
      error:
        "parse_sql stopped: the call ran past its budget of 1000 ms " +
        "(the text is too costly to analyse; send a shorter one)",
    });
    expect(await queued).toEqual({ ok: true, result: { violation_count: 0, violations: [] } });
  }, 60_000);

  it("does not queue a benign mid-size call behind costly large ones (issue 26)", async () => {
    runner = new BudgetedSqlRunner({
      inline,
      // Long enough that only this test's own end stops the slow calls.
      budgetMs: 120_000,
      inlineMaxChars: 16,
      largeMinChars: 64,
      threads: 2,
      workerUrl: WORKER,
    });
    const large = "SLOW" + " x".repeat(100);
    const settled: string[] = [];
    const slow = [1, 2, 3, 4].map((n) =>
      Promise.resolve(runner?.run({ tool: "parse", sql: large })).then(
        () => settled.push(`slow ${n}`),
        () => settled.push(`slow ${n} refused`),
      ),
    );
    // 40 characters: over the in-process size, under the large size.
    const benign = await runner.run({ tool: "lint", sql: big("SELECT").slice(0, 40), options: {} });
    expect(benign).toEqual({ ok: true, result: { violation_count: 0, violations: [] } });
    // Answered while every costly call still runs or waits.
    expect(settled).toEqual([]);
    await runner.close();
    await Promise.all(slow);
    expect(settled.sort()).toEqual([1, 2, 3, 4].map((n) => `slow ${n} refused`));
    runner = undefined;
  }, 60_000);
});
