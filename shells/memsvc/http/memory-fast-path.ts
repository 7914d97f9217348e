import type { MemoryApi } from "../../../core/memory/memory-api.js";
import { isAgentServicesError } from "../../../core/errors.js";
import type { LaneCall } from "../../common/http/edge.js";
import type { IncomingHttpHeaders } from "node:http";
import type { ToolCatalog } from "../../common/mcp/tool-catalog.js";
import type { LaneAnswer, LaneResult, LaneRoute } from "../../common/http/fast-lane.js";
import { withFields, type Logger } from "../../common/logger.js";
import { toErrorJson } from "./error-response.js";
import { loadMemoryToolCatalog } from "../mcp/memory-tool-catalog.js";
import { isJsonMediaType, jsonObjectOf } from "./json-object-body.js";
import { principalOfAdmission } from "./caller-auth.js";
import type { JsonCall } from "./memory-json-calls.js";
import { memoryOfOption, type MemoryOf } from "./memory-of.js";

/** What this file uses of mcp-lane-route.ts, which loads the MCP SDK (on demand only). */
interface McpLaneModule {
  mcpLaneRoute(catalog: ToolCatalog): LaneRoute;
  admitsMcp(headers: IncomingHttpHeaders): boolean;
}

/**
 * The memory API's routes of the fast lane (`createFastLane`): its hot JSON routes (`POST
 * /v1/search`, `/v1/recall`, `/v1/remember`, `/v1/remember/batch`: `calls`, by exact path, each
 * the Hono route's own call from `memoryJsonCalls`) and its MCP tools on `POST /mcp` (loaded on
 * the first `/mcp` request of a principal's memory, as the app loads its MCP route). Each
 * request acts on the memory of the principal the edge admitted (`memoryOf`, or `memory` for
 * everyone). Answering these without Hono, its validator middleware or Web
 * `Request`/`Response` objects saved 0.35-0.5 ms of the ~1.3 ms of service CPU a search took.
 *
 * @example
 * const routes = memoryLaneRoutes(memory, memoryJsonCalls(), logger);
 * const lane = createFastLane({ edge, routes, maxBodyBytes }, fallback);
 */
export function memoryLaneRoutes(
  memory: MemoryApi | MemoryOf,
  calls: Readonly<Record<string, JsonCall>>,
  logger: Logger,
): Map<string, LaneRoute> {
  const memoryOf = memoryOfOption(memory);
  const routes = new Map<string, LaneRoute>();
  for (const [path, call] of Object.entries(calls)) {
    routes.set(path, jsonCallRoute(call, memoryOf, logger));
  }
  routes.set("/mcp", mcpRoute(memoryOf, logger));
  return routes;
}

/**
 * One JSON route in the lane. It admits a JSON content type, parses the body with the app's own
 * check ({@link jsonObjectOf}) and hands the object to the route's call on the request's memory,
 * which validates it with the core's schema (the same `parseInput` the app's validator reports
 * with). Unreadable JSON, a body that is no object and any `invalid_input` from the call
 * (validation runs before the call does anything) go to the app, which refuses them; a call
 * failing otherwise (store or embedder down) is answered here with {@link toErrorJson}, as the
 * app's error handler does, rather than run a second time.
 */
function jsonCallRoute(call: JsonCall, memoryOf: MemoryOf, logger: Logger): LaneRoute {
  return {
    admits: (headers) => isJsonMediaType(headers["content-type"] ?? ""),
    answer: (body, request) => {
      let input: object;
      try {
        input = jsonObjectOf(body.toString("utf8"));
      } catch {
        return undefined;
      }
      return settle(
        call(memoryOf(principalOfAdmission(request.admission)), input),
        request,
        logger,
      );
    },
    // A client that goes away mid-body: logged (at debug level) and counted as the app does.
    failed: (error, request) => errorAnswer(error, request, logger),
  };
}

/** The answer as JSON text, or the failure's (a result that is no JSON fails alike). */
async function settle(
  answer: Promise<unknown>,
  request: LaneCall,
  logger: Logger,
): Promise<LaneResult> {
  try {
    return JSON.stringify(await answer);
  } catch (error) {
    // Refused by the core's validation, before the call did anything: the app refuses it.
    if (isAgentServicesError(error, "invalid_input")) return undefined;
    return errorAnswer(error, request, logger);
  }
}

/** The app's error answer, its cause logged under the request's id. */
function errorAnswer(error: unknown, request: LaneCall, logger: Logger): LaneAnswer {
  return toErrorJson(error, withFields(logger, { request_id: request.id }));
}

/**
 * The memory MCP tools as a lane route, wired as the app wires its MCP route (the same failure
 * and fault log lines), with one catalog per principal's memory. A catalog loads on demand (the
 * modules and the SDK's checks are not loaded at startup): until the request's own is loaded,
 * the request goes to the app, which answers it through its own (equally lazy) MCP route.
 */
function mcpRoute(memoryOf: MemoryOf, logger: Logger): LaneRoute {
  let mcp: McpLaneModule | undefined;
  let loading: Promise<void> | undefined;
  const routes = new WeakMap<MemoryApi, LaneRoute>();
  const starting = new WeakSet<MemoryApi>();
  const routeOf = (call: LaneCall) => routes.get(memoryOf(principalOfAdmission(call.admission)));
  const start = (memory: MemoryApi, module: McpLaneModule): void => {
    if (starting.has(memory)) return;
    starting.add(memory);
    loadMemoryToolCatalog(memory, logger).then(
      (catalog) => routes.set(memory, module.mcpLaneRoute(catalog)),
      () => starting.delete(memory),
    );
  };
  return {
    admits(headers): boolean {
      if (mcp !== undefined) return mcp.admitsMcp(headers);
      loading ??= import("../../common/mcp/mcp-lane-route.js").then(
        (module) => {
          mcp = module;
        },
        () => {
          loading = undefined;
        },
      );
      return false;
    },
    answer: (body, call) => {
      const route = routeOf(call);
      if (route !== undefined) return route.answer(body, call);
      start(memoryOf(principalOfAdmission(call.admission)), mcp as McpLaneModule);
      return undefined;
    },
    failed: (error, call) => routeOf(call)?.failed?.(error, call),
  };
}
