// Worker-thread entry for the budget tests: Node 20 does not pass a TypeScript loader on to
// worker threads, so this registers tsx in the thread, then loads the TypeScript worker.
import { register } from "tsx/esm/api";

register();
await import("./slow-sql-worker.ts");
