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
  /** Longest a call may run in a worker thread before it is stopped, in ms. */
  readonly budgetMs: number;
  /** Texts up to this many characters run in-process (default {@link INLINE_MAX_CHARS}). */
  readonly inlineMaxChars?: number;
  /** Worker threads, at least 1 (default {@link DEFAULT_SQL_THREADS}). */
  readonly threads?: number;
  /**
   * Texts over this many characters are "large": they may occupy every thread but one, which
   * stays for the others (default {@link LARGE_MIN_CHARS}).
   */
  readonly largeMinChars?: number;
  /** Entry module of the worker threads (default `sql-call-worker` beside this module). */
  readonly workerUrl?: URL;
}

/**
 * Texts up to this size run in-process: every tool's work is linear in the text (issue 8), so a
 * call on 16 KiB costs milliseconds, and the hop to a thread (~30-60 µs of CPU each way) would
 * cost more than most calls.
 */
export const INLINE_MAX_CHARS = 16 * 1024;

/**
 * Whether `call` asks for an optional capability of the semantic engine (a schema, a target
 * dialect, lineage). Those are not linear in the text: tracing the lineage of a 15 KiB select
 * list of 5,000 columns took 4-6 s of CPU, and of 150 chained CTEs (4 KiB) 1.8 s. So such calls
 * run in a thread, under the budget, whatever the size of their text.
 */
function usesSemantics(call: SqlToolCall): boolean {
  switch (call.tool) {
    case "validate":
      return call.schema !== undefined;
    case "format":
      return call.targetDialect !== undefined;
    case "metadata":
      return call.lineage === true;
    default:
      return false;
  }
}

/** Worker threads per process: one for large texts, one kept for the rest. */
export const DEFAULT_SQL_THREADS = 2;

/** Texts over 64 KiB may not take the last free thread (issue 26). */
export const LARGE_MIN_CHARS = 64 * 1024;

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
  readonly large: boolean;
  readonly resolve: (reply: ToolReply) => void;
  readonly reject: (error: Error) => void;
}

/** One worker thread and the call it runs. */
interface Slot {
  worker: Worker | undefined;
  ready: boolean;
  current: Pending | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * Runs SQL tool calls with a per-call budget. Calls on small texts run in-process; calls on
 * larger ones, and calls asking for a schema, a target dialect or lineage, run in a small pool
 * of worker threads, each holding its own parsers, and a call
 * still running when its budget is spent is stopped (its thread is terminated, which stops even a
 * synchronous WASM parser) and answered with a tool error naming the budget; a fresh thread takes
 * the next call. Calls start in arrival order, except that large texts (over 64 KiB) never take
 * the last free thread: a run of costly 256 KiB calls waits for one thread while a 20 KiB call
 * starts at once on the other (issue 26: four 256 KiB calls cut off by the 10 s budget made a
 * benign 20 KiB call wait 42 s behind them). Meanwhile the process's own event loop stays free
 * for other clients. Threads start on the first call that needs them.
 *
 * @example
 * const runner = new BudgetedSqlRunner({ inline: toolkit, budgetMs: 10_000 });
 * await runner.run({ tool: "parse", sql: hugeSql }); // { ok: true, … } or a cut-off tool error
 * await runner.close();
 */
export class BudgetedSqlRunner implements SqlToolRunner {
  private readonly options: BudgetedSqlRunnerOptions;
  private readonly inlineMax: number;
  private readonly largeMin: number;
  private readonly slots: Slot[];
  /** Most threads large texts may hold at once (all but one, when there are several). */
  private readonly largeMax: number;
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(options: BudgetedSqlRunnerOptions) {
    this.options = options;
    this.inlineMax = options.inlineMaxChars ?? INLINE_MAX_CHARS;
    this.largeMin = options.largeMinChars ?? LARGE_MIN_CHARS;
    const threads = Math.max(1, Math.floor(options.threads ?? DEFAULT_SQL_THREADS));
    this.largeMax = Math.max(1, threads - 1);
    this.slots = Array.from({ length: threads }, () => ({
      worker: undefined,
      ready: false,
      current: undefined,
      timer: undefined,
    }));
  }

