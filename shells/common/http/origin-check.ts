import type { IncomingHttpHeaders } from "node:http";
import { isIP } from "node:net";
import type { MiddlewareHandler } from "hono";
import type { EdgeConcern } from "./edge.js";

/**
 * Options of {@link OriginPolicy}.
 *
 * @example
 * const options: OriginPolicyOptions = { listenHost: "127.0.0.1", port: 8080, allowedHosts: ["memsvc"] };
 */
export interface OriginPolicyOptions {
  /** The host the server binds (undefined: every interface); its name is served. */
  readonly listenHost?: string | undefined;
  /** The port the server binds; 0 until bound (see {@link OriginPolicy.boundTo}). */
  readonly port?: number;
  /** More names the service is reached by (`Host` without port); `*` serves any Host. */
  readonly allowedHosts?: readonly string[];
  /** More browser origins allowed to call (`scheme://host[:port]`); `*` allows any Origin. */
  readonly allowedOrigins?: readonly string[];
}

/** Why a request is refused: a foreign Host (421) or a foreign Origin (403). */
export interface OriginRefusal {
  readonly status: 403 | 421;
  readonly message: string;
}

/** Host header values remembered as served (a bounded memo: the lane checks each request). */
const MEMO_SIZE = 64;

/**
 * Which `Host` and `Origin` headers a service answers: the defence against DNS rebinding (a web
 * page whose name is made to resolve to 127.0.0.1, reading and writing a local service through
 * the user's browser) and against cross-site calls, as the MCP transport spec requires ("servers
 * MUST validate the Origin header").
 *
 * - `Host` is served when it names an IP address (a DNS rebinding always uses a name), a loopback
 *   name (`localhost`, `*.localhost`), the listen host, or one of `allowedHosts`; its port is not
 *   compared (a port forward changes it). A request without `Host` (HTTP/1.0, no browser) passes.
 * - `Origin` is allowed when absent (curl, SDK clients, same-origin `GET`s), when it is the
 *   request's own served `Host` (same origin: the memory browser), when it is one of the listen
 *   address's own origins (`http(s)://localhost|127.0.0.1|[::1]|<listen host>:<port>`), or one
 *   of `allowedOrigins`. `Origin: null` (sandboxed frames, files) is refused.
 *
 * @example
 * const policy = new OriginPolicy({ listenHost: "127.0.0.1", port: 8080 });
 * policy.refusal("evil.example:8080", undefined); // { status: 421, message: "host 'evil.example' is not served here; …" }
 * policy.refusal("127.0.0.1:8080", "http://localhost:8080"); // undefined
 */
export class OriginPolicy {
  readonly #hosts: ReadonlySet<string>;
  readonly #anyHost: boolean;
  readonly #origins: Set<string>;
  readonly #anyOrigin: boolean;
  readonly #listenHost: string | undefined;
  readonly #servedHosts = new Set<string>();
  #port: number;

