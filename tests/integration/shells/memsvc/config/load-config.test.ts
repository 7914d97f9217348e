import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  CONFIG_KEYS,
  loadConfig,
  type LoadConfigResult,
} from "../../../../../shells/memsvc/config/index.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "memsvc-config-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function ok(result: LoadConfigResult) {
  if (!result.ok) throw new Error(`expected a valid config, got:\n${result.problems.join("\n")}`);
  return result;
}

function problems(result: LoadConfigResult): readonly string[] {
  if (result.ok) throw new Error("expected problems, got a valid config");
  return result.problems;
}

describe("loadConfig", () => {
  it("uses the documented defaults when there is no file and no environment", () => {
    const { config } = ok(loadConfig({ env: {}, cwd: dir }));
    expect(config.source).toBeUndefined();
    expect(config.api).toEqual({
      listen: { host: undefined, port: 8080 },
      listenText: ":8080",
      authToken: undefined,
      allowedHosts: [],
      allowedOrigins: [],
    });
    expect(config.vectorStore).toEqual({
      kind: "chroma-embedded",
      path: join(dir, "data/chroma"),
      collection: "memories",
    });
    expect(config.embedder).toEqual({ provider: "local", model: "word-vectors", dimensions: 100 });
    expect(config.memory).toEqual({
      ttlHours: 720,
      sessionIdleHours: 24,
      recallCandidates: 50,
      halfLifeHours: 168,
      recallMinScore: 0.02,
      recallRelativeFloor: 0.5,
      recallKneeGap: 0.7,
      recallContextNeighbours: 0,
      neighbourLift: 0.3,
      weights: {
        similarity: 0.5,
        recency: 0.15,
        frequency: 0.1,
        type: 0.1,
        scope: 0.05,
        confidence: 0.1,
      },
    });
    expect(config.sweepIntervalMs).toBe(300_000);
    expect(config.vectorStore.kind).toBe("chroma-embedded");
    expect(config.log.level).toBe("info");
  });

  it("takes the PostgreSQL store by name and URL, and says what is missing", () => {
    const url = "postgres://memsvc:secret@db.internal:5432/memories";
    expect(
      ok(
        loadConfig({
          env: { MEMSVC_VECTOR_STORE_PROVIDER: "postgres", MEMSVC_VECTOR_STORE_POSTGRES_URL: url },
          cwd: dir,
        }),
      ).config.vectorStore,
    ).toEqual({ kind: "postgres", url, poolSize: 10, snapshotDir: join(dir, "data", "replica") });
    const env = { MEMSVC_VECTOR_STORE_PROVIDER: "postgres", MEMSVC_VECTOR_STORE_POSTGRES_URL: url };
    const snapshotDir = (value: string) =>
      ok(
        loadConfig({ env: { ...env, MEMSVC_VECTOR_STORE_POSTGRES_SNAPSHOT_DIR: value }, cwd: dir }),
      ).config.vectorStore;
    expect(snapshotDir("off")).toMatchObject({ snapshotDir: undefined });
    expect(snapshotDir("/var/lib/memsvc")).toMatchObject({ snapshotDir: "/var/lib/memsvc" });
    expect(
      problems(loadConfig({ env: { MEMSVC_VECTOR_STORE_PROVIDER: "postgres" }, cwd: dir })),
    ).toEqual([
      "vector_store.postgres.url: expected a postgres:// URL when vector_store.provider is postgres (set it in the file or MEMSVC_VECTOR_STORE_POSTGRES_URL)",
    ]);
    expect(
      problems(
        loadConfig({
          env: {
            MEMSVC_VECTOR_STORE_PROVIDER: "postgres",
            MEMSVC_VECTOR_STORE_POSTGRES_URL: "http://db:5432",
          },
          cwd: dir,
        }),
      ),
    ).toEqual([
      'vector_store.postgres.url (from MEMSVC_VECTOR_STORE_POSTGRES_URL): expected a postgres:// or postgresql:// URL, got "http://db:5432"',
    ]);
    expect(
      problems(loadConfig({ env: { MEMSVC_VECTOR_STORE_PROVIDER: "mysql" }, cwd: dir })),
    ).toEqual([
      'vector_store.provider (from MEMSVC_VECTOR_STORE_PROVIDER): expected chroma or postgres, got "mysql"',
    ]);
  });

  it("refuses the removed Chroma replica mode with the way forward", () => {
    expect(problems(loadConfig({ env: { MEMSVC_MEMORY_MODE: "replica" }, cwd: dir }))).toEqual([
      "memory.mode: replica was removed; replicas now share a PostgreSQL store and keep the exact engine: set vector_store.provider: postgres and vector_store.postgres.url (see docs/operations.md)",
    ]);
  });

  it("reads ./memsvc.yaml from the working directory when it exists", () => {
    const path = write(
      "memsvc.yaml",
      "api:\n  listen_addr: 127.0.0.1:9000\n  auth_token: s3cret\n",
    );
    const { config } = ok(loadConfig({ env: {}, cwd: dir }));
    expect(config.source).toBe(path);
    expect(config.api.listen).toEqual({ host: "127.0.0.1", port: 9000 });
    expect(config.api.authToken).toBe("s3cret");
  });

  it("prefers --config over MEMSVC_CONFIG over ./memsvc.yaml", () => {
    write("memsvc.yaml", "log:\n  level: debug\n");
    const fromEnv = write("env.yaml", "log:\n  level: warn\n");
    const fromFlag = write("flag.yaml", "log:\n  level: error\n");
    const env = { MEMSVC_CONFIG: fromEnv };
    expect(ok(loadConfig({ env, cwd: dir })).config.log.level).toBe("warn");
    expect(ok(loadConfig({ configPath: fromFlag, env, cwd: dir })).config.log.level).toBe("error");
  });

  it("reports a named config file that does not exist", () => {
    expect(problems(loadConfig({ configPath: "missing.yaml", env: {}, cwd: dir }))).toEqual([
      `config file ${join(dir, "missing.yaml")} (--config): not found`,
    ]);
    expect(problems(loadConfig({ env: { MEMSVC_CONFIG: "gone.yaml" }, cwd: dir }))[0]).toContain(
      "(MEMSVC_CONFIG): not found",
    );
  });

  it("lets environment variables override the file", () => {
    const path = write("c.yaml", "api:\n  listen_addr: :9000\nrecall:\n  candidates: 20\n");
    const env = {
      MEMSVC_API_LISTEN_ADDR: "127.0.0.1:0",
      MEMSVC_RECALL_CANDIDATES: "75",
      MEMSVC_VECTOR_STORE_CHROMA_URL: "http://127.0.0.1:8000",
      MEMSVC_RECALL_WEIGHTS_SIMILARITY: "0.45",
      MEMSVC_RECALL_WEIGHTS_RECENCY: "0.2",
    };
    const { config } = ok(loadConfig({ configPath: path, env, cwd: dir }));
    expect(config.api.listen).toEqual({ host: "127.0.0.1", port: 0 });
    expect(config.memory.recallCandidates).toBe(75);
    expect(config.memory.weights.similarity).toBe(0.45);
    expect(config.vectorStore).toEqual({
      kind: "chroma-url",
      url: "http://127.0.0.1:8000",
      collection: "memories",
    });
  });

  it("maps every documented key to MEMSVC_ plus its path in upper case", () => {
    for (const key of CONFIG_KEYS) {
      expect(key.env).toBe(`MEMSVC_${key.path.toUpperCase().replaceAll(".", "_")}`);
    }
    expect(new Set(CONFIG_KEYS.map((k) => k.env)).size).toBe(CONFIG_KEYS.length);
  });

  it("reports every problem together, one per line, naming the key and the variable", () => {
    write(
      "memsvc.yaml",
      "api:\n  listen_addr: '8080'\n  bogus: 1\nrecall:\n  candidates: 0\n  weights:\n    similarity: 0.9\nembedder:\n  provider: cohere\n",
    );
    const list = problems(
      loadConfig({ env: { MEMSVC_LOG_LEVEL: "loud", MEMSVC_MEMORY_TTL_HOURS: "abc" }, cwd: dir }),
    );
    expect(list).toEqual([
      'api.listen_addr: expected :PORT or HOST:PORT with a port 0-65535, got "8080"',
      "api.bogus: unknown key",
      'memory.ttl_hours (from MEMSVC_MEMORY_TTL_HOURS): expected a number > 0, got "abc"',
      "recall.candidates: expected an integer ≥ 1, got 0",
      "recall.weights: expected weights summing to 1 (± 0.01), got similarity 0.9 + recency 0.15 + frequency 0.1 + type 0.1 + scope 0.05 + confidence 0.1 = 1.4",
      'log.level (from MEMSVC_LOG_LEVEL): expected debug, info, warn or error, got "loud"',
      expect.stringContaining("embedder.cohere.api_key: expected a Cohere API key"),
    ]);
    for (const line of list) expect(line).not.toContain("\n");
  });

  it("chooses the local embedder's model: word vectors by default, use-lite or hashing on request", () => {
    const hashing = ok(
      loadConfig({
        env: { MEMSVC_EMBEDDER_LOCAL_MODEL: "hashing", MEMSVC_EMBEDDER_LOCAL_DIMENSIONS: "256" },
        cwd: dir,
      }),
    ).config.embedder;
    expect(hashing).toEqual({ provider: "local", model: "hashing", dimensions: 256 });
    const sentences = ok(
      loadConfig({
        env: { MEMSVC_EMBEDDER_LOCAL_MODEL: "use-lite", MEMSVC_EMBEDDER_LOCAL_THREADS: "2" },
        cwd: dir,
      }),
    ).config.embedder;
    expect(sentences).toEqual({
      provider: "local",
      model: "use-lite",
      dimensions: 512,
      threads: 2,
    });
    expect(
      problems(loadConfig({ env: { MEMSVC_EMBEDDER_LOCAL_MODEL: "glove" }, cwd: dir })),
    ).toEqual([
      'embedder.local.model (from MEMSVC_EMBEDDER_LOCAL_MODEL): expected word-vectors, use-lite or hashing, got "glove"',
    ]);
    expect(problems(loadConfig({ env: { MEMSVC_EMBEDDER_LOCAL_THREADS: "0" }, cwd: dir }))).toEqual(
      [
        "embedder.local.threads (from MEMSVC_EMBEDDER_LOCAL_THREADS): expected an integer ≥ 1, got 0",
      ],
    );
  });

  it("accepts weights that sum to 1 within 0.01 and rejects weights outside [0, 1]", () => {
    const near = write("near.yaml", "recall:\n  weights:\n    similarity: 0.505\n");
    expect(
      ok(loadConfig({ configPath: near, env: {}, cwd: dir })).config.memory.weights.similarity,
    ).toBe(0.505);
    const bad = write("bad.yaml", "recall:\n  weights:\n    scope: -0.05\n    similarity: 0.6\n");
    expect(problems(loadConfig({ configPath: bad, env: {}, cwd: dir }))).toContain(
      "recall.weights.scope: expected a number in [0, 1], got -0.05",
    );
  });

  it("takes recall's knee gap from the environment and refuses a negative one", () => {
    const { config } = ok(loadConfig({ env: { MEMSVC_RECALL_KNEE_GAP: "1.5" }, cwd: dir }));
    expect(config.memory.recallKneeGap).toBe(1.5);
    expect(problems(loadConfig({ env: { MEMSVC_RECALL_KNEE_GAP: "-1" }, cwd: dir }))).toEqual([
      "recall.knee_gap (from MEMSVC_RECALL_KNEE_GAP): expected a number >= 0, got -1",
    ]);
  });

  it("takes recall's context neighbours from the environment, off by default, at most 10", () => {
    expect(ok(loadConfig({ env: {}, cwd: dir })).config.memory.recallContextNeighbours).toBe(0);
    const env = { MEMSVC_RECALL_CONTEXT_NEIGHBOURS: "2" };
    expect(ok(loadConfig({ env, cwd: dir })).config.memory.recallContextNeighbours).toBe(2);
    const refused = { MEMSVC_RECALL_CONTEXT_NEIGHBOURS: "11" };
    expect(problems(loadConfig({ env: refused, cwd: dir }))).toEqual([
      "recall.context_neighbours (from MEMSVC_RECALL_CONTEXT_NEIGHBOURS): expected an integer between 0 and 10, got 11",
    ]);
  });

  it("takes the store-neighbour lift from the environment and refuses one above 1", () => {
    const { config } = ok(loadConfig({ env: { MEMSVC_RETRIEVAL_NEIGHBOUR_LIFT: "0" }, cwd: dir }));
    expect(config.memory.neighbourLift).toBe(0);
    expect(ok(loadConfig({ env: {}, cwd: dir })).config.memory.neighbourLift).toBe(0.3);
    expect(
      problems(loadConfig({ env: { MEMSVC_RETRIEVAL_NEIGHBOUR_LIFT: "1.5" }, cwd: dir })),
    ).toEqual([
      "retrieval.neighbour_lift (from MEMSVC_RETRIEVAL_NEIGHBOUR_LIFT): expected a number in [0, 1], got 1.5",
    ]);
  });

  it("caps recall.candidates at the core's limit of 1000", () => {
    expect(problems(loadConfig({ env: { MEMSVC_RECALL_CANDIDATES: "1001" }, cwd: dir }))).toEqual([
      "recall.candidates (from MEMSVC_RECALL_CANDIDATES): expected an integer between 1 and 1000, got 1001",
    ]);
  });

  it("reports invalid YAML with its line", () => {
    const path = write("broken.yaml", "api:\n  listen_addr: [\n");
    expect(problems(loadConfig({ configPath: path, env: {}, cwd: dir }))[0]).toMatch(
      /broken\.yaml line \d+ column \d+: invalid YAML/,
    );
  });

  it("takes the Cohere key from the file, then COHERE_API_KEY, then CO_API_KEY", () => {
    const env = { MEMSVC_EMBEDDER_PROVIDER: "cohere", CO_API_KEY: "co", COHERE_API_KEY: "cohere" };
    const viaEnv = ok(loadConfig({ env, cwd: dir })).config.embedder;
    expect(viaEnv).toMatchObject({
      provider: "cohere",
      apiKey: "cohere",
      model: "embed-v4.0",
      dimensions: 1024,
    });
    const onlyCo = ok(
      loadConfig({ env: { MEMSVC_EMBEDDER_PROVIDER: "cohere", CO_API_KEY: "co" }, cwd: dir }),
    );
    expect(onlyCo.config.embedder).toMatchObject({
      apiKey: "co",
      timeoutMs: 10_000,
      maxRetries: 2,
    });
    const file = write(
      "k.yaml",
      "embedder:\n  provider: cohere\n  cohere:\n    api_key: fromfile\n",
    );
    expect(ok(loadConfig({ configPath: file, env, cwd: dir })).config.embedder).toMatchObject({
      apiKey: "fromfile",
    });
  });

  it("warns about MEMSVC_ variables that match no setting", () => {
    const result = ok(loadConfig({ env: { MEMSVC_EMBEDER_PROVIDER: "cohere" }, cwd: dir }));
    expect(result.warnings).toEqual([
      "environment variable MEMSVC_EMBEDER_PROVIDER matches no setting and is ignored; did you mean MEMSVC_EMBEDDER_PROVIDER?",
    ]);
  });

  it("points the port and host names of other servers to the listen address", () => {
    const result = ok(loadConfig({ env: { MEMSVC_API_PORT: "9000" }, cwd: dir }));
    expect(result.warnings).toEqual([
      "environment variable MEMSVC_API_PORT matches no setting and is ignored; did you mean MEMSVC_API_LISTEN_ADDR (host:port, e.g. 127.0.0.1:8080)?",
    ]);
  });

  it("does not warn about the client commands' MEMSVC_URL", () => {
    const result = ok(loadConfig({ env: { MEMSVC_URL: "http://127.0.0.1:8080" }, cwd: dir }));
    expect(result.warnings).toEqual([]);
  });

  it("suggests the key a misspelt one most likely meant", () => {
    const path = write("memsvc.yaml", "api:\n  listen_adr: ':9000'\nrecal:\n  candidates: 5\n");
    expect(problems(loadConfig({ configPath: path, env: {}, cwd: dir }))).toEqual([
      "api.listen_adr: unknown key; did you mean api.listen_addr?",
      "recal: unknown key; did you mean recall?",
    ]);
  });

  it("reads the allowed hosts and origins as comma-separated lists, from the file or the environment (issue 26)", () => {
    const path = write(
      "allowed.yaml",
      "api:\n  allowed_hosts: ' memsvc , box.lan,'\n  allowed_origins: http://localhost:3000\n",
    );
    const fromFile = ok(loadConfig({ configPath: path, env: {}, cwd: dir })).config.api;
    expect(fromFile.allowedHosts).toEqual(["memsvc", "box.lan"]);
    expect(fromFile.allowedOrigins).toEqual(["http://localhost:3000"]);
    const fromEnv = ok(
      loadConfig({
        configPath: path,
        env: { MEMSVC_API_ALLOWED_ORIGINS: "https://a.example,https://b.example" },
        cwd: dir,
      }),
    ).config.api;
    expect(fromEnv.allowedOrigins).toEqual(["https://a.example", "https://b.example"]);
  });

  it("treats an empty auth token as authentication off", () => {
    const { config } = ok(
      loadConfig({ env: {}, cwd: write("t.yaml", "api:\n  auth_token: ''\n") && dir }),
    );
    expect(config.api.authToken).toBeUndefined();
  });
});

