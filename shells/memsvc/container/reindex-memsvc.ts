import { join } from "node:path";
import {
  ChromaVectorStore,
  replaceChromaCollection,
  startEmbeddedChroma,
  type EmbeddedChroma,
} from "../../../adapters/chroma/index.js";
import { AgentServicesError } from "../../../core/errors.js";
import { reindexStore } from "../../../core/memory/index.js";
import type { MemsvcConfig } from "../config/memsvc-config.js";
import type { Logger } from "../../common/logger.js";
import { makeEmbedder } from "./make-embedder.js";
import { journaledStore } from "./journaled-store.js";
import { lockDataDirectory, type DataDirectoryLock } from "./data-directory-lock.js";
import { connectPostgres } from "../../../adapters/postgres/index.js";
import { describePostgresUrl } from "./open-store.js";

/** What `memsvc reindex` did. */
export interface ReindexSummary {
  readonly collection: string;
  readonly memories: number;
  readonly embedder: string;
  readonly ms: number;
}

/**
 * `memsvc reindex`: re-embeds every memory of the configured collection with the configured
 * embedder, for when the embedder changed (a store bound to another embedder refuses to start).
 * The memories are copied with their metadata into a new collection bound to the new embedder
 * (a collection's vector length is fixed once it holds a vector), which then takes the old one's
 * name; the old one is deleted only after that. Embedded Chroma: takes the data directory's lock
 * first, so it never runs beside a service on the same data.
 *
 * @example
 * const { memories } = await reindexMemsvc(config, logger);
 */
export async function reindexMemsvc(config: MemsvcConfig, logger: Logger): Promise<ReindexSummary> {
  const started = performance.now();
  const store = config.vectorStore;
  if (store.kind === "postgres") return reindexPostgres(store.url, store.poolSize, config, logger);
  let lock: DataDirectoryLock | undefined;
  let chroma: EmbeddedChroma | undefined;
  try {
    let url: string;
    if (store.kind === "chroma-url") url = store.url;
    else {
      lock = lockDataDirectory(store.path);
      chroma = await startEmbeddedChroma({
        path: store.path,
        logFile: join(store.path, "chroma.log"),
      });
      url = chroma.url;
    }
    const embedder = makeEmbedder(config.embedder);
    const replacement = `${store.collection}-reindex-${Date.now()}`;
    // Embedded: what a crash left in the write journal reaches Chroma before it is copied.
    const chromaSource = new ChromaVectorStore({ url, collection: store.collection });
    const source =
      store.kind === "chroma-url" ? chromaSource : journaledStore(chromaSource, store.path, logger);
    const target = new ChromaVectorStore({ url, collection: replacement });
    let lastLogged = 0;
    const memories = await reindexStore({
      source,
      target,
      embedder,
      onProgress: ({ copied, total }) => {
        if (performance.now() - lastLogged < 2_000 && copied < total) return;
        lastLogged = performance.now();
        logger.info("reindexing", { copied, total });
      },
    });
    await Promise.all([source.close(), target.close()]);
    await replaceChromaCollection({ url, name: store.collection, replacement });
    return {
      collection: store.collection,
      memories,
      embedder: `${embedder.id} (${embedder.dimensions} dimensions)`,
      ms: Math.round(performance.now() - started),
    };
  } finally {
    await chroma?.stop();
    lock?.release();
  }
}

/**
 * PostgreSQL: every record re-embedded where it is (replicas must be stopped meanwhile: they
 * would rank new vectors against old ones). A failure half-way is finished by running it again.
 */
async function reindexPostgres(
  url: string,
  poolSize: number,
  config: MemsvcConfig,
  logger: Logger,
): Promise<ReindexSummary> {
  const started = performance.now();
  const postgres = await connectPostgres(url, { poolSize, lockPoolSize: poolSize });
  try {
    await postgres.migrate();
    // A running replica would go on serving (and writing) vectors of the old embedder.
    const running = await postgres.listeners();
    if (running > 0) {
      throw new AgentServicesError(
        "config_invalid",
        `${running} replica${running === 1 ? " follows" : "s follow"} PostgreSQL at ${describePostgresUrl(url)}: stop every replica, then run memsvc reindex again`,
      );
    }
    const embedder = makeEmbedder(config.embedder);
    let lastLogged = 0;
    const memories = await reindexStore({
      source: postgres.store,
      target: postgres.store,
      embedder,
      inPlace: true,
      onProgress: ({ copied, total }) => {
        if (performance.now() - lastLogged < 2_000 && copied < total) return;
        lastLogged = performance.now();
        logger.info("reindexing", { copied, total });
      },
    });
    return {
      collection: describePostgresUrl(url),
      memories,
      embedder: `${embedder.id} (${embedder.dimensions} dimensions)`,
      ms: Math.round(performance.now() - started),
    };
  } finally {
    await postgres.close();
  }
}
