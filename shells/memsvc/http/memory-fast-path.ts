import type { MemoryApi } from "../../../core/memory/memory-api.js";
import { isAgentServicesError } from "../../../core/errors.js";
import type { LaneAnswer, LaneResult, LaneRoute } from "../../common/http/fast-lane.js";
import { lazyLaneRoute } from "../../common/http/lazy-lane-route.js";
import { currentRequestId } from "../../common/http/request-id.js";
import { withFields, type Logger } from "../../common/logger.js";
import { toErrorJson } from "./error-response.js";
import { loadMemoryToolCatalog } from "../mcp/memory-tool-catalog.js";
import { isJsonMediaType, jsonObjectOf } from "./json-object-body.js";

/** A JSON route's work: the parsed body object in, the answer object out (see `memoryJsonCalls`). */
export type JsonCall = (body: object) => Promise<unknown>;

/**
 * The memory API's routes of the fast lane (`createFastLane`): its hot JSON routes (`POST
 * /v1/search`, `/v1/recall`, `/v1/remember`, `/v1/remember/batch`: `calls`, by exact path, each
 * the Hono route's own call from `memoryJsonCalls`) and its MCP tools on `POST /mcp` (loaded on the first `/mcp`
 * request, as the app loads its MCP route). Answering these without Hono, its validator
 * middleware or Web `Request`/`Response` objects saved 0.35-0.5 ms of the ~1.3 ms of service CPU
 * a search took.
 *
 * @example
 * const routes = memoryLaneRoutes(memory, memoryJsonCalls(memory), logger);
 * const lane = createFastLane({ edge, routes, maxBodyBytes }, fallback);
 */
export function memoryLaneRoutes(
  memory: MemoryApi,
  calls: Readonly<Record<string, JsonCall>>,
  logger: Logger,
): Map<string, LaneRoute> {
  const routes = new Map<string, LaneRoute>();
  for (const [path, call] of Object.entries(calls)) {
    routes.set(path, jsonCallRoute(call, logger));
  }
  routes.set(
    "/mcp",
    lazyLaneRoute(() => loadMcpRoute(memory, logger)),
  );
  return routes;
}

/**
 * One JSON route in the lane. It admits a JSON content type, parses the body with the app's own
 * check ({@link jsonObjectOf}) and hands the object to the route's call, which validates it with
 * the core's schema (the same `parseInput` the app's validator reports with). Unreadable JSON, a
 * body that is no object and any `invalid_input` from the call (validation runs before the call
 * does anything) go to the app, which refuses them; a call failing otherwise (store or embedder
 * down) is answered here with {@link toErrorJson}, as the app's error handler does, rather than
 * run a second time.
 */
function jsonCallRoute(call: JsonCall, logger: Logger): LaneRoute {
  const failure = (error: unknown): LaneResult => {
    // Refused by the core's validation, before the call did anything: the app refuses it.
    if (isAgentServicesError(error, "invalid_input")) return undefined;
    return errorAnswer(error, logger);
  };
  const answered = (answer: unknown): LaneResult => {
    try {
      return JSON.stringify(answer);
    } catch (error) {
      return failure(error);
    }
  };
  return {
    admits: (headers) => isJsonMediaType(headers["content-type"] ?? ""),
    answer: (body) => {
      let input: object;
      try {
        input = jsonObjectOf(body.toString("utf8"));
      } catch {
        return undefined;
      }
      return call(input).then(answered, failure);
    },
    // A client that goes away mid-body: logged (at debug level) and counted as the app does.
    failed: (error) => errorAnswer(error, logger),
  };
}

/** The app's error answer, its cause logged under the current request id. */
function errorAnswer(error: unknown, logger: Logger): LaneAnswer {
  return toErrorJson(error, withFields(logger, { request_id: currentRequestId() }));
}

/**
 * The memory MCP tools as a lane route, wired as the app wires its MCP route (the same failure
 * and fault log lines). Loaded on demand: the modules and the SDK's checks are not loaded at
 * startup.
 */
async function loadMcpRoute(memory: MemoryApi, logger: Logger): Promise<LaneRoute> {
  const [catalog, { mcpLaneRoute }] = await Promise.all([
    loadMemoryToolCatalog(memory, logger),
    import("../../common/mcp/mcp-lane-route.js"),
  ]);
  return mcpLaneRoute(catalog);
}
