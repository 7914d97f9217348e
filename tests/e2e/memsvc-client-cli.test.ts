import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cleanupMemsvc,
  makeTempDir,
  MEMSVC_BIN,
  startMemsvc,
  type MemsvcProcess,
} from "../support/spawn-memsvc.js";

/**
 * The people's commands of `memsvc` (remember, search, recall, get, forget, list, stats, export,
 * import) as real processes against a real `memsvc serve` with a token.
 */
let service: MemsvcProcess;
const TOKEN = "cli-test-token";

function cli(
  args: readonly string[],
  options: { input?: string; env?: Record<string, string> } = {},
) {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith("MEMSVC_")) env[key] = value;
  }
  const result = spawnSync(process.execPath, [MEMSVC_BIN, ...args], {
    env: { ...env, MEMSVC_URL: service.baseUrl, MEMSVC_API_AUTH_TOKEN: TOKEN, ...options.env },
    encoding: "utf8",
    timeout: 30_000,
    ...(options.input === undefined ? {} : { input: options.input }),
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  service = await startMemsvc({ env: { MEMSVC_API_AUTH_TOKEN: TOKEN } });
}, 60_000);

afterAll(cleanupMemsvc);

describe("memsvc client commands", () => {
  it("remembers, finds, recalls, shows and forgets a memory", () => {
    const stored = cli([
      "remember",
      "Deploys run on Fridays after 14:00",
      "--type",
      "rule",
      "--scope",
      "permanent",
      "--tags",
      "ops,deploy",
    ]);
    expect(stored.code).toBe(0);
    expect(stored.stderr).toBe("");
    const id = /^stored ([0-9a-f-]{36})$/m.exec(stored.stdout)?.[1] as string;
    expect(id).toBeDefined();

    const again = cli([
      "remember",
      "Deploys run on Fridays after 14:00",
      "--type",
      "rule",
      "--scope",
      "permanent",
    ]);
    expect(again.stdout).toBe(`merged into ${id} (the same memory was already stored)\n`);

    // Without --scope the service stores a session memory, which expires: the person is told.
    const session = cli(["remember", "Staging is read-only this week"]);
    expect(session.code).toBe(0);
    expect(session.stdout).toMatch(/^stored [0-9a-f-]{36}\n$/);
    expect(session.stderr).toMatch(
      /^note: without --scope this is a session memory, deleted after a day/,
    );

    const search = cli(["search", "when do deploys run"]);
    expect(search.code).toBe(0);
    expect(search.stdout.split("\n")[0]).toMatch(/^score\s+id\s+type\s+scope\s+project\s+content$/);
    expect(search.stdout).toContain(id);

    const json = cli(["search", "deploys", "--json"]);
    const parsed = JSON.parse(json.stdout) as {
      results: { memory: { id: string; tags: string[] } }[];
    };
    expect(parsed.results[0]?.memory).toMatchObject({ id, tags: ["ops", "deploy"] });

    const recall = cli(["recall", "when do we deploy?"]);
    expect(recall.stdout).toContain("[rule] Deploys run on Fridays after 14:00");
    expect(recall.stderr).toMatch(/^1 memories, \d+ tokens\n$/);
    const strict = cli(["recall", "when do we deploy?", "--min-score", "0.99"]);
    // stdout is the context itself, empty here: a script puts it into a prompt as it is.
    expect([strict.code, strict.stdout, strict.stderr]).toEqual([
      0,
      "",
      "nothing relevant remembered (0 memories)\n",
    ]);
    const tooWide = cli(["recall", "deploys", "--context-neighbours", "11"]);
    expect(tooWide.code).toBe(3);
    expect(tooWide.stderr).toContain(
      "memsvc: --context-neighbours: expected an integer between 0 and 10",
    );

    const get = cli(["get", id]);
    expect(get.stdout).toMatch(/^content\s+Deploys run on Fridays after 14:00$/m);
    expect(get.stdout).toMatch(/^tags\s+ops, deploy$/m);

    expect(cli(["forget", id]).stdout).toBe(`forgot ${id}\n`);
    const gone = cli(["get", id]);
    expect(gone.code).toBe(4);
    expect(gone.stderr).toBe(`memsvc: memory ${id} not found\n`);
  });

  it("lists, counts, exports to a file and imports from stdin", () => {
    const long = `Billing note 3: ${"invoices are issued on the first working day, ".repeat(4)}end`;
    for (const text of ["Billing note 1", "Billing note 2", long]) {
      expect(cli(["remember", text, "--project", "billing", "--scope", "project"]).code).toBe(0);
    }
    const list = cli(["list", "--project", "billing"]);
    expect(list.stdout.trim().split("\n")).toHaveLength(4);
    expect(list.stdout).toMatch(/just now\s+fact\s+project\s+billing\s+Billing note 3/);
    // Into a pipe, a row is whole: nothing is cut to a width that no terminal set.
    expect(list.stdout).toContain(long.trim());
    expect(list.stderr).toBe("");
    // A page that is not the last says so: nobody takes 2 of 3 memories for all of them.
    const firstPage = cli(["list", "--project", "billing", "--limit", "2"]);
    expect(firstPage.stdout.trim().split("\n")).toHaveLength(3);
    expect(firstPage.stderr).toMatch(
      /^2 shown, more match: --all shows every one, --cursor \S+ the next page\n$/,
    );
    interface Page {
      memories: { content: string }[];
      next_cursor: string | null;
    }
    const page = JSON.parse(
      cli(["list", "--project", "billing", "--limit", "2", "--json"]).stdout,
    ) as Page;
    expect(page.memories).toHaveLength(2);
    expect(typeof page.next_cursor).toBe("string");
    const rest = JSON.parse(
      cli([
        "list",
        "--project",
        "billing",
        "--limit",
        "2",
        "--json",
        "--cursor",
        `${page.next_cursor}`,
      ]).stdout,
    ) as Page;
    expect(rest).toEqual({
      memories: [expect.objectContaining({ content: "Billing note 1" })],
      next_cursor: null,
    });

    const stats = JSON.parse(cli(["stats", "--json"]).stdout) as { total_memories: number };
    expect(stats.total_memories).toBeGreaterThanOrEqual(3);
    const billing = cli(["stats", "--project", "billing", "--top", "3"]);
    expect(billing.code).toBe(0);
    expect(billing.stdout).toMatch(/^total\s+3$/m);
    expect(billing.stdout).toMatch(/^scope project\s+3$/m);
    expect(billing.stdout).toMatch(/^project billing\s+3$/m);
    const badTop = cli(["stats", "--top", "0"]);
    expect([badTop.code, badTop.stderr]).toEqual([
      3,
      "memsvc: --top: expected an integer between 1 and 1000, got 0\n",
    ]);

    const file = join(makeTempDir(), "backup.ndjson");
    const exported = cli(["export", "--file", file]);
    expect(exported.code).toBe(0);
    expect(exported.stderr).toBe(`exported ${stats.total_memories} memories to ${file}\n`);
    const lines = readFileSync(file, "utf8").trim().split("\n");
    expect(lines).toHaveLength(stats.total_memories);

    const toStdout = cli(["export"]);
    expect(toStdout.stdout.trim().split("\n")).toHaveLength(stats.total_memories);

    const imported = cli(["import"], {
      input: `${JSON.stringify({ content: "Imported from the CLI", type: "fact" })}\nnot json\n`,
    });
    expect(imported.code).toBe(0);
    expect(imported.stdout).toBe("imported 1, merged 0 duplicates, rejected 1\n");
    expect(imported.stderr).toMatch(/^line 2: /);
  });

  it("imports a file past the service's 50,000 lines per request; stdin says where to go on", () => {
    // Blank lines count towards the limit and cost nothing, so the file is cheap to import.
    const blank = (n: number) => "\n".repeat(n);
    const memory = (content: string) => `${JSON.stringify({ content, scope: "permanent" })}\n`;
    const text =
      blank(50_000) +
      memory("Past the first limit") +
      blank(49_999) +
      "broken\n" +
      memory("Past the second limit");
    const file = join(makeTempDir(), "long.ndjson");
    writeFileSync(file, text);

    const fromFile = cli(["import", "--file", file]);
    expect([fromFile.code, fromFile.stdout]).toEqual([
      0,
      "imported 2, merged 0 duplicates, rejected 1\n",
    ]);
    // Line numbers are the file's, not those of the request that read it.
    expect(fromFile.stderr).toMatch(/^line 100001: invalid JSON/);
    for (const content of ["Past the first limit", "Past the second limit"]) {
      const found = JSON.parse(cli(["list", "--q", content, "--json"]).stdout) as {
        memories: unknown[];
      };
      expect(found.memories, content).toHaveLength(1);
    }

    // stdin cannot be read again: no success for a part, and the line to go on from.
    const fromStdin = cli(["import"], { input: text });
    expect(fromStdin.code).toBe(1);
    expect(fromStdin.stdout).toBe("imported 0, merged 0 duplicates, rejected 0\n");
    expect(fromStdin.stderr).toContain(
      "memsvc: import stopped after line 50000 (at most 50000 lines per request): the lines from line 50001 on were not imported",
    );
    expect(fromStdin.stderr).toContain("tail -n +50001 FILE | memsvc import");
  }, 60_000);

  it("says what is wrong with an exit code per kind of failure", () => {
    const invalid = cli(["remember", "x", "--type", "opinion"]);
    expect(invalid.code).toBe(3);
    // The option the person typed, not the field of the service's body.
    expect(invalid.stderr).toMatch(/^memsvc: --type: expected one of /);
    const badScore = cli(["search", "deploys", "--min-score", "2"]);
    expect([badScore.code, badScore.stderr]).toEqual([
      3,
      "memsvc: --min-score: expected a number between 0 and 1, got 2\n",
    ]);

    const noToken = cli(["stats"], { env: { MEMSVC_API_AUTH_TOKEN: "" } });
    expect(noToken.code).toBe(5);
    expect(noToken.stderr).toContain("(set --token or MEMSVC_API_AUTH_TOKEN)");

    const unreachable = cli(["stats", "--url", "http://127.0.0.1:1"]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain("cannot reach the memory service at http://127.0.0.1:1");

    const usage = cli(["search"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("search needs QUERY");

    const misspelt = cli(["list", "--projct", "billing"]);
    expect(misspelt.code).toBe(2);
    expect(misspelt.stderr).toMatch(/^memsvc: unknown option --projct; did you mean --project\?\n/);
    const early = cli(["--url", "http://127.0.0.1:1", "list", "--limit", "5"]);
    expect(early.code).toBe(2);
    expect(early.stderr).toMatch(
      /^memsvc: unknown option --url; options go after the command: memsvc list --url http:\/\/127\.0\.0\.1:1 --limit 5\n/,
    );
    const unquoted = cli(["remember", "two", "words"]);
    expect(unquoted.code).toBe(2);
    expect(unquoted.stderr).toContain('quote it: memsvc remember "two words"');

    const notUrl = cli(["stats", "--url", "localhost:8080"]);
    expect([notUrl.code, notUrl.stderr]).toEqual([
      2,
      'memsvc: --url (or MEMSVC_URL): expected an http:// or https:// URL, got "localhost:8080"\n',
    ]);
  });

  it("names a --file it cannot read or write: no stack trace, no blame on the service", () => {
    const dir = makeTempDir();
    const missing = join(dir, "missing.ndjson");
    const attempts = [
      [["import", "--file", missing], `--file ${missing}: no such file or directory`],
      [["import", "--file", dir], `--file ${dir}: is a directory, expected an NDJSON file`],
      [["export", "--file", join(dir, "no", "x.ndjson")], "no such file or directory"],
      [["export", "--file", dir], `--file ${dir}: is a directory, expected an NDJSON file`],
    ] as const;
    for (const [args, said] of attempts) {
      const answer = cli(args);
      expect(answer.code, args.join(" ")).toBe(2);
      expect(answer.stderr, args.join(" ")).toMatch(/^memsvc: --file .*\n$/);
      expect(answer.stderr, args.join(" ")).toContain(said);
      expect(answer.stderr).not.toMatch(/ at |Error|cannot reach/);
    }
  });
});
