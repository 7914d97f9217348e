import type { Server } from "node:http";

/** How long both services give in-flight requests on SIGINT/SIGTERM: 10 s. */
export const DRAIN_DEADLINE_MS = 10_000;

/**
 * Stops an HTTP server gracefully: it accepts no new connection, closes keep-alive sockets as soon
 * as they are idle (a socket busy now is closed once its request is answered), and gives in-flight
 * requests `deadlineMs` to finish, after which the remaining connections are cut. Resolves once
 * the server is closed: `true` when everything finished in time, `false` when connections had to
 * be cut.
 *
 * @example
 * process.once("SIGTERM", async () => {
 *   if (!(await drainServer(server))) logger.warn("drain deadline passed");
 *   process.exit(0);
 * });
 */
export async function drainServer(
  server: Server,
  deadlineMs: number = DRAIN_DEADLINE_MS,
): Promise<boolean> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), 50);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), deadlineMs);
  });
  try {
    const drained = await Promise.race([closed.then(() => true as const), deadline]);
    if (!drained) {
      server.closeAllConnections();
      await closed;
    }
    return drained;
  } finally {
    clearInterval(sweep);
    clearTimeout(timer);
  }
}
