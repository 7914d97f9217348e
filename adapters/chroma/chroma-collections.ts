import { ChromaClient } from "chromadb";
import { AgentServicesError } from "../../core/errors.js";

/** Options of {@link replaceChromaCollection}. */
export interface ReplaceChromaCollectionOptions {
  /** Base URL of the Chroma server. */
  readonly url: string;
  /** The collection to replace (it must exist). */
  readonly name: string;
  /** The collection that takes its name (it must exist). */
  readonly replacement: string;
  /** Extra HTTP headers, e.g. `{ "x-chroma-token": "…" }`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Gives `replacement` the name of collection `name` and deletes the old one: the last step of
 * `memsvc reindex`, after every record was copied into `replacement`. The old collection is
 * renamed out of the way first, so the name is never missing for longer than one rename, and a
 * failure before the delete leaves the old data under `<name>-replaced-<time>`.
 *
 * @example
 * await replaceChromaCollection({ url, name: "memories", replacement: "memories-reindex-1" });
 */
export async function replaceChromaCollection(
  options: ReplaceChromaCollectionOptions,
): Promise<void> {
  const url = new URL(options.url);
  const ssl = url.protocol === "https:";
  const client = new ChromaClient({
    host: url.hostname,
    port: url.port === "" ? (ssl ? 443 : 80) : Number(url.port),
    ssl,
    ...(options.headers === undefined ? {} : { headers: { ...options.headers } }),
  });
  try {
    const aside = `${options.name}-replaced-${Date.now()}`;
    const old = await client.getCollection({ name: options.name });
    const next = await client.getCollection({ name: options.replacement });
    await old.modify({ name: aside });
    await next.modify({ name: options.name });
    await client.deleteCollection({ name: aside });
  } catch (cause) {
    throw new AgentServicesError(
      "store_unavailable",
      `vector store unavailable: could not replace collection "${options.name}" by "${options.replacement}"`,
      { cause },
    );
  }
}
