import { Worker } from "node:worker_threads";
import type { SqlToolkit } from "../../core/sql/results.js";
import type { ToolReply } from "../common/mcp/mcp-tool.js";
import type { SqlCallRequest, SqlCallResponse } from "./serve-sql-calls.js";
import { runSqlToolCall, type SqlToolCall, type SqlToolRunner } from "./sql-tool-call.js";

/**
 * Options of {@link BudgetedSqlRunner}.
 *
 * @example
 * const options: BudgetedSqlRunnerOptions = { inline: toolkit, budgetMs: 10_000 };
 */
export interface BudgetedSqlRunnerOptions {
  /** Runs the calls on small texts, in-process. */
  readonly inline: SqlToolkit;
  /** Longest a call may run in the worker thread before it is stopped, in ms. */
  readonly budgetMs: number;
  /** Texts up to this many characters run in-process (default {@link INLINE_MAX_CHARS}). */
  readonly inlineMaxChars?: number;
  /** Entry module of the worker thread (default `sql-call-worker` beside this module). */
  readonly workerUrl?: URL;
}

/**
 * Texts up to this size run in-process: every tool's work is linear in the text (issue 8), so a
 * call on 16 KiB costs milliseconds, and the hop to a thread (~30-60 µs of CPU each way) would
 * cost more than most calls.
 */
export const INLINE_MAX_CHARS = 16 * 1024;

const TOOL_NAMES: Record<SqlToolCall["tool"], string> = {
  validate: "validate_sql",
  format: "format_sql",
  parse: "parse_sql",
  metadata: "extract_metadata",
  scan: "security_scan",
  lint: "lint_sql",
  analyze: "analyze_sql",
};

interface Pending {
  readonly id: number;
  readonly call: SqlToolCall;
  readonly resolve: (reply: ToolReply) => void;
  readonly reject: (error: Error) => void;
}

/**
 * Runs SQL tool calls with a per-call budget. Calls on small texts run in-process; calls on
 * larger ones run one at a time in a worker thread holding its own parsers, and a call still
 * running when its budget is spent is stopped (the thread is terminated, which stops even a
 * synchronous WASM parser) and answered with a tool error naming the budget; a fresh thread takes
 * the next call. Meanwhile the process's own event loop stays free for other clients. The
 * thread is started on the first large call.
 *
 * @example
 * const runner = new BudgetedSqlRunner({ inline: toolkit, budgetMs: 10_000 });
 * await runner.run({ tool: "parse", sql: hugeSql }); // { ok: true, … } or a cut-off tool error
 * await runner.close();
 */
export class BudgetedSqlRunner implements SqlToolRunner {
  private readonly options: BudgetedSqlRunnerOptions;
  private readonly inlineMax: number;
  private worker: Worker | undefined;
  private ready = false;
  private readonly queue: Pending[] = [];
  private current: Pending | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private nextId = 1;
  private closed = false;

  constructor(options: BudgetedSqlRunnerOptions) {
    this.options = options;
    this.inlineMax = options.inlineMaxChars ?? INLINE_MAX_CHARS;
  }

  run(call: SqlToolCall): ToolReply | Promise<ToolReply> {
    if (call.sql.length <= this.inlineMax) return runSqlToolCall(this.options.inline, call);
    return new Promise<ToolReply>((resolve, reject) => {
      if (this.closed) {
        reject(new Error("BudgetedSqlRunner used after close()"));
        return;
      }
      this.queue.push({ id: this.nextId++, call, resolve, reject });
      this.pump();
    });
  }

  /** Stops the worker thread; calls still queued are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new Error("SQL runner closed"));
    this.current?.reject(new Error("SQL runner closed"));
    this.current = undefined;
    clearTimeout(this.timer);
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private pump(): void {
    if (this.current !== undefined || this.queue.length === 0 || this.closed) return;
    if (this.worker === undefined) {
      this.start();
      return;
    }
    if (!this.ready) return;
    const next = this.queue.shift() as Pending;
    this.current = next;
    this.worker.postMessage({ id: next.id, call: next.call } satisfies SqlCallRequest);
    this.timer = setTimeout(() => this.cutOff(next), this.options.budgetMs);
  }

  private start(): void {
    const worker = new Worker(this.options.workerUrl ?? DEFAULT_WORKER_URL);
    worker.unref();
    this.worker = worker;
    this.ready = false;
    worker.on("message", (message: SqlCallResponse) => this.onMessage(worker, message));
    worker.on("error", (error) => this.onFailure(worker, error));
    worker.on("exit", (code) => this.onFailure(worker, new Error(`exited with code ${code}`)));
  }

  private onMessage(worker: Worker, message: SqlCallResponse): void {
    if (worker !== this.worker) return;
    if (message.type === "ready") {
      this.ready = true;
      this.pump();
      return;
    }
    if (message.type === "fatal") {
      this.onFailure(worker, new Error(message.message));
      return;
    }
    const current = this.current;
    if (current === undefined || current.id !== message.id) return;
    clearTimeout(this.timer);
    this.current = undefined;
    if (message.type === "reply") current.resolve(message.reply as ToolReply);
    else current.reject(new Error(message.message));
    this.pump();
  }

  /** The thread died on its own: the call in it fails as a server fault; a new thread follows. */
  private onFailure(worker: Worker, error: Error): void {
    if (worker !== this.worker) return;
    this.worker = undefined;
    clearTimeout(this.timer);
    const current = this.current;
    this.current = undefined;
    current?.reject(new Error(`SQL worker thread failed: ${error.message}`));
    if (!this.ready) {
      // It never got ready (cannot load): refuse what waits rather than retry forever.
      for (const pending of this.queue.splice(0)) pending.reject(error);
      return;
    }
    this.pump();
  }

  private cutOff(pending: Pending): void {
    if (this.current !== pending) return;
    const worker = this.worker;
    this.worker = undefined;
    this.current = undefined;
    void worker?.terminate();
    pending.resolve({
      ok: false,
      error:
        `${TOOL_NAMES[pending.call.tool]} stopped: the call ran past its budget of ` +
        `${this.options.budgetMs} ms (the text is too costly to analyse; send a shorter one)`,
    });
    this.pump();
  }
}

/** The built worker entry beside this module (`dist/shells/sqlsvc/sql-call-worker.js`). */
const DEFAULT_WORKER_URL = new URL("./sql-call-worker.js", import.meta.url);
