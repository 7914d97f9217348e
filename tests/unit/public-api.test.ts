import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import {
  createSqlToolkit,
  type DeleteMatchingInput,
  type DeleteMatchingResult,
  type ExportedMemory,
  type ImportResult,
  type ListInput,
  type ListPage,
  type MemoryService,
  type NdjsonLine,
  type RecallOptions,
  type SqlToolkit,
  type UpdateInput,
  type UpdateResult,
} from "../../core/index.js";
import { loadedParser } from "./sql/loaded-parser.js";

/**
 * The runtime names each `exports` entry of package.json offers: the semver contract. A change
 * here is a change of the public API (a removal is a major version). Entries are read from
 * package.json, so a new entry fails until its names are pinned here.
 */
const PINNED: Record<string, string[]> = {
  ".": [
    "AgentServicesError",
    "CONTEXT_HEADER",
    "DEFAULT_FORMAT_OPTIONS",
    "DEFAULT_MEMORY_SERVICE_OPTIONS",
    "DEFAULT_RECALL_WEIGHTS",
    "JournaledVectorStore",
    "MEMORY_SCOPES",
    "MEMORY_TYPES",
    "MemoryService",
    "SQL_DIALECTS",
    "createBm25Index",
    "createHybridIndex",
    "createSqlToolkit",
    "estimateTokens",
    "formatSql",
    "isAgentServicesError",
    "lintSql",
    "packContext",
    "reindexStore",
    "scanSql",
    "toSqlDialect",
    "tokenize",
  ],
  "./testing": [
    "FakeEmbedder",
    "InMemoryApiKeyStore",
    "InMemoryEngineSnapshots",
    "InMemorySharedStore",
    "InMemoryVectorStore",
    "InMemoryWriteJournal",
    "ManualClock",
  ],
  "./adapters/chroma": [
    "ChromaVectorStore",
    "replaceChromaCollection",
    "startEmbeddedChroma",
    "startSupervisedChroma",
  ],
  "./adapters/cohere": ["CohereEmbedder"],
  "./adapters/ollama": ["OllamaEmbedder"],
  "./adapters/openai": ["OpenAiEmbedder"],
  "./adapters/local": [
    "HashingEmbedder",
    "UseLiteEmbedder",
    "WordVectorEmbedder",
    "defaultUseLitePath",
    "defaultWordVectorPath",
  ],
  "./adapters/system": [
    "FileApiKeyStore",
    "FileEngineSnapshots",
    "FileReplicaSnapshots",
    "FileWriteJournal",
    "NodeTextHasher",
    "REPLICA_SNAPSHOT_FILE",
    "SystemClock",
  ],
  "./adapters/postgres": [
    "MIGRATIONS",
    "PostgresApiKeyStore",
    "PostgresChangeFeed",
    "PostgresClusterLocks",
    "PostgresVectorStore",
    "SCHEMA_VERSION",
    "connectPostgres",
  ],
  "./adapters/sql": [
    "LibpgQuerySqlParser",
    "PolyglotSqlParser",
    "RoutingSqlParser",
    "createDefaultSqlParser",
  ],
};

const manifest = JSON.parse(
  readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
) as { exports: Record<string, string | { default: string }> };

/** `./dist/core/index.js` → the source module `../../core/index.ts`. */
function sourceOf(target: string | { default: string }): string {
  const file = typeof target === "string" ? target : target.default;
  return new URL(
    `../../${file.replace(/^\.\/dist\//, "").replace(/\.js$/, ".ts")}`,
    import.meta.url,
  ).href;
}

describe("the package's public API", () => {
  let tools: SqlToolkit;
  beforeAll(async () => {
    // loadedParser() is `await createDefaultSqlParser()`, shared by the SQL tests of this worker
    // (loading compiles two WASM modules: seconds on a busy machine, so not inside a test).
    tools = createSqlToolkit(await loadedParser());
  });
  const entries = Object.entries(manifest.exports).filter(([key]) => key !== "./package.json");

  it("pins every exports entry of package.json", () => {
    expect(entries.map(([key]) => key).sort()).toEqual(Object.keys(PINNED).sort());
  });

  it.each(entries)("exports exactly the pinned names from %s", async (key, target) => {
    const module = (await import(sourceOf(target))) as Record<string, unknown>;
    expect(Object.keys(module).sort()).toEqual([...(PINNED[key] ?? [])].sort());
  });

  it("gives a ready parser from createDefaultSqlParser and one result shape from the toolkit", () => {
    expect(tools.validate("SELECT 1", "postgresql")).toEqual({
      ok: true,
      result: { valid: true, dialect: "postgresql" },
    });
    expect(tools.parse("SELECT 1")).toEqual({
      ok: true,
      result: { statement_count: 1, statement_types: ["*ast.SelectStatement"] },
    });
    expect(tools.lint("SELECT 1").ok).toBe(true);
  });

  it("names, from the root, every type MemoryService's methods take and return (checked by tsc)", () => {
    type Service = MemoryService;
    expectTypeOf<Parameters<Service["list"]>[0]>().toEqualTypeOf<ListInput | undefined>();
    expectTypeOf<Awaited<ReturnType<Service["list"]>>>().toEqualTypeOf<ListPage>();
    expectTypeOf<Parameters<Service["update"]>[1]>().toEqualTypeOf<UpdateInput>();
    expectTypeOf<Awaited<ReturnType<Service["update"]>>>().toEqualTypeOf<UpdateResult>();
    expectTypeOf<Parameters<Service["deleteMatching"]>[0]>().toEqualTypeOf<DeleteMatchingInput>();
    expectTypeOf<
      Awaited<ReturnType<Service["deleteMatching"]>>
    >().toEqualTypeOf<DeleteMatchingResult>();
    expectTypeOf<ReturnType<Service["exportMemories"]>>().toEqualTypeOf<
      AsyncIterable<ExportedMemory>
    >();
    expectTypeOf<Parameters<Service["importMemories"]>[0]>().toEqualTypeOf<
      AsyncIterable<NdjsonLine> | Iterable<NdjsonLine>
    >();
    expectTypeOf<Awaited<ReturnType<Service["importMemories"]>>>().toEqualTypeOf<ImportResult>();
    expectTypeOf<Parameters<Service["recall"]>[1]>().toEqualTypeOf<RecallOptions | undefined>();
  });
});
