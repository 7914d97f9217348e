import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { AgentServicesError } from "../../core/errors.js";
import type { Embedder } from "../../core/ports/embedder.js";
import { decodeUseLite, USE_LITE_FORMAT } from "./use-lite-asset.js";
import { USE_LITE_DIMENSIONS, UseLiteEncoder } from "./use-lite-encoder.js";

/** Options of {@link UseLiteEmbedder}. */
export interface UseLiteEmbedderOptions {
  /** The asset to load. Default: the package's `assets/use-lite-512d.bin`. */
  readonly path?: string;
  /** Worker threads that embed (default 1); each holds its own copy of the model (~50 MB with the thread). */
  readonly threads?: number;
  /** Entry module of the worker threads (default `use-lite-worker` beside this module). */
  readonly workerUrl?: URL;
}

/** What the embedder sends a worker thread. */
export interface UseLiteRequest {
  readonly id: number;
  readonly texts: readonly string[];
}

/** What a worker thread answers. */
export type UseLiteReply =
  | { readonly type: "ready" }
  | { readonly type: "fatal"; readonly message: string }
  | { readonly type: "vectors"; readonly id: number; readonly vectors: Float64Array }
  | { readonly type: "failed"; readonly id: number; readonly message: string };

const ASSET = "use-lite-512d.bin";
/** From `adapters/local/` (sources, tsx) and from `dist/adapters/local/` (the built package). */
const ASSET_CANDIDATES = [`../../assets/${ASSET}`, `../../../assets/${ASSET}`];
/**
 * Documents go to a thread in chunks of this many texts (~0.1-0.4 s of work), so a query that
 * arrives behind a large batch (a reindex, an import) waits for one chunk, not for the batch.
 */
const CHUNK = 8;

/** The asset shipped with the package, wherever this module runs from. */
export function defaultUseLitePath(): string {
  for (const candidate of ASSET_CANDIDATES) {
    const path = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(path)) return path;
  }
  throw new Error(`UseLiteEmbedder: ${ASSET} not found next to the package (assets/)`);
}

interface Job {
  readonly texts: readonly string[];
  readonly resolve: (vectors: Float64Array) => void;
  readonly reject: (error: Error) => void;
}

interface Thread {
  readonly worker: Worker;
  ready: boolean;
  job: { readonly id: number; readonly job: Job } | undefined;
}

/**
 * The offline semantic {@link Embedder} for paraphrases: Google's Universal Sentence Encoder lite
 * (512-d, Apache-2.0; see `assets/use-lite-512d.NOTICE`), run by a TypeScript forward pass
 * ({@link UseLiteEncoder}) in worker threads, so the event loop never waits for it: a text costs
 * milliseconds of CPU (~1.5 ms per token, measured by `bench/sentence-encoder.ts`) where the
 * GloVe embedder costs microseconds. Queries go ahead of queued documents, and documents are
 * sent in small chunks, so a large batch never holds a query back for long. Opt in with
 * `embedder.model: use-lite` (and `memsvc reindex` for an existing store).
 *
 * The threads start on first use (or with {@link load}); {@link close} stops them. An idle
 * thread does not keep the process alive.
 *
 * @example
 * const embedder = new UseLiteEmbedder();
 * await embedder.load();
 * const query = await embedder.embedQuery("how do I undo a release?");
 * await embedder.close();
 */
export class UseLiteEmbedder implements Embedder {
  readonly id = `local-use-lite-v${USE_LITE_FORMAT}:${USE_LITE_DIMENSIONS}`;
  readonly dimensions = USE_LITE_DIMENSIONS;
  readonly #path: string;
  readonly #threadCount: number;
  readonly #workerUrl: URL | undefined;
  readonly #threads: Thread[] = [];
  readonly #queries: Job[] = [];
  readonly #documents: Job[] = [];
  #nextId = 1;
  #closed = false;
  #loading: Promise<void> | undefined;

  constructor(options: UseLiteEmbedderOptions = {}) {
    const threads = options.threads ?? 1;
    if (!Number.isInteger(threads) || threads < 1) {
      throw new RangeError(`UseLiteEmbedder: threads must be an integer >= 1, got ${threads}`);
    }
    this.#path = options.path ?? defaultUseLitePath();
    this.#threadCount = threads;
    this.#workerUrl = options.workerUrl;
  }

