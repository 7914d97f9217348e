/**
 * Entry module of a worker thread of {@link UseLiteEmbedder}: loads the sentence encoder from the
 * asset named in `workerData.path`, answers `ready` (or `fatal` when the asset is unusable), then
 * embeds each `{ id, texts }` it receives into one transferred `Float64Array` of
 * `texts.length × 512` numbers.
 */
import { readFileSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { decodeUseLite } from "./use-lite-asset.js";
import { USE_LITE_DIMENSIONS, UseLiteEncoder } from "./use-lite-encoder.js";
import type { UseLiteReply, UseLiteRequest } from "./use-lite-embedder.js";

const port = parentPort;
if (port !== null) {
  const { path } = workerData as { path: string };
  let encoder: UseLiteEncoder | undefined;
  try {
    encoder = new UseLiteEncoder(decodeUseLite(readFileSync(path)));
    port.postMessage({ type: "ready" } satisfies UseLiteReply);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    port.postMessage({ type: "fatal", message } satisfies UseLiteReply);
  }
  const ready = encoder;
  port.on("message", ({ id, texts }: UseLiteRequest) => {
    if (ready === undefined) return;
    try {
      const vectors = new Float64Array(texts.length * USE_LITE_DIMENSIONS);
      texts.forEach((text, i) => vectors.set(ready.embed(text), i * USE_LITE_DIMENSIONS));
      port.postMessage({ type: "vectors", id, vectors } satisfies UseLiteReply, [vectors.buffer]);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      port.postMessage({ type: "failed", id, message } satisfies UseLiteReply);
    }
  });
}
