import type {
  IncomingHttpHeaders,
  IncomingMessage,
  RequestListener,
  ServerResponse,
} from "node:http";
import { discardNodeBody, readNodeBody, type BodySink } from "./body-reader.js";
import type { Edge, EdgeConcernName, LaneAdmission, LaneCall, RecordAnswer } from "./edge.js";
import { handOverBody } from "./framework-internals.js";
import { NOSNIFF_NAME, NOSNIFF_VALUE } from "./nosniff.js";
import { runWithRequestId } from "./request-id.js";

/** An answer other than a 200 JSON text: status, headers (the content type among them), body. */
export interface LaneAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
}

/**
 * What a route makes of a body: a JSON text (200), another answer, or undefined to hand the
 * request, with its body, over to the app (which then answers it, refusals included).
 */
export type LaneResult = string | LaneAnswer | undefined;

/**
 * A route the fast lane answers: `POST` to one exact path, JSON in and out.
 *
 * @example
 * const route: LaneRoute = { admits: () => true, answer: (body, call) => JSON.stringify(call.id) };
 */
export interface LaneRoute {
  /** The route's own admission (content type, protocol headers); false hands the request over. */
  admits(headers: IncomingHttpHeaders): boolean;
  /**
   * The answer to a body of the request `call` (its id and admitted caller). The promise never
   * rejects.
   */
  answer(body: Buffer, call: LaneCall): LaneResult | Promise<LaneResult>;
  /** The answer to a client that went away mid-body (nobody reads it; it is logged); or none. */
  failed?(error: Error, call: LaneCall): LaneAnswer | undefined;
}

/**
 * Options of {@link createFastLane}.
 *
 * @example
 * const options: FastLaneOptions = { edge, routes: new Map([["/mcp", route]]), maxBodyBytes };
 */
export interface FastLaneOptions {
  /** The service's edge: the lane applies each of its concerns (see {@link laneSteps}). */
  readonly edge: Edge;
  /** The routes answered here, by exact path (no query string). */
  readonly routes: ReadonlyMap<string, LaneRoute>;
  /** Bodies over this go to the app, which answers 413. */
  readonly maxBodyBytes: number;
}

/** What the lane does of each edge concern, and which concerns it consumed. */
export interface LaneSteps {
  readonly idFor: (given: string | undefined) => string;
  /** Whether the route's answer runs with the id current (`runWithRequestId`). */
  readonly scoped: boolean;
  readonly record: RecordAnswer | undefined;
  readonly authorized: ((authorization: string | undefined) => boolean) | undefined;
  readonly admit: ((headers: IncomingHttpHeaders) => LaneAdmission | undefined) | undefined;
  readonly take: ((caller: string, req: IncomingMessage) => boolean) | undefined;
  readonly originAllowed: ((headers: IncomingHttpHeaders) => boolean) | undefined;
  readonly methodAllowed: (method: string) => boolean;
  readonly consumed: readonly EdgeConcernName[];
}

const POST_ONLY = (method: string) => method === "POST";

/**
 * The lane's side of an edge's concerns. Every kind has a case (the `never` check makes the
 * compiler ask for one), and the edge parity test checks that every concern was consumed.
 *
 * @example
 * laneSteps(edge).consumed; // ["request-id", "request-log", "bearer-auth"]
 */
export function laneSteps(edge: Edge): LaneSteps {
  let idFor: LaneSteps["idFor"] | undefined;
  let scoped = false;
  let record: RecordAnswer | undefined;
  let authorized: LaneSteps["authorized"];
  let admit: LaneSteps["admit"];
  let take: LaneSteps["take"];
  let originAllowed: LaneSteps["originAllowed"];
  let methodAllowed: LaneSteps["methodAllowed"] = POST_ONLY;
  const consumed: EdgeConcernName[] = [];
  for (const concern of edge.concerns) {
    switch (concern.name) {
      case "request-id":
        idFor = concern.lane.idFor;
        scoped = concern.lane.scoped;
        break;
      case "request-log":
        record = concern.lane.record;
        break;
      case "bearer-auth":
        authorized = concern.lane.admits;
        break;
      case "caller-auth":
        admit = concern.lane.admit;
        break;
      case "rate-limit":
        take = concern.lane.take;
        break;
      case "origin-check":
        originAllowed = concern.lane.admits;
        break;
      case "method-not-allowed": {
        const admits = concern.lane.admits;
        methodAllowed = (method) => method === "POST" && admits(method);
        break;
      }
      default: {
        const unknown: never = concern;
        throw new Error(`no lane step for ${String((unknown as { name: unknown }).name)}`);
      }
    }
    consumed.push(concern.name);
  }
  if (idFor === undefined) throw new Error("the lane needs the request-id concern");
  if (take !== undefined && admit === undefined) throw new Error("rate-limit needs caller-auth");
  return { idFor, scoped, record, authorized, admit, take, originAllowed, methodAllowed, consumed };
}

