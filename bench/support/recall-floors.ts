import type { MemoryServiceOptions } from "../../core/memory/index.js";

/**
 * The configured recall floors a bench was asked for (`--floor`, `--relative-floor`: what
 * `recall.min_score` and `recall.relative_floor` set in memsvc.yaml; `--knee-gap`: the service
 * option `recallKneeGap`, `Infinity` for no knee; `--neighbour-lift`: `retrieval.neighbour_lift`;
 * `--context-neighbours`: `recall.context_neighbours`), as service options; none given keeps the
 * defaults. A request's `--min-score` replaces both, so sweep these instead to
 * compare default floors.
 *
 * @example
 * configuredFloors({ floor: "0.02", "relative-floor": "0.4" });
 * // { recallMinScore: 0.02, recallRelativeFloor: 0.4 }
 */
export function configuredFloors(values: {
  readonly floor?: string | undefined;
  readonly "relative-floor"?: string | undefined;
  readonly "knee-gap"?: string | undefined;
  readonly "neighbour-lift"?: string | undefined;
  readonly "context-neighbours"?: string | undefined;
}): Partial<MemoryServiceOptions> {
  return {
    ...(values["context-neighbours"] === undefined
      ? {}
      : { recallContextNeighbours: Number(values["context-neighbours"]) }),
    ...(values["neighbour-lift"] === undefined
      ? {}
      : { neighbourLift: Number(values["neighbour-lift"]) }),
    ...(values["knee-gap"] === undefined ? {} : { recallKneeGap: Number(values["knee-gap"]) }),
    ...(values.floor === undefined ? {} : { recallMinScore: Number(values.floor) }),
    ...(values["relative-floor"] === undefined
      ? {}
      : { recallRelativeFloor: Number(values["relative-floor"]) }),
  };
}
