import type { MemoryApi } from "../../../core/memory/memory-api.js";
import { describeCause } from "../http/error-response.js";
import type { Logger } from "../../common/logger.js";

/** A running sweep timer. */
export interface PeriodicSweep {
  /** Stops the timer and resolves once a sweep in progress (if any) has finished. */
  stop(): Promise<void>;
}

/**
 * Deletes expired memories every `intervalMs` (expired memories are already invisible; this only
 * reclaims space). Sweeps never overlap, failures are logged and retried at the next tick, and the
 * timer does not keep the process alive. Replicas of one store take turns (`options.turn`), so a
 * cluster sweeps once per interval, not once per replica.
 *
 * @example
 * const sweep = startPeriodicSweep(runtime.memory, 300_000, logger);
 * // … on shutdown:
 * await sweep.stop();
 */
export function startPeriodicSweep(
  memory: MemoryApi,
  intervalMs: number,
  logger: Logger,
  options: {
    /**
     * Whether this tick is this process's turn (replicas on one store: one of them per
     * interval, see `ClusterLocks.claimTurn`); default: every tick.
     */
    readonly turn?: () => Promise<boolean>;
  } = {},
): PeriodicSweep {
  let running: Promise<void> | undefined;
  const turn = options.turn ?? (() => Promise.resolve(true));
  const tick = () => {
    if (running !== undefined) return;
    running = turn()
      .then((mine) => (mine ? memory.sweepExpired() : 0))
      .then(
        (deleted) => {
          if (deleted > 0) logger.info("expired memories deleted", { deleted });
        },
        (error: unknown) =>
          logger.error("sweep of expired memories failed", { cause: describeCause(error) }),
      )
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
