import { AgentServicesError } from "../errors.js";

/**
 * Counts the service's writes in flight and, once closed, refuses new ones: what lets the engine
 * snapshot at shutdown hold exactly what the store holds (no write lands after it was taken).
 *
 * @example
 * const gate = new WriteGate();
 * await gate.run(() => store.upsert(records));
 * await gate.close(); // later writes throw store_unavailable; resolves when none is in flight
 */
export class WriteGate {
  #inFlight = 0;
  #closed = false;
  #waiting: (() => void)[] = [];

  /** Runs a write, unless the gate is closed (then throws `store_unavailable`). */
  async run<T>(write: () => Promise<T>): Promise<T> {
    if (this.#closed) {
      throw new AgentServicesError(
        "store_unavailable",
        "vector store unavailable: the memory service is shutting down",
      );
    }
    this.#inFlight += 1;
    try {
      return await write();
    } finally {
      this.#inFlight -= 1;
      if (this.#inFlight === 0) for (const resolve of this.#waiting.splice(0)) resolve();
    }
  }

  /** Refuses every later write; resolves once the writes in flight have finished. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#inFlight === 0) return;
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }
}
