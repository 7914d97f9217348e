import type { RequestListener } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { bearerTokenMatcher } from "../../common/bearer-auth.js";
import { SILENT_LOGGER } from "../../common/logger.js";
import { createMemoryApp, type MemoryAppOptions } from "./create-memory-app.js";
import { MAX_BODY_BYTES } from "./json-object-body.js";
import { withMemoryFastPath } from "./memory-fast-path.js";
import { memoryJsonCalls } from "./memory-json-calls.js";

/** What {@link createMemoryListener} needs: the app's options, and whether to use the fast path. */
export interface MemoryListenerOptions extends MemoryAppOptions {
  /** Answer the hot JSON routes in front of Hono (default true; tests compare both ways). */
  readonly fastPath?: boolean;
}

/**
 * The memory API as a Node request listener (what `memsvc serve` runs): the fast path
 * (`withMemoryFastPath`) answers well-formed `POST /v1/search`, `/v1/recall`, `/v1/remember` and
 * `/v1/remember/batch` requests with the routes' own calls, and the Hono app of
 * `createMemoryApp` answers everything else, refusals included, with the same options (token,
 * body limit, logger, metrics).
 *
 * @example
 * const server = createServer(createMemoryListener({ memory, version: "0.1.0", authToken: "s3cret" }));
 */
export function createMemoryListener(options: MemoryListenerOptions): RequestListener {
  const fallback = getRequestListener(createMemoryApp(options).fetch);
  if (options.fastPath === false) return fallback;
  const token = options.authToken;
  return withMemoryFastPath(
    {
      calls: memoryJsonCalls(options.memory),
      maxBodyBytes: options.maxBodyBytes ?? MAX_BODY_BYTES,
      logger: options.logger ?? SILENT_LOGGER,
      metrics: options.metrics,
      ...(token === undefined || token === "" ? {} : { authorized: bearerTokenMatcher(token) }),
    },
    fallback,
  );
}
