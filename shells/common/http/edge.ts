import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { Hono, MiddlewareHandler } from "hono";

/**
 * Records a `POST` the fast lane answered: path (also the route label: the lane answers exact
 * paths), status, milliseconds, request id, and the caller the lane admitted (`caller-auth`), if
 * any. Positional arguments: it runs once per request.
 */
export type RecordAnswer = (
  path: string,
  status: number,
  ms: number,
  id: string,
  caller?: string,
) => void;

interface Concern<N extends string, L> {
  readonly name: N;
  /** The Hono adapter: global middleware (`app.use("*", …)`). */
  readonly middleware: MiddlewareHandler;
  /** The fast lane adapter (see `laneSteps` in fast-lane.ts). */
  readonly lane: L;
}

/**
 * One cross-cutting concern of a service's HTTP edge, written once, with its two adapters: the
 * Hono middleware and what the fast lane does of it. The kinds are closed: a new kind needs a
 * case in the lane's `laneSteps` (the compiler asks for it), and a middleware mounted on an app
 * without being one of its edge's concerns fails `tests/unit/shells/common/http/edge-parity.test.ts`.
 *
 * - `request-id`: `X-Request-Id` echoed or made, and handed to what answers the request (with
 *   `scoped`, also current during it).
 * - `request-log`: the `request` log line and the request metrics.
 * - `origin-check`: `Host` and `Origin` against the service's allow-list (DNS rebinding, cross-site
 *   calls); the app answers 421/403, the lane hands refusals over.
 * - `bearer-auth`: the token check; the app answers every 401, the lane hands refusals over.
 * - `caller-auth`: who the caller is (memsvc's tenants and keys): the app answers every refusal
 *   and runs the rest of the request as the caller; the lane admits callers it can name without
 *   I/O (a verified-cache hit) and hands the others over.
 * - `rate-limit`: a token bucket per caller: the app answers 429; the lane takes a token for the
 *   callers it admits (marking the request, so the app does not take a second one for a request
 *   the lane hands over) and hands an empty bucket over.
 * - `method-not-allowed`: 405 for a known path; the lane answers only `POST` on its own routes.
 */
export type EdgeConcern =
  | Concern<
      "request-id",
      { readonly idFor: (given: string | undefined) => string; readonly scoped: boolean }
    >
  | Concern<"request-log", { readonly record: RecordAnswer }>
  | Concern<"origin-check", { readonly admits: (headers: IncomingHttpHeaders) => boolean }>
  | Concern<"bearer-auth", { readonly admits: (authorization: string | undefined) => boolean }>
  | Concern<
      "caller-auth",
      { readonly admit: (headers: IncomingHttpHeaders) => LaneAdmission | undefined }
    >
  | Concern<"rate-limit", { readonly take: (caller: string, req: IncomingMessage) => boolean }>
  | Concern<"method-not-allowed", { readonly admits: (method: string) => boolean }>;

/**
 * A caller the lane admitted (see the `caller-auth` concern): its name for per-caller limits.
 * The concern that admitted it knows who it is (memsvc: `principalOfAdmission`); the lane hands
 * it to the route with the request ({@link LaneCall}).
 *
 * @example
 * const admission: LaneAdmission = { caller: "operator" };
 */
export interface LaneAdmission {
  /** Stable per credential (a key id, `operator`): the rate limiter's bucket. */
  readonly caller: string;
}

/**
 * One request as the lane hands it to a route: its id (sent in `X-Request-Id`, logged) and the
 * caller the edge admitted, if any. Carried explicitly, not in async context.
 *
 * @example
 * const call: LaneCall = { id: "trace-42", admission: undefined };
 */
export interface LaneCall {
  readonly id: string;
  readonly admission: LaneAdmission | undefined;
}

/** The names of the concern kinds. */
export type EdgeConcernName = EdgeConcern["name"];

const mounted = new WeakMap<Hono, Edge>();

/**
 * A service's edge: its concerns, in the order the app runs them. The app mounts them with
 * {@link Edge.mount} (routes such as the memory browser's may sit between two of them), the fast
 * lane consumes the same list, so the two cannot drift apart.
 *
 * @example
 * const edge = new Edge([requestIdConcern(), requestLogConcern(logger, metrics)]);
 * edge.mount(app, "request-id", "request-log");
 * const listener = createFastLane({ edge, routes, maxBodyBytes }, toNodeListener(app.fetch));
 */
export class Edge {
  readonly concerns: readonly EdgeConcern[];
  readonly #mounted = new Set<EdgeConcernName>();

  constructor(concerns: readonly (EdgeConcern | undefined)[]) {
    this.concerns = concerns.filter((concern) => concern !== undefined);
  }

  /**
   * Mounts the named concerns on `app` as global middleware, in list order; a name the edge does
   * not have (an optional concern left out, e.g. auth without a token) is skipped.
   */
  mount(app: Hono, ...names: EdgeConcernName[]): void {
    const owner = mounted.get(app);
    if (owner !== undefined && owner !== this) throw new Error("an app has one edge");
    mounted.set(app, this);
    for (const concern of this.concerns) {
      if (!names.includes(concern.name)) continue;
      if (this.#mounted.has(concern.name)) throw new Error(`${concern.name} is mounted twice`);
      this.#mounted.add(concern.name);
      app.use("*", concern.middleware);
    }
  }

  /** The concerns mounted so far, by name. */
  mountedNames(): readonly EdgeConcernName[] {
    return [...this.#mounted];
  }
}

/**
 * The edge an app's concerns were mounted from, if any.
 *
 * @example
 * edgeOf(createMemoryApp(options))?.concerns.map((concern) => concern.name);
 */
export function edgeOf(app: Hono): Edge | undefined {
  return mounted.get(app);
}
