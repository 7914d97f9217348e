import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { timingSafeEqual } from "node:crypto";
import type { OriginPolicy } from "../../common/http/origin-check.js";

/** Seconds a client is told to wait before it asks a starting service again. */
export const STARTING_RETRY_AFTER_S = 5;

/** Options of {@link createStartingListener}. */
export interface StartingListenerOptions {
  /** What the start is doing now, e.g. `replaying the write journal: 12,000 of 50,000 ids`. */
  readonly status: () => string;
  /** When set, `GET /readyz` needs `Authorization: Bearer <token>` (as once started). */
  readonly authToken?: string | undefined;
  /**
   * The service's Host and Origin checks, the same policy the started service applies: a foreign
   * Host gets 421 and a foreign Origin 403 on every answer, `/healthz` included (issue 26).
   */
  readonly origins?: OriginPolicy | undefined;
}

/**
 * What `memsvc serve` answers between binding its port and having loaded every memory (store,
 * then what a crash left in the write journal; issue 26): `GET /healthz` 200 (the process is
 * alive), `GET /readyz` 503 with what the start is doing, every other request 503 with
 * `Retry-After`. Nothing is read or written before the engine holds every acknowledged write,
 * so no answer can miss one and no write is acknowledged twice over. With `origins`, a foreign
 * Host or Origin is refused first, as it is once started.
 *
 * @example
 * let handle = createStartingListener({ status: () => "loading memories", origins });
 * const server = createServer((req, res) => handle(req, res));
 * // … once built:
 * handle = createMemoryListener({ memory, … });
 */
export function createStartingListener(options: StartingListenerOptions): RequestListener {
  return (req, res) => {
    // The body is not read: drain it so a keep-alive connection stays usable.
    req.resume();
    const refusal = options.origins?.refusal(req.headers.host, req.headers.origin);
    if (refusal !== undefined) return reply(res, refusal.status, { error: refusal.message });
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === "/healthz") {
      return reply(res, 200, { status: "ok" });
    }
    if (req.method === "GET" && path === "/readyz") {
      if (!authorized(req, options.authToken)) {
        return reply(res, 401, { error: "missing or invalid bearer token" });
      }
      return reply(res, 503, { error: `starting: ${options.status()}` });
    }
    res.setHeader("retry-after", String(STARTING_RETRY_AFTER_S));
    return reply(res, 503, {
      error: `memsvc is starting (${options.status()}); retry in a few seconds`,
    });
  };
}

function authorized(req: IncomingMessage, token: string | undefined): boolean {
  if (token === undefined) return true;
  const given = Buffer.from(req.headers.authorization ?? "");
  const wanted = Buffer.from(`Bearer ${token}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

function reply(res: ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
  });
  res.end(text);
}
