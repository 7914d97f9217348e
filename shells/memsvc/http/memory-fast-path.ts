import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { isAgentServicesError } from "../../../core/errors.js";
import { withFields, type Logger } from "../../common/logger.js";
import { requestIdFor, runWithRequestId } from "../../common/request-id.js";
import { logRequest } from "../../common/request-log.js";
import type { ServiceMetrics } from "../../common/service-metrics.js";
import { toErrorJson } from "./error-response.js";
import { isJsonMediaType, jsonObjectOf } from "./json-object-body.js";

/** A JSON route's work: the parsed body object in, the answer object out (see `memoryJsonCalls`). */
export type JsonCall = (body: object) => Promise<unknown>;

/**
 * Options of {@link withMemoryFastPath}.
 *
 * @example
 * const options: MemoryFastPathOptions = { calls, maxBodyBytes: 1_048_576, logger };
 */
export interface MemoryFastPathOptions {
  /** The routes answered here, by exact path (`POST` only), each with the Hono route's call. */
  readonly calls: Readonly<Record<string, JsonCall>>;
  /** Bodies declared larger than this take the fallback (which answers 413). */
  readonly maxBodyBytes: number;
  /** Whether the `Authorization` header lets the request in; default: no auth. */
  readonly authorized?: (header: string | undefined) => boolean;
  /** The `request` line per answer and the causes of 500s, as the app logs them. */
  readonly logger: Logger;
  readonly metrics?: ServiceMetrics | undefined;
}

/**
 * A Node request listener answering the memory API's hot JSON routes (`POST /v1/search`,
 * `/v1/recall`, `/v1/remember`, `/v1/remember/batch`) without Hono, its validator middleware or
 * Web `Request`/`Response` objects (0.35-0.5 ms of the ~1.3 ms of service CPU a search took), with
 * everything else left to `fallback` (the service's Hono app). It takes a request only when it
 * is an authorised `POST` to one of those paths with a JSON content type and a declared body
 * within the limit; it then reads the body, parses it with the app's own check
 * ({@link jsonObjectOf}) and hands the object to the route's call, which validates it with the
 * core's schema (the same `parseInput` the app's validator reports with).
 *
 * What it does not answer goes to the fallback with the body already read (`rawBody`, which
 * `@hono/node-server` reads instead of the stream): unreadable JSON, a body that is no object,
 * and any `invalid_input` from the call (validation runs before the call does anything), so
 * every refusal has one implementation. A call failing otherwise (store or embedder down) is
 * answered here with {@link toErrorJson}, as the app's error handler does, rather than run a
 * second time through the fallback. The request keeps its id (`X-Request-Id`, and
 * `currentRequestId()` during the call), its `request` log line and its metrics; the answer
 * goes out in one `end()`.
 *
 * @example
 * const server = createServer(withMemoryFastPath({ calls, maxBodyBytes, logger }, getRequestListener(app.fetch)));
 */
export function withMemoryFastPath(
  options: MemoryFastPathOptions,
  fallback: RequestListener,
): RequestListener {
  const { calls, maxBodyBytes, authorized, logger, metrics } = options;
  return (req, res) => {
    const headers = req.headers;
    const declared = headers["content-length"];
    const path = req.url ?? "";
    const call = Object.hasOwn(calls, path) ? calls[path] : undefined;
    if (
      call === undefined ||
      req.method !== "POST" ||
      declared === undefined ||
      !(Number(declared) <= maxBodyBytes) ||
      !isJsonMediaType(headers["content-type"] ?? "") ||
      (authorized !== undefined && !authorized(headers.authorization))
    ) {
      fallback(req, res);
      return;
    }
    const started = performance.now();
    const id = requestIdFor(headers["x-request-id"] as string | undefined);
    const send = (status: number, extra: Readonly<Record<string, string>>, text: string) => {
      sendJson(res, status, id, extra, text);
      const ms = performance.now() - started;
      logRequest(logger, metrics, { method: "POST", path, route: path, status, ms });
    };
    const fail = (error: unknown) => {
      const failed = toErrorJson(error, withFields(logger, { request_id: id }));
      send(failed.status, failed.headers, failed.text);
    };
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    // A client that goes away mid-body: logged (at debug level) and counted as the app does.
    req.on("error", (error) => runWithRequestId(id, () => fail(error)));
    req.on("end", () => {
      const raw = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      const handOver = (): void => {
        (req as IncomingMessage & { rawBody?: Buffer }).rawBody = raw;
        fallback(req, res);
      };
      let body: object;
      try {
        body = jsonObjectOf(raw.toString("utf8"));
      } catch {
        handOver();
        return;
      }
      void runWithRequestId(id, async () => {
        let text: string;
        try {
          text = JSON.stringify(await call(body));
        } catch (error) {
          // Refused by the core's validation, before the call did anything: the app refuses it.
          if (isAgentServicesError(error, "invalid_input")) {
            handOver();
            return;
          }
          fail(error);
          return;
        }
        send(200, JSON_TYPE, text);
      });
    });
  };
}

const JSON_TYPE: Readonly<Record<string, string>> = { "Content-Type": "application/json" };

/** The answer with its request id, content type and length, in one write of headers and body. */
function sendJson(
  res: ServerResponse,
  status: number,
  id: string,
  headers: Readonly<Record<string, string>>,
  text: string,
): void {
  const list = ["X-Request-Id", id, "Content-Length", String(Buffer.byteLength(text))];
  for (const name in headers) list.push(name, headers[name] as string);
  res.writeHead(status, list);
  res.end(text);
}
