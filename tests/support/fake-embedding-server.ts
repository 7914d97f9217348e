import { FakeCohereServer } from "./fake-cohere-server.js";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

/** Which embedding API the fake speaks. */
export type EmbeddingDialect = "ollama" | "openai";

/** One embed request the fake received. */
export interface FakeEmbeddingRequest {
  readonly path: string;
  readonly body: Record<string, unknown>;
  readonly texts: string[];
  readonly authorization: string | undefined;
  /** When it arrived (Date.now()), to check waits between retries. */
  readonly atMs: number;
}

/** A way for the fake to misbehave on one request. */
export type FakeEmbeddingFailure =
  | { readonly kind: "status"; readonly status: number; readonly retryAfter?: string }
  /** Answer correctly, after `delayMs`. */
  | { readonly kind: "slow"; readonly delayMs: number }
  /** Send the headers and half a body, then nothing. */
  | { readonly kind: "stall-body" }
  | { readonly kind: "malformed" }
  | { readonly kind: "wrong-count" }
  | { readonly kind: "wrong-dimension" }
  | { readonly kind: "drop" };

/**
 * A fake Ollama (`POST /api/embed`) or OpenAI-compatible (`POST /v1/embeddings`) server on a
 * loopback port: deterministic vectors (the sum of pseudo-random word vectors, not normalised,
 * so texts sharing words are similar) of `dimensions` (the request's `dimensions` when sent).
 * OpenAI answers list `data` in reverse order with their `index`, as servers may. Requests are
 * recorded; failures can be queued or set for all.
 *
 * @example
 * const fake = await FakeEmbeddingServer.start("ollama", 16);
 * fake.failNext({ kind: "status", status: 429, retryAfter: "0" });
 * await new OllamaEmbedder({ baseUrl: fake.url, dimensions: 16 }).embedQuery("hi");
 * await fake.close();
 */
export class FakeEmbeddingServer {
  readonly requests: FakeEmbeddingRequest[] = [];
  readonly #server: Server;
  readonly #dialect: EmbeddingDialect;
  readonly #dimensions: number;
  readonly #queued: FakeEmbeddingFailure[] = [];
  readonly #timers = new Set<NodeJS.Timeout>();
  #always: FakeEmbeddingFailure | undefined;
  /** Base URL to give the embedder (`…/v1` for OpenAI). */
  url = "";

  private constructor(dialect: EmbeddingDialect, dimensions: number) {
    this.#dialect = dialect;
    this.#dimensions = dimensions;
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch(() => res.destroy());
    });
  }

  static async start(dialect: EmbeddingDialect, dimensions: number): Promise<FakeEmbeddingServer> {
    const fake = new FakeEmbeddingServer(dialect, dimensions);
    await new Promise<void>((resolve) => fake.#server.listen(0, "127.0.0.1", resolve));
    const address = fake.#server.address();
    if (address === null || typeof address === "string") throw new Error("fake: no port");
    fake.url = `http://127.0.0.1:${address.port}${dialect === "openai" ? "/v1" : ""}`;
    return fake;
  }

  failNext(...failures: FakeEmbeddingFailure[]): void {
    this.#queued.push(...failures);
  }

  failAlways(failure: FakeEmbeddingFailure | undefined): void {
    this.#always = failure;
  }

  async close(): Promise<void> {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = req.url?.split("?")[0] ?? "";
    const expected = this.#dialect === "ollama" ? "/api/embed" : "/v1/embeddings";
    if (req.method !== "POST" || path !== expected) return send(res, 404, { error: "not found" });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
    } catch {
      return send(res, 400, { error: "invalid json" });
    }
    const texts = Array.isArray(body.input) ? body.input.map(String) : [String(body.input)];
    this.requests.push({
      path,
      body,
      texts,
      authorization: req.headers.authorization,
      atMs: Date.now(),
    });
    const dimensions = typeof body.dimensions === "number" ? body.dimensions : this.#dimensions;
    const vectors = () => texts.map((t) => FakeCohereServer.vectorOf(t, dimensions));
    const answer = (list: number[][]) =>
      send(
        res,
        200,
        this.#dialect === "ollama"
          ? { model: body.model, embeddings: list }
          : {
              object: "list",
              model: body.model,
              data: list
                .map((embedding, index) => ({ object: "embedding", index, embedding }))
                .reverse(),
            },
      );
    const failure = this.#queued.shift() ?? this.#always;
    switch (failure?.kind) {
      case undefined:
        return answer(vectors());
      case "status":
        res.writeHead(failure.status, {
          "content-type": "application/json",
          ...(failure.retryAfter === undefined ? {} : { "retry-after": failure.retryAfter }),
        });
        res.end(JSON.stringify({ error: `fake failure ${failure.status}` }));
        return;
      case "slow": {
        const timer = setTimeout(() => {
          this.#timers.delete(timer);
          if (!res.destroyed) answer(vectors());
        }, failure.delayMs);
        this.#timers.add(timer);
        return;
      }
      case "stall-body":
        res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
        res.write('{"embeddings": [[0.1, ');
        return;
      case "malformed":
        res.writeHead(200, { "content-type": "application/json" });
        res.end('{"embeddings": [[0.1, ');
        return;
      case "wrong-count":
        return answer(vectors().slice(1));
      case "wrong-dimension":
        return answer(vectors().map((v) => v.slice(1)));
      case "drop":
        res.socket?.destroy();
        return;
    }
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}