  run(call: SqlToolCall): ToolReply | Promise<ToolReply> {
    if (call.sql.length <= this.inlineMax && !usesSemantics(call)) {
      return runSqlToolCall(this.options.inline, call);
    }
    return new Promise<ToolReply>((resolve, reject) => {
      if (this.closed) {
        reject(new Error("BudgetedSqlRunner used after close()"));
        return;
      }
      const large = call.sql.length > this.largeMin;
      this.queue.push({ id: this.nextId++, call, large, resolve, reject });
      this.pump();
    });
  }

  /** Stops the worker threads; calls still queued or running are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new Error("SQL runner closed"));
    const stopping: Promise<number>[] = [];
    for (const slot of this.slots) {
      slot.current?.reject(new Error("SQL runner closed"));
      slot.current = undefined;
      clearTimeout(slot.timer);
      if (slot.worker !== undefined) stopping.push(slot.worker.terminate());
      slot.worker = undefined;
    }
    await Promise.all(stopping);
  }

  /** Starts what can start: each idle, ready thread takes the first call it may take. */
  private pump(): void {
    if (this.closed) return;
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.current !== undefined) continue;
      if (slot.worker === undefined) {
        // A new thread only for calls that no thread already starting will take.
        const starting = this.slots.filter((s) => s.worker !== undefined && !s.ready).length;
        if (this.queue.length > starting) this.start(slot);
        continue;
      }
      if (!slot.ready) continue;
      const largeRunning = this.slots.filter((s) => s.current?.large === true).length;
      const index = this.queue.findIndex((p) => !p.large || largeRunning < this.largeMax);
      if (index === -1) return;
      const [next] = this.queue.splice(index, 1) as [Pending];
      slot.current = next;
      slot.worker.postMessage({ id: next.id, call: next.call } satisfies SqlCallRequest);
      slot.timer = setTimeout(() => this.cutOff(slot, next), this.options.budgetMs);
    }
  }

  private start(slot: Slot): void {
    const worker = new Worker(this.options.workerUrl ?? DEFAULT_WORKER_URL);
    worker.unref();
    slot.worker = worker;
    slot.ready = false;
    worker.on("message", (message: SqlCallResponse) => this.onMessage(slot, worker, message));
    worker.on("error", (error) => this.onFailure(slot, worker, error));
    worker.on("exit", (code) =>
      this.onFailure(slot, worker, new Error(`exited with code ${code}`)),
    );
  }

  private onMessage(slot: Slot, worker: Worker, message: SqlCallResponse): void {
    if (worker !== slot.worker) return;
    if (message.type === "ready") {
      slot.ready = true;
      this.pump();
      return;
    }
    if (message.type === "fatal") {
      this.onFailure(slot, worker, new Error(message.message));
      return;
    }
    const current = slot.current;
    if (current === undefined || current.id !== message.id) return;
    clearTimeout(slot.timer);
    slot.current = undefined;
    if (message.type === "reply") current.resolve(message.reply as ToolReply);
    else current.reject(new Error(message.message));
    this.pump();
  }

  /** The thread died on its own: the call in it fails as a server fault; a new thread follows. */
  private onFailure(slot: Slot, worker: Worker, error: Error): void {
    if (worker !== slot.worker) return;
    const wasReady = slot.ready;
    slot.worker = undefined;
    slot.ready = false;
    clearTimeout(slot.timer);
    const current = slot.current;
    slot.current = undefined;
    current?.reject(new Error(`SQL worker thread failed: ${error.message}`));
    if (!wasReady) {
      // It never got ready (cannot load): refuse what waits rather than retry forever.
      for (const pending of this.queue.splice(0)) pending.reject(error);
      return;
    }
    this.pump();
  }

  private cutOff(slot: Slot, pending: Pending): void {
    if (slot.current !== pending) return;
    const worker = slot.worker;
    slot.worker = undefined;
    slot.ready = false;
    slot.current = undefined;
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