describe("the ollama and openai embedders (issue 11)", () => {
  it("fill in the documented defaults", () => {
    const ollama = ok(loadConfig({ env: { MEMSVC_EMBEDDER_PROVIDER: "ollama" }, cwd: dir }));
    expect(ollama.config.embedder).toEqual({
      provider: "ollama",
      baseUrl: "http://127.0.0.1:11434",
      apiKey: undefined,
      model: "nomic-embed-text",
      dimensions: 768,
      requestDimensions: false,
      timeoutMs: 30_000,
      maxRetries: 2,
      batchSize: 64,
    });
    const openai = ok(loadConfig({ env: { MEMSVC_EMBEDDER_PROVIDER: "openai" }, cwd: dir }));
    expect(openai.config.embedder).toMatchObject({
      provider: "openai",
      baseUrl: "https://api.openai.com/v1",
      apiKey: undefined,
      model: "text-embedding-3-small",
      dimensions: 1536,
      batchSize: 128,
    });
  });

  it("read the OpenAI key from the file, else OPENAI_API_KEY, and booleans from the environment", () => {
    const env = {
      MEMSVC_EMBEDDER_PROVIDER: "openai",
      OPENAI_API_KEY: "from-env",
      MEMSVC_EMBEDDER_OPENAI_REQUEST_DIMENSIONS: "true",
    };
    expect(ok(loadConfig({ env, cwd: dir })).config.embedder).toMatchObject({
      apiKey: "from-env",
      requestDimensions: true,
    });
    const path = write("m.yaml", "embedder:\n  openai:\n    api_key: from-file\n");
    expect(ok(loadConfig({ configPath: path, env, cwd: dir })).config.embedder).toMatchObject({
      apiKey: "from-file",
    });
  });

  it("report bad values naming the key", () => {
    const path = write(
      "bad.yaml",
      "embedder:\n  provider: ollama\n  ollama:\n    base_url: nowhere\n    batch_size: 0\n    request_dimensions: maybe\n",
    );
    expect(problems(loadConfig({ configPath: path, env: {}, cwd: dir }))).toEqual([
      'embedder.ollama.base_url: expected an http(s) URL, got "nowhere"',
      'embedder.ollama.request_dimensions: expected true or false, got "maybe"',
      "embedder.ollama.batch_size: expected an integer ≥ 1, got 0",
    ]);
  });
});