  constructor(options: OriginPolicyOptions = {}) {
    const hosts = (options.allowedHosts ?? []).map((host) => bareHost(host.trim()));
    this.#anyHost = hosts.includes("*");
    this.#listenHost = options.listenHost === undefined ? undefined : bareHost(options.listenHost);
    this.#hosts = new Set(hosts.filter((host) => host !== "" && host !== "*"));
    const origins = (options.allowedOrigins ?? []).map((origin) => origin.trim());
    this.#anyOrigin = origins.includes("*");
    this.#origins = new Set(
      origins.filter((origin) => origin !== "" && origin !== "*").map(normalOrigin),
    );
    this.#port = options.port ?? 0;
    this.#addListenOrigins();
  }

  /**
   * Tells the policy the port the server bound (after listening on port 0), so the listen
   * address's own origins carry it.
   *
   * @example
   * server.listen(0, "127.0.0.1", () => policy.boundTo((server.address() as AddressInfo).port));
   */
  boundTo(port: number): void {
    this.#port = port;
    this.#addListenOrigins();
  }

  /**
   * Why a request with these `Host` and `Origin` headers is refused, or undefined when it is
   * served.
   *
   * @example
   * policy.refusal("localhost:8080", "https://evil.example"); // { status: 403, … }
   */
  refusal(host: string | undefined, origin: string | undefined): OriginRefusal | undefined {
    if (host !== undefined && !this.servesHost(host)) {
      return {
        status: 421,
        message: `host '${bareHost(host)}' is not served here; allowed: IP addresses, localhost${this.#listenHost === undefined ? "" : `, ${this.#listenHost}`}${this.#hosts.size === 0 ? "" : `, ${[...this.#hosts].join(", ")}`} (add names with the allowed-hosts setting)`,
      };
    }
    if (origin === undefined || this.allowsOrigin(origin, host)) return undefined;
    return {
      status: 403,
      message: `origin '${origin}' is not allowed to call this service (add it with the allowed-origins setting)`,
    };
  }

  /** Whether a request with these headers is served (the fast lane's test: no message built). */
  admits(host: string | undefined, origin: string | undefined): boolean {
    if (host !== undefined && !this.servesHost(host)) return false;
    return origin === undefined || this.allowsOrigin(origin, host);
  }

  /** Whether a `Host` header value names this service. */
  servesHost(host: string): boolean {
    if (this.#anyHost || this.#servedHosts.has(host)) return true;
    const name = bareHost(host);
    const served =
      name === "localhost" ||
      name.endsWith(".localhost") ||
      isIP(name) !== 0 ||
      name === this.#listenHost ||
      this.#hosts.has(name);
    if (served && this.#servedHosts.size < MEMO_SIZE) this.#servedHosts.add(host);
    return served;
  }

  /** Whether an `Origin` header value may call, on a request whose `Host` is served. */
  allowsOrigin(origin: string, host: string | undefined): boolean {
    if (this.#anyOrigin) return true;
    const normal = normalOrigin(origin);
    if (this.#origins.has(normal)) return true;
    if (host === undefined) return false;
    const authority = /^https?:\/\/(.+)$/.exec(normal)?.[1];
    return authority !== undefined && authority === normalAuthority(host, normal);
  }

  #addListenOrigins(): void {
    if (this.#port === 0) return;
    const names = ["localhost", "127.0.0.1", "[::1]"];
    if (this.#listenHost !== undefined && isUnspecified(this.#listenHost) === false) {
      names.push(this.#listenHost.includes(":") ? `[${this.#listenHost}]` : this.#listenHost);
    }
    for (const name of names) {
      this.#origins.add(`http://${name}:${this.#port}`);
      this.#origins.add(`https://${name}:${this.#port}`);
    }
  }
}

/**
 * The origin check as an edge concern, to mount before everything but the request id and log:
 * Hono middleware answering 421 or 403 with the service's own error body, and for the lane the
 * same test, whose refusals the lane leaves to the app.
 *
 * @example
 * const concern = originCheckConcern(new OriginPolicy({ listenHost, port }), (_s, message) => ({ error: message }));
 */
export function originCheckConcern(
  policy: OriginPolicy,
  body: (status: number, message: string) => unknown,
): EdgeConcern {
  const middleware: MiddlewareHandler = async (c, next) => {
    const refusal = policy.refusal(hostOf(c.req.header("host"), c.req.url), c.req.header("origin"));
    if (refusal === undefined) {
      await next();
      return;
    }
    return new Response(JSON.stringify(body(refusal.status, refusal.message)), {
      status: refusal.status,
      headers: { "Content-Type": "application/json" },
    });
  };
  return {
    name: "origin-check",
    middleware,
    lane: {
      admits: (headers: IncomingHttpHeaders) => policy.admits(headers.host, headers.origin),
    },
  };
}

/** The Host of a Hono request: its header (Node), else its URL's (`app.request()` has none). */
function hostOf(header: string | undefined, url: string): string | undefined {
  if (header !== undefined) return header;
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

/** `Host` or listen host without port, brackets or trailing dot, lower case. */
function bareHost(host: string): string {
  let name = host.toLowerCase();
  if (name.startsWith("[")) {
    const end = name.indexOf("]");
    name = end === -1 ? name.slice(1) : name.slice(1, end);
  } else {
    const colon = name.indexOf(":");
    // One colon: host:port; more: a bare IPv6 address (a listen host, not a Host header).
    if (colon !== -1 && name.indexOf(":", colon + 1) === -1) name = name.slice(0, colon);
  }
  return name.endsWith(".") ? name.slice(0, -1) : name;
}

/** An origin as browsers send it: lower-case scheme and host, default port dropped. */
function normalOrigin(origin: string): string {
  try {
    const url = new URL(origin);
    if (url.protocol !== "http:" && url.protocol !== "https:") return origin.toLowerCase();
    return `${url.protocol}//${url.host}`;
  } catch {
    return origin.toLowerCase();
  }
}

/** The `Host` as the authority an origin of that scheme would carry (default port dropped). */
function normalAuthority(host: string, origin: string): string | undefined {
  const scheme = origin.startsWith("https:") ? "https:" : "http:";
  try {
    return new URL(`${scheme}//${host}`).host;
  } catch {
    return undefined;
  }
}

function isUnspecified(host: string): boolean {
  return host === "0.0.0.0" || host === "::" || host === "[::]";
}
