import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import {
  checkJsonRpcMessage,
  jsonRpcErrorText,
  type JsonRpcRefusal,
} from "./json-rpc-message-check.js";
import { JSON_RPC } from "./mcp-protocol-error.js";
import { nestsTooDeep, TOO_DEEP_MESSAGE } from "./json-nesting-limit.js";

/**
 * Longest line (one JSON-RPC message) the stdio servers read: 4 MiB, four times the HTTP body
 * limit. A longer line is answered with -32600 and skipped as it streams by, never buffered.
 */
export const MAX_STDIO_LINE_BYTES = 4 * 1024 * 1024;

/** Options of {@link LineStdioTransport}. */
export interface LineStdioTransportOptions {
  /** Longest line read; default {@link MAX_STDIO_LINE_BYTES}. */
  readonly maxLineBytes?: number;
}

const NEWLINE = 0x0a;

/**
 * MCP's stdio transport (newline-delimited JSON-RPC on a pair of streams), in place of the SDK's
 * `StdioServerTransport`, which ended the session on a line over its 10 MB buffer (the request
 * after it was never answered) and answered nothing to a line it could not read (issue 26).
 * Every line gets what JSON-RPC says it deserves, and the session goes on:
 *
 * - not UTF-8, or not JSON: -32700 Parse error, id null;
 * - JSON but no acceptable message (see `checkJsonRpcMessage`), or a batch (MCP 2025-06-18 has
 *   none; send one message per line): -32600 Invalid Request, id null; a `tools/call` with
 *   unusable `params`: -32602 under its id;
 * - longer than `maxLineBytes`: -32600, and its bytes are skipped as they stream by;
 * - a response (our servers send no requests, so nobody waits for one) and blank lines: nothing.
 *
 * Everything else goes to the SDK server as it came. The end of the input closes the transport.
 *
 * @example
 * await server.connect(new LineStdioTransport(process.stdin, process.stdout));
 */
export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #input: Readable;
  readonly #output: Writable;
  readonly #maxLineBytes: number;
  #parts: Buffer[] = [];
  #size = 0;
  #skipping = false;
  #closed = false;
  readonly #decoder = new TextDecoder("utf-8", { fatal: true });

  constructor(
    input: Readable = process.stdin,
    output: Writable = process.stdout,
    options: LineStdioTransportOptions = {},
  ) {
    this.#input = input;
    this.#output = output;
    this.#maxLineBytes = options.maxLineBytes ?? MAX_STDIO_LINE_BYTES;
  }

  start(): Promise<void> {
    this.#input.on("data", this.#onData);
    this.#input.on("end", this.#onEnd);
    this.#input.on("error", this.#onError);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.#write(`${JSON.stringify(message)}\n`);
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.#input.off("data", this.#onData);
    this.#input.off("end", this.#onEnd);
    this.#input.off("error", this.#onError);
    if (this.#input.listenerCount("data") === 0) this.#input.pause();
    this.#parts = [];
    this.onclose?.();
    return Promise.resolve();
  }

  #write(text: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.#output.write(text)) resolve();
      else this.#output.once("drain", resolve);
    });
  }

  readonly #onEnd = (): void => {
    if (this.#size > 0 || this.#skipping) this.#finishLine();
    void this.close();
  };

  readonly #onError = (error: Error): void => {
    this.onerror?.(error);
  };

  readonly #onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    let start = 0;
    while (start <= bytes.length && !this.#closed) {
      const newline = bytes.indexOf(NEWLINE, start);
      const end = newline === -1 ? bytes.length : newline;
      if (!this.#skipping) {
        if (this.#size + (end - start) > this.#maxLineBytes) {
          this.#skipping = true;
          this.#parts = [];
          this.#size = 0;
        } else if (end > start) {
          this.#parts.push(bytes.subarray(start, end));
          this.#size += end - start;
        }
      }
      if (newline === -1) break;
      this.#finishLine();
      start = newline + 1;
    }
  };

  /** Handles the line collected so far (its newline reached, or the input ended). */
  #finishLine(): void {
    if (this.#skipping) {
      this.#skipping = false;
      this.#refuse({
        code: JSON_RPC.INVALID_REQUEST,
        message: `Invalid Request: a message is at most ${this.#maxLineBytes} bytes on one line; this longer line was skipped`,
        id: null,
      });
      return;
    }
    const parts = this.#parts;
    const size = this.#size;
    this.#parts = [];
    this.#size = 0;
    if (size === 0) return;
    const line = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, size);
    this.#handleLine(line);
  }

  #handleLine(line: Buffer): void {
    let text: string;
    try {
      text = this.#decoder.decode(line);
    } catch {
      this.#refuse({ code: JSON_RPC.PARSE_ERROR, message: "Parse error: not UTF-8", id: null });
      return;
    }
    if (text.trim() === "") return;
    if (nestsTooDeep(text)) {
      this.#refuse({ code: JSON_RPC.INVALID_REQUEST, message: TOO_DEEP_MESSAGE, id: null });
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.#refuse({ code: JSON_RPC.PARSE_ERROR, message: "Parse error: Invalid JSON", id: null });
      return;
    }
    if (Array.isArray(message)) {
      this.#refuse({
        code: JSON_RPC.INVALID_REQUEST,
        message: "Invalid Request: batches are not supported over stdio; send one message per line",
        id: null,
      });
      return;
    }
    const check = checkJsonRpcMessage(message);
    if (check.kind === "refused") {
      this.#refuse(check.refusal);
      return;
    }
    if (check.kind === "response") return;
    // The SDK's own schema, last: what it would not take is refused here, without its dump.
    let parsed: JSONRPCMessage;
    try {
      const result = JSONRPCMessageSchema.safeParse(message);
      if (!result.success) {
        this.#refuse({
          code: JSON_RPC.INVALID_REQUEST,
          message: "Invalid Request: not a JSON-RPC 2.0 message MCP accepts",
          id: null,
        });
        return;
      }
      parsed = result.data;
    } catch (error) {
      // A schema walking a pathological value (deep nesting) may run out of stack.
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      this.#refuse({
        code: JSON_RPC.INVALID_REQUEST,
        message: "Invalid Request: the message could not be checked",
        id: null,
      });
      return;
    }
    try {
      this.onmessage?.(parsed);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  #refuse(refusal: JsonRpcRefusal): void {
    void this.#write(`${jsonRpcErrorText(refusal)}\n`);
  }
}
