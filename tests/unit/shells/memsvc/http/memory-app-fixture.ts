import { MemoryService } from "../../../../../core/memory/index.js";
import type { VectorStore } from "../../../../../core/ports/vector-store.js";
import {
  FakeEmbedder,
  InMemoryVectorStore,
  ManualClock,
} from "../../../../../core/testing/index.js";
import {
  createMemoryApp,
  type Logger,
  type MemoryAppOptions,
} from "../../../../../shells/memsvc/http/index.js";

/** A logger that keeps every line for assertions. */
export function recordingLogger() {
  const lines: { level: string; msg: string; fields: Record<string, unknown> }[] = [];
  const at =
    (level: string) =>
    (msg: string, fields: Record<string, unknown> = {}) =>
      void lines.push({ level, msg, fields });
  const logger: Logger = {
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
  };
  return { logger, lines };
}

/** The app over a real MemoryService with in-memory fakes, or over `store` when given. */
export async function makeApp(
  overrides?: Partial<MemoryAppOptions>,
): Promise<App<InMemoryVectorStore>>;
export async function makeApp<S extends VectorStore>(
  overrides: Partial<MemoryAppOptions>,
  store: S,
): Promise<App<S>>;
export async function makeApp(
  overrides: Partial<MemoryAppOptions> = {},
  store: VectorStore = new InMemoryVectorStore(),
): Promise<App<VectorStore>> {
  const embedder = new FakeEmbedder();
  const clock = new ManualClock("2026-11-21T10:00:00.000Z");
  const memory = new MemoryService({ store, embedder, clock });
  await memory.init();
  const { logger, lines } = recordingLogger();
  const app = createMemoryApp({ memory, version: "9.9.9", logger, ...overrides });
  return { app, store, embedder, clock, memory, lines };
}

interface App<S extends VectorStore> {
  app: ReturnType<typeof createMemoryApp>;
  store: S;
  embedder: FakeEmbedder;
  clock: ManualClock;
  memory: MemoryService;
  lines: ReturnType<typeof recordingLogger>["lines"];
}

/** A JSON POST request init. */
export function post(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  };
}
