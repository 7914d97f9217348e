/**
 * Installs the packed tarball into a new project, as a user would, and runs it there: the bins
 * through `npx`, the library through its `exports`, and the MCP client entries the docs give.
 * The npm cache lives in `node_modules/.cache/package-test-npm` (inside this clone) so a second
 * run installs offline-first in seconds.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const REPO = resolve(import.meta.dirname, "../..");
const NPM_CACHE = join(REPO, "node_modules/.cache/package-test-npm");
const STARTUP = /^memsvc \S+ listening on http:\/\/(\S+):(\d+) \(store: (.+); embedder: (.+)\)$/m;

let work: string;
let app: string;
const children = new Set<ChildProcess>();

/** The environment of a user's shell: ours without any service configuration. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(MEMSVC_|SQLSVC_|COHERE_|CO_API_KEY|npm_|VITEST)/.test(key)) env[key] = value;
  }
  return { ...env, npm_config_cache: NPM_CACHE, npm_config_update_notifier: "false", ...extra };
}

/** The first ```json block of a doc that has an `mcpServers.<name>.command`, with paths filled in. */
function documentedMcpEntry(
  doc: string,
  name: string,
  paths: Record<string, string>,
): { command: string; args: string[] } {
  const text = readFileSync(join(REPO, "docs", doc), "utf8");
  for (const [, block] of text.matchAll(/```json\n([\s\S]*?)```/g)) {
    const config = JSON.parse(block!) as {
      mcpServers?: Record<string, { command?: string; args?: string[] }>;
    };
    const entry = config.mcpServers?.[name];
    if (entry?.command === undefined) continue;
    const fill = (s: string): string =>
      Object.entries(paths).reduce((out, [from, to]) => out.replaceAll(from, to), s);
    return { command: fill(entry.command), args: (entry.args ?? []).map(fill) };
  }
  throw new Error(`docs/${doc} has no MCP client entry for "${name}"`);
}

/** The ```ts blocks of a doc that import from the package: examples meant to compile as printed. */
function documentedTsExamples(doc: string): string[] {
  const text = readFileSync(join(REPO, doc), "utf8");
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)]
    .map(([, block]) => block!)
    .filter((block) => /^import .* from "agent-services/m.test(block));
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "agent-services-consumer-"));
  app = join(work, "app");
  const packed = await run("npm", ["pack", "--json", "--pack-destination", work], {
    cwd: REPO,
    env: userEnv(),
    maxBuffer: 64 * 1024 * 1024,
  });
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
  await run("mkdir", [app]);
  writeFileSync(
    join(app, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module" }),
  );
  await run(
    "npm",
    ["install", join(work, filename), "--prefer-offline", "--no-audit", "--no-fund"],
    { cwd: app, env: userEnv(), maxBuffer: 64 * 1024 * 1024 },
  );
});

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

