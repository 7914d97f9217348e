import type { IncomingHttpHeaders } from "node:http";
import type { LaneRoute } from "./fast-lane.js";

/**
 * A lane route whose code loads on its first request (memsvc's `/mcp`: the tools and the SDK's
 * checks cost ~25 MB of RSS, paid only by a service that is used over MCP). Until it is loaded it
 * admits nothing, so those first requests go to the app, which answers them through its own
 * (equally lazy) MCP route; a failed load is tried again on the next request.
 *
 * @example
 * const route = lazyLaneRoute(async () => mcpLaneRoute(await loadCatalog()));
 */
export function lazyLaneRoute(load: () => Promise<LaneRoute>): LaneRoute {
  let loaded: LaneRoute | undefined;
  let loading: Promise<void> | undefined;
  const start = (): void => {
    loading ??= load().then(
      (route) => {
        loaded = route;
      },
      () => {
        loading = undefined;
      },
    );
  };
  return {
    admits(headers: IncomingHttpHeaders): boolean {
      if (loaded !== undefined) return loaded.admits(headers);
      start();
      return false;
    },
    answer: (body) => (loaded as LaneRoute).answer(body),
    failed: (error) => loaded?.failed?.(error),
  };
}