  /**
   * Reads the asset once on this thread and throws when it is missing or damaged (~30 ms), so a
   * service can refuse to start rather than fail its requests.
   */
  verify(): void {
    new UseLiteEncoder(decodeUseLite(readFileSync(this.#path)));
  }

  /** Starts the threads and waits until each has loaded the model; throws if one cannot. */
  load(): Promise<void> {
    this.#loading ??= new Promise<void>((resolve, reject) => {
      let waiting = this.#threadCount;
      for (let i = 0; i < this.#threadCount; i += 1) {
        this.#start((error) => {
          if (error !== undefined) reject(error);
          else if (--waiting === 0) resolve();
        });
      }
    });
    return this.#loading;
  }

  async embedDocuments(texts: readonly string[]): Promise<number[][]> {
    const chunks: Promise<Float64Array>[] = [];
    for (let i = 0; i < texts.length; i += CHUNK) {
      chunks.push(this.#submit(this.#documents, texts.slice(i, i + CHUNK)));
    }
    return (await Promise.all(chunks)).flatMap((vectors) => split(vectors));
  }

  async embedQuery(text: string): Promise<number[]> {
    return split(await this.#submit(this.#queries, [text]))[0] as number[];
  }

  /** Stops the threads; calls still waiting fail. */
  async close(): Promise<void> {
    this.#closed = true;
    const closed = new Error("UseLiteEmbedder closed");
    for (const job of [...this.#queries.splice(0), ...this.#documents.splice(0)]) {
      job.reject(closed);
    }
    const threads = this.#threads.splice(0);
    for (const thread of threads) thread.job?.job.reject(closed);
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  #submit(queue: Job[], texts: readonly string[]): Promise<Float64Array> {
    if (this.#closed) return Promise.reject(new Error("UseLiteEmbedder used after close()"));
    return new Promise<Float64Array>((resolve, reject) => {
      queue.push({ texts, resolve, reject });
      void this.load().catch((error: unknown) => this.#failAll(error));
      this.#pump();
    });
  }

  #pump(): void {
    for (const thread of this.#threads) {
      if (!thread.ready || thread.job !== undefined) continue;
      const job = this.#queries.shift() ?? this.#documents.shift();
      if (job === undefined) return;
      const id = this.#nextId++;
      thread.job = { id, job };
      this.#hold(thread);
      thread.worker.postMessage({ id, texts: job.texts } satisfies UseLiteRequest);
    }
  }

  /** Starts one thread; `started` hears once whether it loaded. */
  #start(started: (error?: Error) => void): void {
    const worker = new Worker(...workerEntry(this.#workerUrl, this.#path));
    const thread: Thread = { worker, ready: false, job: undefined };
    this.#threads.push(thread);
    let heard = false;
    const hear = (error?: Error) => {
      if (heard) return;
      heard = true;
      started(error);
    };
    worker.on("message", (reply: UseLiteReply) => {
      if (reply.type === "ready") {
        thread.ready = true;
        this.#hold(thread);
        hear();
        this.#pump();
        return;
      }
      if (reply.type === "fatal") {
        hear(new Error(`UseLiteEmbedder: cannot load the model: ${reply.message}`));
        void worker.terminate();
        return;
      }
      const current = thread.job;
      if (current === undefined || current.id !== reply.id) return;
      thread.job = undefined;
      if (reply.type === "vectors") current.job.resolve(reply.vectors);
      else current.job.reject(failure(new Error(reply.message)));
      this.#pump();
      this.#hold(thread);
    });
    const died = (error: Error) => {
      const index = this.#threads.indexOf(thread);
      if (index < 0) return;
      this.#threads.splice(index, 1);
      hear(error);
      thread.job?.job.reject(failure(error));
      // A thread that loaded once and died is replaced; one that never loaded is not retried.
      if (thread.ready && !this.#closed) {
        this.#start((startError) => {
          if (startError !== undefined) this.#failAll(startError);
        });
      }
    };
    worker.on("error", died);
    worker.on("exit", (code) => died(new Error(`worker thread exited with code ${code}`)));
    // Held while loading; afterwards only while embedding (listeners must exist first: adding a
    // `message` listener refs the thread again).
    worker.ref();
  }

  /** A thread keeps the process alive only while it loads or embeds, never when idle. */
  #hold(thread: Thread): void {
    if (!thread.ready || thread.job !== undefined) thread.worker.ref();
    else thread.worker.unref();
  }

  #failAll(error: unknown): void {
    const cause = error instanceof Error ? error : new Error(String(error));
    for (const job of [...this.#queries.splice(0), ...this.#documents.splice(0)]) {
      job.reject(failure(cause));
    }
  }
}

function failure(cause: Error): AgentServicesError {
  return new AgentServicesError("embedder_failed", "failed to generate embedding", { cause });
}

function split(vectors: Float64Array): number[][] {
  const out: number[][] = [];
  for (let at = 0; at < vectors.length; at += USE_LITE_DIMENSIONS) {
    out.push(Array.from(vectors.subarray(at, at + USE_LITE_DIMENSIONS)));
  }
  return out;
}

/**
 * The Worker constructor's arguments: the given entry, else the built `use-lite-worker.js`
 * beside this module; running from the TypeScript sources (tsx, vitest), Node 20 passes no
 * loader on to threads, so a small bootstrap registers tsx in the thread first.
 */
function workerEntry(
  given: URL | undefined,
  path: string,
): [URL | string, { workerData: { path: string }; execArgv: string[]; eval?: boolean }] {
  // The thread inherits the process's flags, but `--input-type` (from `node -e`) is refused for
  // a thread's entry module and stops it.
  const execArgv = process.execArgv.filter((arg) => !arg.startsWith("--input-type"));
  const workerData = { path };
  if (given !== undefined) return [given, { workerData, execArgv }];
  const built = new URL("./use-lite-worker.js", import.meta.url);
  if (!import.meta.url.endsWith(".ts") || existsSync(fileURLToPath(built))) {
    return [built, { workerData, execArgv }];
  }
  // tsx's ESM entry (its CommonJS one registers a loader path that does not resolve in a thread).
  const tsx = pathToFileURL(
    createRequire(import.meta.url)
      .resolve("tsx/esm/api")
      .replace(/\.cjs$/, ".mjs"),
  ).href;
  const source = new URL("./use-lite-worker.ts", import.meta.url).href;
  const code =
    `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); ` +
    `return import(${JSON.stringify(source)}); });`;
  return [code, { workerData, execArgv, eval: true }];
}