/**
 * The one fast lane of both services: a Node request listener answering the hot `POST` routes
 * (the memory API's JSON calls, MCP `tools/call`, `tools/list` and `ping`) without Hono or Web
 * `Request`/`Response` objects, everything else left to `fallback` (the service's Hono app). It
 * takes a request only when the app would let it through to the same route: the method, the
 * token (the edge's `bearer-auth`) or the caller and its rate (`caller-auth`, `rate-limit`: the
 * route is then handed the caller), the `Host` and `Origin` (its `origin-check`), the declared size, and the route's own admission (content
 * type, protocol headers). It reads the body (declared or chunked, {@link readNodeBody}), asks
 * the route for the answer, handing it the request's id and caller ({@link LaneCall}), and sends it in one `end()` with
 * `X-Request-Id`, then records it as the edge's `request-log` does. Whatever it does not answer
 * goes to the app with the body it read, so every refusal has one implementation; a body over
 * the limit goes with a mark on which the app answers 413 without reading.
 *
 * Per request: one object, the body reader's three listeners and no async hop of its own.
 *
 * @example
 * const server = createServer(createFastLane({ edge, routes, maxBodyBytes }, toNodeListener(app.fetch)));
 */
export function createFastLane(
  options: FastLaneOptions,
  fallback: RequestListener,
): RequestListener {
  const { routes, maxBodyBytes } = options;
  const steps = laneSteps(options.edge);
  const { authorized, admit, take, originAllowed, methodAllowed } = steps;
  return (req, res) => {
    const route = methodAllowed(req.method ?? "") ? routes.get(req.url ?? "") : undefined;
    if (route === undefined) {
      fallback(req, res);
      return;
    }
    const headers = req.headers;
    const declared = headers["content-length"];
    if (
      (originAllowed !== undefined && !originAllowed(headers)) ||
      (authorized !== undefined && !authorized(headers.authorization)) ||
      !route.admits(headers)
    ) {
      fallback(req, res);
      return;
    }
    if (declared !== undefined && !(Number(declared) <= maxBodyBytes)) {
      // The app answers 413 unread; a client still sending first gets to send (bounded).
      discardNodeBody(req, () => fallback(req, res));
      return;
    }
    // Last: the caller (a cached key, no I/O), then its token, taken only for a request the lane
    // reads (one the app answers after this takes none twice: the mark on `req`).
    const admission = admit?.(headers);
    if (
      admit !== undefined &&
      (admission === undefined || (take !== undefined && !take(admission.caller, req)))
    ) {
      fallback(req, res);
      return;
    }
    readNodeBody(req, maxBodyBytes, new Exchange(req, res, route, steps, fallback, admission));
  };
}

/** One request through the lane, from its body to its answer (and the route's {@link LaneCall}). */
class Exchange implements BodySink, LaneCall {
  readonly #started = performance.now();
  readonly id: string;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly route: LaneRoute,
    readonly steps: LaneSteps,
    readonly fallback: RequestListener,
    readonly admission: LaneAdmission | undefined,
  ) {
    // Node joins repeated headers other than Set-Cookie into one string, as fetch's Headers do.
    this.id = steps.idFor(req.headers["x-request-id"] as string | undefined);
  }

  body(body: Buffer | undefined): void {
    if (body === undefined) {
      this.fallback(this.req, this.res);
      return;
    }
    const result = this.steps.scoped
      ? runWithRequestId(this.id, laneAnswerOf, this.route, body, this)
      : this.route.answer(body, this);
    if (result instanceof Promise) void result.then((settled) => this.finish(settled, body));
    else this.finish(result, body);
  }

  failed(error: Error): void {
    const answer = this.steps.scoped
      ? runWithRequestId(this.id, failureOf, this.route, error, this)
      : this.route.failed?.(error, this);
    if (answer !== undefined) this.send(answer.status, answer.headers, answer.text);
  }

  finish(result: LaneResult, body: Buffer): void {
    if (result === undefined) {
      handOverBody(this.req, body);
      this.fallback(this.req, this.res);
    } else if (typeof result === "string") this.send(200, undefined, result);
    else this.send(result.status, result.headers, result.text);
  }

  /** The answer in one write of headers and body, then its log line and metrics. */
  send(status: number, headers: Readonly<Record<string, string>> | undefined, text: string): void {
    const length = String(Buffer.byteLength(text));
    const list = ["X-Request-Id", this.id, NOSNIFF_NAME, NOSNIFF_VALUE, "Content-Length", length];
    if (headers === undefined) list.push("Content-Type", "application/json");
    else for (const name in headers) list.push(name, headers[name] as string);
    this.res.writeHead(status, list);
    this.res.end(text);
    const ms = performance.now() - this.#started;
    this.steps.record?.(this.req.url ?? "", status, ms, this.id, this.admission?.caller);
  }
}

/**
 * `route`'s answer to `body`, as a function of its arguments (no closure per request) for
 * `runWithRequestId`, which the front ends with a scoped request id run it under.
 *
 * @example
 * runWithRequestId(id, laneAnswerOf, route, body, { id, admission: undefined });
 */
export function laneAnswerOf(
  route: LaneRoute,
  body: Buffer,
  call: LaneCall,
): LaneResult | Promise<LaneResult> {
  return route.answer(body, call);
}

function failureOf(route: LaneRoute, error: Error, call: LaneCall): LaneAnswer | undefined {
  return route.failed?.(error, call);
}
