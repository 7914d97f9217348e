import type { RequestListener } from "node:http";
import { edgeOf } from "../../common/http/edge.js";
import { createFastLane } from "../../common/http/fast-lane.js";
import { toNodeListener } from "../../common/http/framework-internals.js";
import { SILENT_LOGGER } from "../../common/logger.js";
import { createMemoryApp, type MemoryAppOptions } from "./create-memory-app.js";
import { MAX_BODY_BYTES } from "./json-object-body.js";
import { memoryLaneRoutes } from "./memory-fast-path.js";
import { memoryJsonCalls } from "./memory-json-calls.js";

/** What {@link createMemoryListener} needs: the app's options, and whether to use the fast lane. */
export interface MemoryListenerOptions extends MemoryAppOptions {
  /** Answer the hot routes in front of Hono (default true; tests compare both ways). */
  readonly fastPath?: boolean;
}

/**
 * The memory API as a Node request listener (what `memsvc serve` runs): the fast lane
 * (`createFastLane` with `memoryLaneRoutes`) answers well-formed `POST /v1/search`, `/v1/recall`,
 * `/v1/remember`, `/v1/remember/batch` and MCP `tools/call`, `tools/list` and `ping` requests,
 * applying the app's own edge concerns, and the Hono app of `createMemoryApp` answers everything
 * else, refusals included, with the same options (token, body limit, logger, metrics).
 *
 * @example
 * const server = createServer(createMemoryListener({ memory, version: "0.1.0", authToken: "s3cret" }));
 */
export function createMemoryListener(options: MemoryListenerOptions): RequestListener {
  const app = createMemoryApp(options);
  const fallback = toNodeListener(app.fetch, (_status, message) => ({ error: message }));
  if (options.fastPath === false) return fallback;
  const edge = edgeOf(app);
  if (edge === undefined) throw new Error("createMemoryApp mounts no edge");
  return createFastLane(
    {
      edge,
      routes: memoryLaneRoutes(options.memory, memoryJsonCalls(), options.logger ?? SILENT_LOGGER),
      maxBodyBytes: options.maxBodyBytes ?? MAX_BODY_BYTES,
    },
    fallback,
  );
}
