import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));

/**
 * Files that name every pattern below in their own source (this test), so are not scanned. The
 * rules are simple text patterns, kept honest by the self-test at the end.
 */
const SELF = ["tests/unit/boundary/unit-layer-purity.test.ts"];

/** Node modules a unit test may not load (value imports; `import type` loads nothing). */
const FORBIDDEN_MODULES: Record<string, string> = {
  net: "opens sockets (node:net)",
  tls: "opens sockets (node:tls)",
  dgram: "opens sockets (node:dgram)",
  http2: "opens sockets (node:http2)",
  child_process: "spawns processes (node:child_process)",
  cluster: "spawns processes (node:cluster)",
  worker_threads: "starts worker threads (node:worker_threads)",
  "timers/promises": "sleeps on a real timer (node:timers/promises)",
};

/** Code patterns, matched on the source without comments. */
const FORBIDDEN_CODE: readonly { pattern: RegExp; reason: string }[] = [
  // `feed.listen(` is the ChangeFeed port's subscription, not a socket.
  {
    pattern: /\bcreateServer\s*\(|(?<!\bfeed)\.listen\s*\(/,
    reason: "starts a server (createServer/listen)",
  },
  { pattern: /\bmkdtemp(?:Sync)?\s*\(|\btmpdir\s*\(/, reason: "makes a temp directory" },
  {
    pattern: /\b(?:writeFile|appendFile|mkdir|createWriteStream)(?:Sync)?\s*\(/,
    reason: "writes to disk",
  },
  { pattern: /(?<![\w.$])fetch\s*\(/, reason: "uses the network (global fetch)" },
  { pattern: /(?<![\w.$])sleep\s*\(|\bAtomics\.wait\s*\(/, reason: "sleeps (sleep/Atomics.wait)" },
  { pattern: /\bspawn-[\w-]+\.(?:[cm]?[jt]s)\b/, reason: "uses a process-spawning helper" },
  { pattern: /\bfake-[\w-]+-server\.(?:[cm]?[jt]s)\b/, reason: "uses a fake HTTP server" },
];

/** A promise resolved by a real timer; allowed where the file installs vitest's fake timers. */
const TIMER_SLEEP = /\bnew\s+Promise\b[^;]{0,120}?\bsetTimeout\s*\(/;
const FAKE_TIMERS = /\bvi\.useFakeTimers\s*\(/;

/** Block comments, and line comments that start a line (JSDoc and `//` lines). */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/^\s*\/\/.*$/gm, "");
}

/**
 * The reasons a source file cannot be a unit test (none: it can).
 *
 * @example
 * impurities('import { spawn } from "node:child_process";'); // ["spawns processes (node:child_process)"]
 */
function impurities(source: string): string[] {
  const code = withoutComments(source);
  const reasons = new Set<string>();
  const modules =
    /\bimport\s+(?!type\s)[^;]*?\bfrom\s*["'](?:node:)?([\w/]+)["']|\b(?:import|require)\s*\(\s*["'](?:node:)?([\w/]+)["']\s*\)/g;
  for (const match of code.matchAll(modules)) {
    const reason = FORBIDDEN_MODULES[match[1] ?? match[2] ?? ""];
    if (reason !== undefined) reasons.add(reason);
  }
  for (const { pattern, reason } of FORBIDDEN_CODE) if (pattern.test(code)) reasons.add(reason);
  if (TIMER_SLEEP.test(code) && !FAKE_TIMERS.test(code)) {
    reasons.add("sleeps (a promise resolved by setTimeout)");
  }
  return [...reasons];
}

/**
 * Files under tests/ (outside tests/unit) that `file` loads: relative imports and `new URL`s,
 * and `tests/…` paths named from the root; `.js` specifiers resolve to the `.ts` source.
 */
function helpersOf(file: string, source: string): string[] {
  const specifiers = /["'`]((?:\.{1,2}\/|tests\/)[\w./-]+)["'`]/g;
  const found: string[] = [];
  for (const [, specifier = ""] of withoutComments(source).matchAll(specifiers)) {
    const base = specifier.startsWith("tests/") ? root : dirname(join(root, file));
    const absolute = resolve(base, specifier);
    const candidates = [absolute, absolute.replace(/\.js$/, ".ts"), `${absolute}.ts`];
    // Code only: fixtures such as .sql files are data, whatever words they hold.
    const hit = candidates.find(
      (c) => /\.[cm]?[jt]s$/.test(c) && existsSync(c) && statSync(c).isFile(),
    );
    if (hit === undefined) continue;
    const path = relative(root, hit);
    if (path.startsWith("tests/") && !path.startsWith("tests/unit/") && !path.includes(".."))
      found.push(path);
  }
  return found;
}

function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.[cm]?ts$/.test(e.name))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

/** Every offence of the unit layer, one line per file and reason. */
function unitLayerOffences(): { checked: number; offences: string[] } {
  const units = filesUnder("tests/unit").filter((f) => !SELF.includes(f));
  const offences: string[] = [];
  const helperReasons = new Map<string, string[]>();
  /** A helper's own reasons and those of the helpers it loads, scanned once each. */
  const reasonsOfHelper = (path: string, seen: Set<string>): string[] => {
    const known = helperReasons.get(path);
    if (known !== undefined) return known;
    if (seen.has(path)) return [];
    seen.add(path);
    const source = readFileSync(join(root, path), "utf8");
    const reasons = [
      ...impurities(source),
      ...helpersOf(path, source).flatMap((h) =>
        reasonsOfHelper(h, seen).map((r) => `loads ${h}, which ${r}`),
      ),
    ];
    helperReasons.set(path, reasons);
    return reasons;
  };
  for (const file of units) {
    const source = readFileSync(join(root, file), "utf8");
    for (const reason of impurities(source)) offences.push(`${file}: ${reason}`);
    for (const helper of helpersOf(file, source)) {
      for (const reason of reasonsOfHelper(helper, new Set())) {
        offences.push(`${file}: loads ${helper}, which ${reason}`);
      }
    }
  }
  return { checked: units.length, offences };
}

describe("the unit layer", () => {
  it("opens no sockets, spawns no processes, writes no temp files and never sleeps", () => {
    const { checked, offences } = unitLayerOffences();
    expect(checked).toBeGreaterThan(50);
    expect(
      offences,
      "unit tests must run on fakes and a manual clock; move these to tests/integration " +
        "(same sub-path) or replace the sleep with ManualClock or a gate:\n" +
        offences.join("\n"),
    ).toEqual([]);
  });
});

describe("the unit-layer purity check", () => {
  it("flags each kind of offence in a sample source", () => {
    const sample = [
      'import { connect } from "node:net";',
      'import { execFile } from "child_process";',
      'import { Worker } from "node:worker_threads";',
      'import { setTimeout as wait } from "node:timers/promises";',
      'const http = await import("node:http2");',
      "createServer((req, res) => res.end()).listen(0);",
      'const dir = mkdtempSync(join(tmpdir(), "x-"));',
      'await writeFile(join(dir, "f"), "data");',
      'await fetch("http://127.0.0.1:8080/healthz");',
      "await new Promise((resolve) => setTimeout(resolve, 20));",
      "await sleep(5);",
      'import { spawnMemsvc } from "../../support/spawn-memsvc.js";',
      'import { FakeCohereServer } from "../../support/fake-cohere-server.js";',
    ].join("\n");
    expect(impurities(sample).sort()).toEqual(
      [
        "opens sockets (node:net)",
        "spawns processes (node:child_process)",
        "starts worker threads (node:worker_threads)",
        "sleeps on a real timer (node:timers/promises)",
        "opens sockets (node:http2)",
        "starts a server (createServer/listen)",
        "makes a temp directory",
        "writes to disk",
        "uses the network (global fetch)",
        "sleeps (a promise resolved by setTimeout)",
        "sleeps (sleep/Atomics.wait)",
        "uses a process-spawning helper",
        "uses a fake HTTP server",
      ].sort(),
    );
  });

  it("passes a clean source, including look-alikes in strings, comments and types", () => {
    const clean = [
      'import type { Server } from "node:http";',
      'import { readFileSync } from "node:fs";',
      'import { ManualClock } from "../../../core/testing/index.js";',
      "/** Waits with `await new Promise((r) => setTimeout(r, 5))` in the old version. */",
      "// a sleep(1) here would be wrong; fetch(url) too",
      'expect(scan("SELECT pg_sleep(1)")).toEqual([]);',
      'const response = await app.fetch(new Request("http://localhost/healthz"));',
      'const text = readFileSync("tests/fixtures/sql/corpus.ts", "utf8");',
      "clock.advance(60_000);",
    ].join("\n");
    expect(impurities(clean)).toEqual([]);
  });

  it("allows a timer promise under vitest's fake timers", () => {
    const source = [
      "vi.useFakeTimers();",
      "const done = new Promise((resolve) => setTimeout(resolve, 1000));",
      "await vi.advanceTimersByTimeAsync(1000);",
    ].join("\n");
    expect(impurities(source)).toEqual([]);
  });

  it("follows a unit test into the helpers it loads", () => {
    const helpers = helpersOf(
      "tests/unit/sql/example.test.ts",
      [
        'import { countTokenReads } from "../../support/count-token-reads.js";',
        'const worker = new URL("../../support/slow-sql-worker.mjs", import.meta.url);',
        'const hooks = join(root, "tests/support/record-imports.mjs");',
        'import { helper } from "./local-helper.js";',
      ].join("\n"),
    );
    expect(helpers).toEqual([
      "tests/support/count-token-reads.ts",
      "tests/support/slow-sql-worker.mjs",
      "tests/support/record-imports.mjs",
    ]);
    expect(
      impurities(readFileSync(join(root, "tests/support/slow-sql-worker.ts"), "utf8")),
    ).toEqual(["starts worker threads (node:worker_threads)"]);
  });
});
