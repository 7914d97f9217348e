import type { InjectionToken } from "tsyringe";
import type { Clock } from "../../../core/ports/clock.js";
import type { Embedder } from "../../../core/ports/embedder.js";
import type { VectorStore } from "../../../core/ports/vector-store.js";
import type { MemoryService } from "../../../core/memory/index.js";
import type { MemsvcConfig } from "../config/memsvc-config.js";
import type { Logger } from "../../common/logger.js";

/** Where the vector store lives, resolved before the container is built (Chroma starts async). */
export interface StoreLocation {
  /** Chroma base URL (the embedded server's or the configured one). */
  readonly url: string;
  /** For the startup line: `embedded Chroma at <path>` or `Chroma at <url>`. */
  readonly description: string;
}

/**
 * The typed tokens of the memsvc composition root. Symbols, so two registrations can never
 * collide by name; typed, so `container.resolve(TOKENS.memory)` is a `MemoryService`.
 *
 * @example
 * container.register(TOKENS.clock, { useFactory: () => new SystemClock() });
 * const clock = container.resolve(TOKENS.clock);
 */
export const TOKENS = {
  config: Symbol("MemsvcConfig") as InjectionToken<MemsvcConfig>,
  logger: Symbol("Logger") as InjectionToken<Logger>,
  storeLocation: Symbol("StoreLocation") as InjectionToken<StoreLocation>,
  clock: Symbol("Clock") as InjectionToken<Clock>,
  embedder: Symbol("Embedder") as InjectionToken<Embedder>,
  vectorStore: Symbol("VectorStore") as InjectionToken<VectorStore>,
  memory: Symbol("MemoryService") as InjectionToken<MemoryService>,
} as const;
