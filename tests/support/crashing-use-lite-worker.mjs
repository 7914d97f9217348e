// Worker-thread entry for the UseLiteEmbedder failure test: it says it is ready, then dies on
// the first text it is asked to embed, as a thread hit by a crash would.
import { parentPort } from "node:worker_threads";

parentPort?.postMessage({ type: "ready" });
parentPort?.on("message", () => process.exit(3));
