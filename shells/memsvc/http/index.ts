/**
 * The memory REST API as a Hono app factory, with its logger, auth and error mapping.
 *
 * @example
 * import { createMemoryApp, createJsonLogger } from "./shells/memsvc/http/index.js";
 * const app = createMemoryApp({ memory, version: "0.1.0", logger: createJsonLogger() });
 */
export { answerClientErrors } from "../../common/http/answer-client-errors.js";
export type { ClientErrorOptions } from "../../common/http/answer-client-errors.js";
export { bearerAuth } from "../../common/http/bearer-auth.js";
export type { BearerAuthOptions } from "../../common/http/bearer-auth.js";
export { createMemoryApp } from "./create-memory-app.js";
export type { MemoryAppOptions, ReadinessCheck } from "./create-memory-app.js";
export { createMemoryListener } from "./create-memory-listener.js";
export type { MemoryListenerOptions } from "./create-memory-listener.js";
export { describeCause, toErrorAnswer } from "./error-response.js";
export type { ErrorAnswer } from "./error-response.js";
export { HttpError } from "./http-error.js";
export {
  createJsonLogger,
  createStderrLogger,
  createTextLogger,
  SILENT_LOGGER,
  withFields,
} from "../../common/logger.js";
export type { JsonLoggerOptions, LogFields, Logger, LogLevel } from "../../common/logger.js";
export { buildOpenApiDocument } from "./openapi-document.js";
export type { OpenApiDocument } from "./openapi-document.js";
export { jsonObjectBody, MAX_BODY_BYTES } from "./json-object-body.js";
export { ROUTE_DOCS } from "./memory-route-docs.js";
export { validJson, validMemoryId } from "./valid-input.js";
export { requestLog } from "../../common/http/request-log.js";
export { requestId, requestIdOf } from "../../common/http/request-id.js";
export { principalOf, OPERATOR } from "./principal.js";
export type { Principal } from "./principal.js";
export type { MemoryOf } from "./memory-of.js";
export { createServiceMetrics, metricsHandler } from "../../common/service-metrics.js";
export type { ServiceMetrics, ToolCallResult } from "../../common/service-metrics.js";
