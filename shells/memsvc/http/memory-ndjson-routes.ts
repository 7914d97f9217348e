import type { Hono } from "hono";
import { ndjsonLines } from "../../../core/memory/model/ndjson-lines.js";
import { unknownFieldMessage } from "../../../core/memory/model/suggest-field.js";
import type { MemoryApi } from "../../../core/memory/memory-api.js";
import { memoryOfOption, type MemoryOf } from "./memory-of.js";
import { principalOf } from "./principal.js";
import { streamBody } from "../../common/http/body-reader.js";
import { HttpError } from "./http-error.js";
import { ImportBody, type ImportStop } from "./import-body.js";
import { ROUTE_DOCS as doc } from "./memory-route-docs.js";

/** Largest line of an import: 1 MB, the limit of every other body. */
export const MAX_IMPORT_LINE_BYTES = 1_048_576;
/**
 * Most lines one import request takes: 50,000. Measured (`bench/memsvc-import.ts`) at ~1,000
 * lines/s with the local embedder and embedded Chroma on 2 shared cores, so a maximal import
 * finishes in about a minute, well within Node's 300 s request timeout. The lines after it are
 * left for the next request (the answer says where to resume).
 */
export const MAX_IMPORT_LINES = 50_000;
/**
 * Largest import body read: 256 MiB (50,000 export lines with 1,024-dimension vectors are about
 * 1 GB: such files take several requests). A body declared larger gets 413 before anything is
 * read; a streamed one stops at the last whole line within it.
 */
export const MAX_IMPORT_BYTES = 268_435_456;
/**
 * Longest an import takes lines for: 120 s (a slow embedder), then it stops at a line boundary
 * and answers, where Node's request timeout (300 s) would cut it without an answer.
 */
export const MAX_IMPORT_MS = 120_000;
/** Export lines written per chunk of the response. */
const EXPORT_CHUNK_LINES = 256;

/**
 * The NDJSON routes of the memory API: `GET /v1/export` and `POST /v1/import`. They stay out of
 * the operation table (memory-operations.ts) because they stream: the export answers a stream
 * of lines, the import reads its body line by line within its own limits (lines, bytes, time;
 * cut at a line boundary, and the answer says where to resume), so neither is "input object in, answer object out". Thin: they turn the query string
 * and the body into the core's input and the answer into a stream or JSON.
 *
 * @example
 * mountMemoryNdjsonRoutes(app, service);
 */
export function mountMemoryNdjsonRoutes(
  app: Hono,
  memory: MemoryApi | MemoryOf,
  limits: ImportRequestLimits = DEFAULT_IMPORT_LIMITS,
): void {
  const memoryOf = memoryOfOption(memory);
  app.get("/v1/export", doc.exportMemories, async (c) => {
    const vectors = exportVectorsOf(c.req.queries());
    const iterator = memoryOf(principalOf(c)).exportMemories({ vectors })[Symbol.asyncIterator]();
    // The first memory is read before answering, so a failing store is a clean 500.
    const first = await iterator.next();
    return new Response(exportStream(first, iterator), {
      headers: { "content-type": "application/x-ndjson; charset=utf-8" },
    });
  });
  app.post("/v1/import", doc.importMemories, async (c) => {
    const request = c.req.raw;
    const type = request.headers.get("content-type") ?? "";
    if (!/^application\/(x-ndjson|jsonl|x-jsonlines)\s*(;|$)/i.test(type)) {
      const got = type === "" ? "none" : JSON.stringify(type);
      throw new HttpError(400, `Content-Type: expected application/x-ndjson, got ${got}`);
    }
    const declared = c.req.header("content-length");
    if (declared !== undefined && Number(declared) > limits.maxBytes) throw tooLarge(limits);
    // The size is the body's limit (ImportBody), which stops at a line boundary instead of 413.
    const started = performance.now();
    const body = new ImportBody(
      streamBody(c, Number.MAX_SAFE_INTEGER, () => tooLarge(limits)),
      {
        maxBytes: limits.maxBytes,
        maxLines: limits.maxLines,
        maxLineBytes: MAX_IMPORT_LINE_BYTES,
        timeIsUp: () => performance.now() - started > limits.maxMs,
      },
    );
    const { stopped, ...result } = await memoryOf(principalOf(c)).importMemories(
      ndjsonLines(body, MAX_IMPORT_LINE_BYTES),
    );
    // The store's stop comes first: the body was read past it.
    if (stopped !== undefined) {
      return c.json({
        ...result,
        incomplete: incomplete(stopped.reason, stopped.storedThroughLine, limits),
      });
    }
    if (body.stopped === undefined) return c.json(result);
    return c.json({ ...result, incomplete: incomplete(body.stopped, body.linesPassed, limits) });
  });
}

function exportVectorsOf(queries: Record<string, string[]>): boolean {
  let vectors = false;
  for (const [name, values] of Object.entries(queries)) {
    if (name !== "vectors") throw new HttpError(400, unknownFieldMessage(name, ["vectors"]));
    if (values.length !== 1 || (values[0] !== "true" && values[0] !== "false")) {
      throw new HttpError(
        400,
        `vectors: expected true or false, got ${JSON.stringify(values.join(","))}`,
      );
    }
    vectors = values[0] === "true";
  }
  return vectors;
}

function exportStream(
  first: IteratorResult<unknown>,
  iterator: AsyncIterator<unknown>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let pending: IteratorResult<unknown> | undefined = first;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let text = "";
      for (let i = 0; i < EXPORT_CHUNK_LINES; i += 1) {
        const next = pending ?? (await iterator.next());
        pending = undefined;
        if (next.done === true) {
          if (text !== "") controller.enqueue(encoder.encode(text));
          controller.close();
          return;
        }
        text += `${JSON.stringify(next.value)}\n`;
      }
      controller.enqueue(encoder.encode(text));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

function tooLarge(limits: ImportRequestLimits): HttpError {
  return new HttpError(
    413,
    `import body declared over the limit of ${limits.maxBytes} bytes; nothing was imported: send at most ${limits.maxLines} lines per request`,
  );
}

/**
 * The limits of one import request (the defaults above; tests pass small ones).
 *
 * @example
 * mountMemoryNdjsonRoutes(app, memory, { maxBytes: 1000, maxLines: 10, maxMs: 60_000 });
 */
export interface ImportRequestLimits {
  readonly maxBytes: number;
  readonly maxLines: number;
  readonly maxMs: number;
}

const DEFAULT_IMPORT_LIMITS: ImportRequestLimits = {
  maxBytes: MAX_IMPORT_BYTES,
  maxLines: MAX_IMPORT_LINES,
  maxMs: MAX_IMPORT_MS,
};

/**
 * The `incomplete` part of an import answer cut by a limit (or by a busy store): why, the last line handled (every
 * line up to it was imported, merged or rejected; none after it was read) and how to go on.
 */
function incomplete(
  reason: ImportStop | "store_busy",
  storedThroughLine: number,
  limits: ImportRequestLimits,
) {
  const why =
    reason === "line_limit"
      ? `at most ${limits.maxLines} lines per request`
      : reason === "size_limit"
        ? `at most ${limits.maxBytes} bytes per request`
        : reason === "time_limit"
          ? `at most ${limits.maxMs / 1000} s per request`
          : "the vector store is busy taking the earlier writes";
  const when = reason === "store_busy" ? " in a few seconds" : "";
  return {
    reason,
    stored_through_line: storedThroughLine,
    message: `import stopped after line ${storedThroughLine} (${why}); send the lines after it in another request${when}`,
  };
}
