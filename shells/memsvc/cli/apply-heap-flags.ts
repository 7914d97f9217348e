/**
 * Side-effect module: sets {@link memsvcHeapFlags} on this process. Imported by the memsvc entry
 * point before its other modules, so the young generation has not grown yet when the flags land.
 *
 * @example
 * import "./apply-heap-flags.js";
 */
import { setFlagsFromString } from "node:v8";
import { memsvcHeapFlags } from "./heap-flags.js";

for (const flag of memsvcHeapFlags(process.execArgv, process.env["NODE_OPTIONS"])) {
  setFlagsFromString(flag);
}
