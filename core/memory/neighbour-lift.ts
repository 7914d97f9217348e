import { DEFAULT_NEIGHBOUR_LIFT } from "../retrieval/hybrid-index.js";
import type { MemoryServiceOptions } from "./model/types.js";

/**
 * The store-neighbour lift a service's own index applies: its `neighbourLift` option, else the
 * index's default ({@link DEFAULT_NEIGHBOUR_LIFT}, 0.3). Kept out of `model/`, which does not
 * import retrieval.
 *
 * @example
 * neighbourLiftOf(DEFAULT_MEMORY_SERVICE_OPTIONS); // 0.3
 */
export function neighbourLiftOf(options: MemoryServiceOptions): number {
  return options.neighbourLift ?? DEFAULT_NEIGHBOUR_LIFT;
}
