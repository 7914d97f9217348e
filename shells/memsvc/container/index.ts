/**
 * The memsvc composition root. tsyringe lives in one module, build-memsvc.ts, and is not
 * exported: what leaves it is built services.
 *
 * @example
 * import "reflect-metadata";
 * import { buildMemsvc } from "./shells/memsvc/container/index.js";
 * const runtime = await buildMemsvc(config, logger);
 */
export { buildMemsvc } from "./build-memsvc.js";
export type { MemsvcRuntime } from "./build-memsvc.js";
export { createReadinessCheck } from "./readiness-check.js";
export type { ReadinessCheckOptions } from "./readiness-check.js";
export { startPeriodicSweep } from "./periodic-sweep.js";
export type { PeriodicSweep } from "./periodic-sweep.js";
