import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

/** One `POST /v2/embed` the fake received. */
export interface FakeCohereRequest {
  readonly model: string | undefined;
  readonly inputType: string | undefined;
  readonly texts: string[];
  readonly outputDimension: number | undefined;
  readonly embeddingTypes: string[] | undefined;
  /** The `Authorization` header as sent, e.g. `Bearer test-key`. */
  readonly authorization: string | undefined;
}

/** A way for the fake to misbehave on one request. */
export type FakeCohereFailure =
  /** Answer with this HTTP status and a JSON error body. */
  | { readonly kind: "status"; readonly status: number }
  /** Answer correctly, but only after `delayMs`. */
  | { readonly kind: "slow"; readonly delayMs: number }
  /** Answer 200 with a body that is not JSON. */
  | { readonly kind: "malformed" }
  /** Answer 200 with one vector fewer than texts. */
  | { readonly kind: "wrong-count" }
  /** Answer 200 with vectors one number short. */
  | { readonly kind: "wrong-dimension" }
  /** Drop the connection without answering. */
  | { readonly kind: "drop" };

/**
 * A fake Cohere API on a loopback port: `POST /v2/embed` answers deterministic vectors of the
 * requested `output_dimension` (default 1024). A text's vector is the sum of pseudo-random vectors
 * of its words, so texts sharing words are similar, and it is deliberately not normalised.
 * Every request is recorded; failures can be queued for the next requests or set for all.
 *
 * @example
 * const cohere = await FakeCohereServer.start();
 * cohere.failNext({ kind: "status", status: 429 });
 * const embedder = new CohereEmbedder({ apiKey: "k", baseUrl: cohere.url });
 * await embedder.embedQuery("hello"); // retried once, then answered
 * cohere.requests.length; // 2
 * await cohere.close();
 */
export class FakeCohereServer {
  /** Every embed request, in arrival order. */
  readonly requests: FakeCohereRequest[] = [];
  readonly #server: Server;
  readonly #queued: FakeCohereFailure[] = [];
  readonly #timers = new Set<NodeJS.Timeout>();
  #always: FakeCohereFailure | undefined;

  /** Base URL to give the client, e.g. `http://127.0.0.1:40123`. */
  url = "";

  private constructor() {
    this.#server = createServer((req, res) => {
      this.handle(req, res).catch(() => res.destroy());
    });
  }

  /** Starts a fake on 127.0.0.1 and a free port. */
  static async start(): Promise<FakeCohereServer> {
    const fake = new FakeCohereServer();
    await new Promise<void>((resolve) => fake.#server.listen(0, "127.0.0.1", resolve));
    const address = fake.#server.address();
    if (address === null || typeof address === "string") throw new Error("fake Cohere: no port");
    fake.url = `http://127.0.0.1:${address.port}`;
    return fake;
  }

  /** Queues failures for the next requests, one per request, in order. */
  failNext(...failures: FakeCohereFailure[]): void {
    this.#queued.push(...failures);
  }

  /** Fails every request (after the queued ones) the same way; undefined heals. */
  failAlways(failure: FakeCohereFailure | undefined): void {
    this.#always = failure;
  }

  /** Stops listening and drops open connections (slow answers included). */
  async close(): Promise<void> {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** The vector the fake gives `text` at `dimensions` (not normalised). */
  static vectorOf(text: string, dimensions: number): number[] {
    const vector = new Array<number>(dimensions).fill(0);
    const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [text];
    for (const word of words) {
      let state = hash(word) || 1;
      for (let i = 0; i < dimensions; i += 1) {
        // xorshift32: cheap, deterministic, good enough to spread words apart.
        state ^= state << 13;
        state ^= state >>> 17;
        state ^= state << 5;
        vector[i] = (vector[i] ?? 0) + ((state >>> 0) / 0xffffffff - 0.5) * 3;
      }
    }
    return vector;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== "POST" || req.url?.split("?")[0] !== "/v2/embed") {
      return send(res, 404, { message: "not found" });
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
    } catch {
      return send(res, 400, { message: "invalid json" });
    }
    const texts = Array.isArray(body.texts) ? body.texts.map(String) : [];
    const dimensions = typeof body.output_dimension === "number" ? body.output_dimension : 1024;
    this.requests.push({
      model: typeof body.model === "string" ? body.model : undefined,
      inputType: typeof body.input_type === "string" ? body.input_type : undefined,
      texts,
      outputDimension:
        typeof body.output_dimension === "number" ? body.output_dimension : undefined,
      embeddingTypes: Array.isArray(body.embedding_types)
        ? body.embedding_types.map(String)
        : undefined,
      authorization: req.headers.authorization,
    });
    const failure = this.#queued.shift() ?? this.#always;
    const vectors = () => texts.map((t) => FakeCohereServer.vectorOf(t, dimensions));
    const answer = (float: number[][]) =>
      send(res, 200, { id: "fake", embeddings: { float }, texts, meta: {} });
    switch (failure?.kind) {
      case undefined:
        return answer(vectors());
      case "status":
        return send(res, failure.status, { message: `fake failure ${failure.status}` });
      case "slow": {
        const timer = setTimeout(() => {
          this.#timers.delete(timer);
          if (!res.destroyed) answer(vectors());
        }, failure.delayMs);
        this.#timers.add(timer);
        return;
      }
      case "malformed":
        res.writeHead(200, { "content-type": "application/json" });
        res.end('{"id": "fake", "embeddings": {"float": [[0.1, ');
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

function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