describe("the packed tarball installed into a new project", () => {
  it("ships LICENSE, no source maps, and the pinned Chroma binary as a real dependency", () => {
    const root = join(app, "node_modules/agent-services");
    expect(readFileSync(join(root, "LICENSE"), "utf8")).toContain("agent-services contributors");
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      optionalDependencies: Record<string, string>;
    };
    expect(manifest.optionalDependencies["chroma-server"]).toBe(
      "npm:chromadb-js-bindings-linux-x64-gnu@1.0.5",
    );
    const pinned = JSON.parse(
      readFileSync(join(app, "node_modules/chroma-server/package.json"), "utf8"),
    ) as { name: string; version: string };
    expect(pinned).toMatchObject({ name: "chromadb-js-bindings-linux-x64-gnu", version: "1.0.5" });
    expect(existsSync(join(root, "dist/core/index.js.map"))).toBe(false);
    expect(readFileSync(join(root, "dist/core/index.js"), "utf8")).not.toContain(
      "sourceMappingURL",
    );
  });

  it("runs `npx memsvc serve` with the embedded defaults and stops cleanly on Ctrl-C", async () => {
    const child = spawn("npx", ["--no-install", "memsvc", "serve"], {
      cwd: app,
      env: userEnv({ MEMSVC_API_LISTEN_ADDR: "127.0.0.1:0" }),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    children.add(child);
    let output = "";
    const ended = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
    const match = await new Promise<RegExpExecArray>((found, fail) => {
      const onData = (chunk: Buffer): void => {
        output += chunk.toString("utf8");
        const m = STARTUP.exec(output);
        if (m !== null) found(m);
      };
      child.stdout.on("data", onData);
      child.stderr.on("data", onData);
      void ended.then((code) => fail(new Error(`memsvc exited with ${code}:\n${output}`)));
    });
    expect(match[3]).toBe(`embedded Chroma at ${join(app, "data/chroma")}`);
    const base = `http://127.0.0.1:${match[2]}`;
    const stored = await fetch(`${base}/v1/remember`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ content: "Deploys happen on Tuesdays", type: "rule" }),
    });
    expect(stored.status).toBe(200);
    const recall = (await (
      await fetch(`${base}/v1/recall`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ message: "when do deploys happen?" }),
      })
    ).json()) as { memory_count: number; context: string };
    expect(recall.memory_count).toBe(1);
    expect(recall.context).toContain("Deploys happen on Tuesdays");
    // npx runs memsvc in a child: signal the process group, as a terminal's Ctrl-C does.
    // npm itself dies of the signal; memsvc drains, stops Chroma and closes the shared pipes.
    const drained = new Promise((done) => child.stdout.once("close", done));
    process.kill(-child.pid!, "SIGINT");
    await Promise.all([ended, drained]);
    expect(output).toContain('"msg":"embedded Chroma stopped"');
    expect(output).toMatch(/"msg":"stopped"\}\n$/);
  });

  it("starts Chroma through the library's startEmbeddedChroma and uses the SQL toolkit", async () => {
    const script = join(app, "library.mjs");
    writeFileSync(
      script,
      `import { createSqlToolkit } from "agent-services";
import { ChromaVectorStore, startEmbeddedChroma } from "agent-services/adapters/chroma";
import { createDefaultSqlParser } from "agent-services/adapters/sql";
const chroma = await startEmbeddedChroma({ path: ${JSON.stringify(join(work, "lib-chroma"))} });
const store = new ChromaVectorStore({ url: chroma.url, collection: "consumer" });
await store.bind({ embedderId: "consumer", dimensions: 3 });
await store.upsert([{ id: "a", vector: [1, 0, 0], document: "hello", metadata: {} }]);
const count = await store.count();
await store.close();
await chroma.stop();
const tools = createSqlToolkit(await createDefaultSqlParser());
console.log(JSON.stringify({
  count,
  mysql: tools.validate("SELECT * FROM t LIMIT 5", "mysql"),
  postgresql: tools.validate("SELEC 1", "postgresql").result.valid,
}));
`,
    );
    const { stdout } = await run(process.execPath, [script], { cwd: app, env: userEnv() });
    expect(JSON.parse(stdout)).toMatchObject({
      count: 1,
      mysql: { ok: true, result: { valid: true, dialect: "mysql" } },
      postgresql: false,
    });
  });

  it("type-checks each entry point and the docs' examples in a strict consumer (skipLibCheck off)", async () => {
    const manifest = JSON.parse(
      readFileSync(join(app, "node_modules/agent-services/package.json"), "utf8"),
    ) as { exports: Record<string, unknown> };
    const entries = Object.keys(manifest.exports)
      .filter((key) => key !== "./package.json")
      .map((key) => `agent-services${key.slice(1)}`);
    const check = join(app, "types-check");
    await run("mkdir", ["-p", check]);
    writeFileSync(
      join(check, "entries.ts"),
      entries.map((name, i) => `import * as entry${i} from "${name}";\n`).join("") +
        `export const all = [${entries.map((_, i) => `entry${i}`).join(", ")}];\n`,
    );
    const examples = [
      ...documentedTsExamples("README.md"),
      ...documentedTsExamples("docs/postgres-store.md"),
      ...documentedTsExamples("docs/adapters.md"),
    ];
    expect(examples.length).toBeGreaterThanOrEqual(4);
    examples.forEach((block, i) =>
      writeFileSync(join(check, `example-${i}.ts`), `${block}export {};\n`),
    );
    const tsc = join(REPO, "node_modules/typescript/bin/tsc");
    // A user's own project: only what installing the tarball brought, no @types of ours.
    for (const [module, moduleResolution] of [
      ["nodenext", "nodenext"],
      ["esnext", "bundler"],
    ]) {
      const config = join(check, `tsconfig.${moduleResolution}.json`);
      writeFileSync(
        config,
        JSON.stringify({
          compilerOptions: {
            target: "es2022",
            module,
            moduleResolution,
            strict: true,
            skipLibCheck: false,
            noEmit: true,
            noUncheckedIndexedAccess: true,
            exactOptionalPropertyTypes: true,
          },
          include: ["*.ts"],
        }),
      );
      const outcome = await run(process.execPath, [tsc, "-p", config], { cwd: check }).then(
        () => "",
        (error: { stdout?: string }) => error.stdout ?? String(error),
      );
      expect(outcome, `tsc with moduleResolution ${moduleResolution}`).toBe("");
    }
  });

  it("serves the memory tools over stdio from the MCP client entry in docs/memory-service.md", async () => {
    const config = join(work, "memsvc.yaml");
    writeFileSync(config, `vector_store:\n  chroma:\n    path: "${join(work, "mcp-chroma")}"\n`);
    const entry = documentedMcpEntry("memory-service.md", "memory", {
      "/path/to/your-project": app,
      "/path/to/memsvc.yaml": config,
    });
    const client = new Client({ name: "package-test", version: "1.0.0" });
    // No env: the SDK passes only the default safe variables, as desktop clients do.
    await client.connect(new StdioClientTransport({ ...entry, cwd: work, stderr: "pipe" }));
    try {
      const stats = (await client.callTool({ name: "memory_stats", arguments: {} })) as {
        isError?: boolean;
      };
      expect(stats.isError ?? false).toBe(false);
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain("remember");
    } finally {
      await client.close();
    }
  });

  it("serves the SQL tools over stdio from the MCP client entry in docs/sql-tool-server.md", async () => {
    const entry = documentedMcpEntry("sql-tool-server.md", "sql", { "/path/to/your-project": app });
    const client = new Client({ name: "package-test", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ ...entry, cwd: work, stderr: "pipe" }));
    try {
      const result = (await client.callTool({
        name: "validate_sql",
        arguments: { sql: "SELECT TOP 5 * FROM users", dialect: "sqlserver" },
      })) as { structuredContent?: unknown };
      expect(result.structuredContent).toMatchObject({ valid: true });
    } finally {
      await client.close();
    }
  });
});
