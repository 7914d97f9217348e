/** Where the HTTP server binds: a host (undefined = every interface) and a port (0 = any free one). */
export interface ListenAddress {
  /** Undefined binds every interface (the Go-style `:PORT` form). */
  readonly host: string | undefined;
  readonly port: number;
}

/**
 * Parses `:PORT` (every interface), `HOST:PORT` or `[IPv6]:PORT`. Returns a message naming what
 * was expected instead of throwing, so the config loader can report it with every other problem.
 *
 * @example
 * parseListenAddress(":8080"); // { ok: true, value: { host: undefined, port: 8080 } }
 * parseListenAddress("127.0.0.1:0"); // { ok: true, value: { host: "127.0.0.1", port: 0 } }
 * parseListenAddress("8080"); // { ok: false, message: "expected :PORT or HOST:PORT, got \"8080\"" }
 */
export function parseListenAddress(
  text: string,
): { ok: true; value: ListenAddress } | { ok: false; message: string } {
  const expected = `expected :PORT or HOST:PORT with a port 0-65535, got ${JSON.stringify(text)}`;
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]\s]*)):(\d{1,5})$/.exec(text.trim());
  if (!match) return { ok: false, message: expected };
  const port = Number(match[3]);
  if (!Number.isInteger(port) || port > 65_535) return { ok: false, message: expected };
  const host = match[1] ?? match[2];
  return { ok: true, value: { host: host === "" ? undefined : host, port } };
}

/**
 * True when the host only accepts connections from this machine (`localhost`, `127.0.0.0/8`,
 * `::1`). Undefined (every interface) is not loopback.
 *
 * @example
 * isLoopbackHost("127.0.0.1"); // true
 * isLoopbackHost(undefined); // false
 */
export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  const h = host.toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Formats a bound address for logs and for clients: `127.0.0.1:8080`, `[::1]:8080`.
 *
 * @example
 * formatHostPort("::1", 8080); // "[::1]:8080"
 */
export function formatHostPort(host: string, port: number): string {
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}
