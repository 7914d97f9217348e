import type { Hono } from "hono";
import { ndjsonLines } from "../../../core/memory/model/ndjson-lines.js";
import { unknownFieldMessage } from "../../../core/memory/model/suggest-field.js";
import type { MemoryApi } from "../../../core/memory/memory-api.js";
import { streamBody } from "../../common/http/body-reader.js";
import { HttpError } from "./http-error.js";
import { ROUTE_DOCS as doc } from "./memory-route-docs.js";

/** Largest line of an import: 1 MB, the limit of every other body. */
export const MAX_IMPORT_LINE_BYTES = 1_048_576;
/** Largest import body: 1 GiB (lines are streamed, so memory stays at one batch). */
export const MAX_IMPORT_BYTES = 1_073_741_824;
/** Export lines written per chunk of the response. */
const EXPORT_CHUNK_LINES = 256;

/**
 * The NDJSON routes of the memory API: `GET /v1/export` and `POST /v1/import`. They stay out of
 * the operation table (memory-operations.ts) because they stream: the export answers a stream
 * of lines, the import reads its body line by line up to 1 GiB, with its own content type and
 * limit, so neither is "input object in, answer object out". Thin: they turn the query string
 * and the body into the core's input and the answer into a stream or JSON.
 *
 * @example
 * mountMemoryNdjsonRoutes(app, service);
 */
export function mountMemoryNdjsonRoutes(app: Hono, memory: MemoryApi): void {
  app.get("/v1/export", doc.exportMemories, async (c) => {
    const vectors = exportVectorsOf(c.req.queries());
    const iterator = memory.exportMemories({ vectors })[Symbol.asyncIterator]();
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
    const body = streamBody(c, MAX_IMPORT_BYTES, tooLarge);
    return c.json(await memory.importMemories(ndjsonLines(body, MAX_IMPORT_LINE_BYTES)));
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

function tooLarge(): HttpError {
  return new HttpError(
    413,
    `import body exceeds the limit of ${MAX_IMPORT_BYTES} bytes (lines before it may have been imported; importing again is safe)`,
  );
}
