import type { MessagePort } from "node:worker_threads";
import type { SqlToolkit } from "../../core/sql/results.js";
import { runSqlToolCall, type SqlToolCall } from "./sql-tool-call.js";

/** A message from the pool to its worker thread. */
export interface SqlCallRequest {
  readonly id: number;
  readonly call: SqlToolCall;
}

/** A message from the worker thread: ready, or the answer to one call. */
export type SqlCallResponse =
  | { readonly type: "ready" }
  | { readonly type: "fatal"; readonly message: string }
  | { readonly type: "reply"; readonly id: number; readonly reply: unknown }
  | { readonly type: "error"; readonly id: number; readonly message: string };

/**
 * The body of a SQL worker thread: loads the toolkit, says `ready`, then answers each call it is
 * sent, one at a time (the tools are synchronous). A thrown error is sent back as `error`.
 *
 * @example
 * // in a worker thread's entry module:
 * await serveSqlCalls(parentPort, loadSqlToolkit);
 */
export async function serveSqlCalls(
  port: MessagePort,
  loadToolkit: () => Promise<SqlToolkit>,
): Promise<void> {
  let toolkit: SqlToolkit;
  try {
    toolkit = await loadToolkit();
  } catch (error) {
    port.postMessage({ type: "fatal", message: String(error) } satisfies SqlCallResponse);
    return;
  }
  port.on("message", ({ id, call }: SqlCallRequest) => {
    let response: SqlCallResponse;
    try {
      response = { type: "reply", id, reply: runSqlToolCall(toolkit, call) };
    } catch (error) {
      response = {
        type: "error",
        id,
        message: error instanceof Error ? error.message : String(error),
      };
    }
    port.postMessage(response);
  });
  port.postMessage({ type: "ready" } satisfies SqlCallResponse);
}
