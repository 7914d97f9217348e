import {
  startEmbeddedChroma,
  type EmbeddedChroma,
  type EmbeddedChromaOptions,
} from "./chroma-launcher.js";

/** What a {@link SupervisedChroma} reports. */
export type ChromaEvent =
  | { readonly kind: "died"; readonly pid: number; readonly exitCode: number | null }
  | { readonly kind: "restarting"; readonly attempt: number; readonly delayMs: number }
  | { readonly kind: "restart_failed"; readonly attempt: number; readonly error: unknown }
  | { readonly kind: "restarted"; readonly pid: number; readonly downMs: number };

/** Options of {@link startSupervisedChroma}. */
export interface SupervisedChromaOptions extends EmbeddedChromaOptions {
  /** Told about deaths and restarts (the shell logs them). */
  readonly onEvent?: (event: ChromaEvent) => void;
  /** Delay before the first restart; doubled after each failed one. Default 200 ms. */
  readonly initialBackoffMs?: number;
  /** Longest delay between restarts. Default 5 000 ms. */
  readonly maxBackoffMs?: number;
}

/** An embedded Chroma that is restarted when it dies. */
export interface SupervisedChroma {
  /** Base URL; a restart keeps the port, so the URL never changes. */
  readonly url: string;
  readonly port: number;
  /** Process id of the current child. */
  readonly pid: number;
  /** False from the moment the child exits until a restarted one answers its heartbeat. */
  readonly up: boolean;
  /** Stops supervising, then stops the child. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts an embedded Chroma and keeps it running: when the child exits without being asked to
 * (a crash, an OOM kill, `kill -9`), `up` turns false at once and `onEvent` hears `died`; the
 * child is then restarted on the same port and data directory with exponential backoff until a
 * new one answers its heartbeat (`restarted`). The store adapter keeps its URL throughout: calls
 * made while Chroma is down fail at once (connection refused) and succeed again after the restart.
 *
 * @example
 * const chroma = await startSupervisedChroma({
 *   path: "./data/chroma",
 *   onEvent: (e) => (e.kind === "died" ? logger.error("Chroma died", e) : logger.info(e.kind, e)),
 * });
 * const store = new ChromaVectorStore({ url: chroma.url });
 * const ready = () => chroma.up;
 */
export async function startSupervisedChroma(
  options: SupervisedChromaOptions,
): Promise<SupervisedChroma> {
  const first = await startEmbeddedChroma(options);
  const initialBackoff = options.initialBackoffMs ?? 200;
  const maxBackoff = options.maxBackoffMs ?? 5_000;
  const emit = (event: ChromaEvent): void => {
    try {
      options.onEvent?.(event);
    } catch {
      // A failing logger must not stop the supervision.
    }
  };
  let current: EmbeddedChroma = first;
  let up = true;
  let stopping = false;
  let wakeUp: (() => void) | undefined;

  const restart = async (): Promise<void> => {
    const downSince = performance.now();
    for (let attempt = 1; !stopping; attempt += 1) {
      const delayMs = Math.min(maxBackoff, initialBackoff * 2 ** (attempt - 1));
      emit({ kind: "restarting", attempt, delayMs });
      await new Promise<void>((resolve) => {
        wakeUp = resolve;
        setTimeout(resolve, delayMs).unref();
      });
      if (stopping) return;
      try {
        const next = await startEmbeddedChroma({ ...options, port: first.port });
        if (stopping) {
          await next.stop();
          return;
        }
        current = next;
        up = true;
        emit({
          kind: "restarted",
          pid: next.pid,
          downMs: Math.round(performance.now() - downSince),
        });
        watch(next);
        return;
      } catch (error) {
        emit({ kind: "restart_failed", attempt, error });
      }
    }
  };

  const watch = (chroma: EmbeddedChroma): void => {
    void chroma.exited.then((exitCode) => {
      if (stopping || chroma !== current) return;
      up = false;
      emit({ kind: "died", pid: chroma.pid, exitCode });
      void restart();
    });
  };
  watch(first);

  let stopped: Promise<void> | undefined;
  return {
    url: first.url,
    port: first.port,
    get pid() {
      return current.pid;
    },
    get up() {
      return up;
    },
    stop() {
      stopped ??= (async () => {
        stopping = true;
        wakeUp?.();
        up = false;
        await current.stop();
      })();
      return stopped;
    },
  };
}
