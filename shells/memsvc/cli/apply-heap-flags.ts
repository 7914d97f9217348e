/**
 * Side-effect module: sets {@link memsvcHeapFlags} on this process. Imported by the memsvc entry
 * point before its other modules, so the young generation has not grown yet when the flags land.
 *
 * @example
 * import "./apply-heap-flags.js";
 */
import { setFlagsFromString } from "node:v8";
import { largeStoreHeapFlag, memsvcHeapFlags } from "./heap-flags.js";

for (const flag of memsvcHeapFlags(process.execArgv, process.env["NODE_OPTIONS"])) {
  setFlagsFromString(flag);
}

/**
 * Watches the store's size (now and every 30 s, on an unref'd timer) and lets the young
 * generation grow once it is large ({@link largeStoreHeapFlag}); calls `onLarge` once then.
 *
 * @example
 * const watch = watchStoreSize(() => runtime.memory.loadedMemories, (n) => logger.info("…", { n }));
 * // on shutdown: watch.stop();
 */
export function watchStoreSize(
  memories: () => number,
  onLarge: (memories: number) => void,
): { stop(): void } {
  const check = (): boolean => {
    const count = memories();
    const flag = largeStoreHeapFlag(count, process.execArgv, process.env["NODE_OPTIONS"]);
    if (flag === undefined) return false;
    setFlagsFromString(flag);
    onLarge(count);
    return true;
  };
  if (check()) return { stop: () => undefined };
  const timer = setInterval(() => {
    if (check()) clearInterval(timer);
  }, 30_000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
