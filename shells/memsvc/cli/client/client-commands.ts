import { parseArgs, type ParseArgsConfig } from "node:util";
import { commandLineErrorText } from "../../../common/command-line.js";
import { ClientError, EXIT } from "./memory-client.js";
import { answering, clientFor, optionText, usageAnswer, UsageError } from "./client-run.js";
import { printJson, type ClientIo, type Run, type Values } from "./client-io.js";
import { exportMemories, importMemories } from "./transfer-commands.js";
import { age, textTable } from "./text-table.js";

export type { ClientIo } from "./client-io.js";

/** The commands that talk to a running service. */
export const CLIENT_COMMANDS = [
  "remember",
  "search",
  "recall",
  "get",
  "forget",
  "list",
  "stats",
  "export",
  "import",
] as const;
export type ClientCommand = (typeof CLIENT_COMMANDS)[number];

/** The usage lines of the client commands, for `memsvc --help`. */
export const CLIENT_USAGE = `Commands that talk to a running service (--url, default $MEMSVC_URL or http://localhost:8080;
--token, default $MEMSVC_API_AUTH_TOKEN; --json prints the service's JSON answer):
  remember TEXT [--type T] [--scope S] [--project P] [--tags a,b] [--confidence N] [--ttl-seconds N]
  search QUERY [--limit N] [--project P] [--type T] [--scope S] [--tags a,b] [--min-score X]
  recall MESSAGE [--budget N] [--project P] [--min-score X] [--context-neighbours N]
  get ID                  Show one memory
  forget ID               Delete one memory
  list [--project P] [--type T] [--scope S] [--tag T] [--q TEXT] [--limit N] [--all]
       [--cursor C]     Newest first, --limit (50) at a time; --cursor C the page after
  stats [--project P] [--type T] [--scope S] [--tag T] [--q TEXT] [--top N]
                          Counts by type and scope (of what the filters select); --top N
                          adds the N most frequent projects and tags
  export [--file F] [--vectors]   NDJSON to stdout (default) or a file
  import [--file F]               NDJSON from stdin (default) or a file

Exit codes: 0 ok, 1 service failed or unreachable, 2 usage error, 3 request refused as invalid,
4 memory not found, 5 missing or wrong token.
`;

const COMMON = {
  url: { type: "string" },
  token: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const FILTERS = {
  project: { type: "string" },
  type: { type: "string" },
  scope: { type: "string" },
} as const;

const OPTIONS: Record<ClientCommand, ParseArgsConfig["options"]> = {
  remember: {
    ...COMMON,
    ...FILTERS,
    tags: { type: "string" },
    confidence: { type: "string" },
    "ttl-seconds": { type: "string" },
  },
  search: {
    ...COMMON,
    ...FILTERS,
    tags: { type: "string" },
    limit: { type: "string" },
    "min-score": { type: "string" },
  },
  recall: {
    ...COMMON,
    project: { type: "string" },
    budget: { type: "string" },
    "min-score": { type: "string" },
    "context-neighbours": { type: "string" },
  },
  get: COMMON,
  forget: COMMON,
  list: {
    ...COMMON,
    ...FILTERS,
    tag: { type: "string", multiple: true },
    q: { type: "string" },
    limit: { type: "string" },
    cursor: { type: "string" },
    all: { type: "boolean" },
  },
  stats: {
    ...COMMON,
    ...FILTERS,
    tag: { type: "string", multiple: true },
    q: { type: "string" },
    top: { type: "string" },
  },
  export: { ...COMMON, file: { type: "string" }, vectors: { type: "boolean" } },
  import: { ...COMMON, file: { type: "string" } },
};

/** How many positional arguments each command takes, and what they are called. */
const POSITIONAL: Record<ClientCommand, string | undefined> = {
  remember: "TEXT",
  search: "QUERY",
  recall: "MESSAGE",
  get: "ID",
  forget: "ID",
  list: undefined,
  stats: undefined,
  export: undefined,
  import: undefined,
};

/**
 * Runs one client command (`memsvc remember "text"`, `memsvc search "query"`, …) against a
 * running service and resolves with the process's exit code. Tables for people on stdout,
 * `--json` for scripts, errors on stderr as `memsvc: <what the service said>`.
 *
 * @example
 * process.exitCode = await runClientCommand("search", ["deploys", "--limit", "3"], io);
 */
export async function runClientCommand(
  command: ClientCommand,
  argv: readonly string[],
  io: ClientIo,
): Promise<number> {
  let values: Values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      options: OPTIONS[command],
      allowPositionals: true,
      strict: true,
    }) as { values: Values; positionals: string[] });
  } catch (error) {
    return usage(io, commandLineErrorText(error as Error, Object.keys(OPTIONS[command] ?? {})));
  }
  if (values["help"] === true) {
    io.stdout.write(CLIENT_USAGE);
    return EXIT.ok;
  }
  const wanted = POSITIONAL[command];
  if (wanted !== undefined && positionals.length !== 1) {
    return usage(
      io,
      positionals.length === 0
        ? `${command} needs ${wanted}`
        : `${command} takes one ${wanted}; quote it: memsvc ${command} "${positionals.join(" ")}"`,
    );
  }
  if (wanted === undefined && positionals.length > 0) {
    return usage(io, `unexpected argument ${JSON.stringify(positionals[0])}`);
  }
  const client = clientFor(values, io);
  return answering(io, CLIENT_USAGE, async () => {
    try {
      await COMMANDS[command]({ client, values, arg: positionals[0] ?? "", io });
    } catch (error) {
      throw namingTheOption(error, command);
    }
    return EXIT.ok;
  });
}

/**
 * The service names the field of its body or query that it refuses (`min_score: expected a
 * number between 0 and 1, got 2`); the person typed an option: name that (`--min-score: …`).
 */
function namingTheOption(error: unknown, command: ClientCommand): unknown {
  if (!(error instanceof ClientError) || error.exitCode !== EXIT.invalid) return error;
  const field = /^([a-z_]+)(?=[:[])/.exec(error.message)?.[1];
  const option = field?.replaceAll("_", "-");
  if (field === undefined || option === undefined || !(option in (OPTIONS[command] ?? {})))
    return error;
  return new ClientError(`--${option}${error.message.slice(field.length)}`, error.exitCode);
}

function usage(io: ClientIo, message: string): number {
  return usageAnswer(io, CLIENT_USAGE, message);
}

const text = optionText;

function number(values: Values, name: string): number | undefined {
  const raw = text(values[name]);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new UsageError(`--${name} expects a number, got "${raw}"`);
  return value;
}

function tagList(values: Values, name: string): string[] | undefined {
  const raw = text(values[name]);
  return raw === undefined
    ? undefined
    : raw
        .split(",")
        .map((t) => t.trim())
        .filter((t) => t !== "");
}

/** The defined entries only (the service rejects explicit nulls it does not expect). */
function body(entries: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined));
}

interface MemoryView {
  id: string;
  content: string;
  type: string;
  scope: string;
  project?: string;
  tags?: string[];
  confidence?: number;
  created_at?: string;
}

const SESSION_NOTE =
  "note: without --scope this is a session memory, deleted after a day (memory.session_idle_hours) " +
  "without a recall; --scope permanent (or project, with --project) keeps it\n";

/** A terminal's width; into a pipe or a file, rows are whole (for `grep`, `cut` and scripts). */
const width = (io: ClientIo) =>
  io.stdout.isTTY === true ? (io.stdout.columns ?? 100) : Number.POSITIVE_INFINITY;

const COMMANDS: Record<ClientCommand, (run: Run) => Promise<void>> = {
  async remember({ client, values, arg, io }) {
    const answer = await client.json<{ id: string; deduplicated?: boolean }>(
      "POST",
      "/v1/remember",
      body({
        content: arg,
        type: text(values["type"]),
        scope: text(values["scope"]),
        project: text(values["project"]),
        tags: tagList(values, "tags"),
        confidence: number(values, "confidence"),
        ttl_seconds: number(values, "ttl-seconds"),
      }),
    );
    // The service's default scope is `session` (the seed's), which expires: say so, so that a
    // lasting fact typed without --scope is not gone tomorrow without a word.
    if (text(values["scope"]) === undefined) io.stderr.write(SESSION_NOTE);
    if (values["json"] === true) return printJson(io, answer);
    io.stdout.write(
      answer.deduplicated === true
        ? `merged into ${answer.id} (the same memory was already stored)\n`
        : `stored ${answer.id}\n`,
    );
  },

  async search({ client, values, arg, io }) {
    const answer = await client.json<{ results: { memory: MemoryView; score: number }[] }>(
      "POST",
      "/v1/search",
      body({
        message: arg,
        limit: number(values, "limit"),
        project: text(values["project"]),
        type: text(values["type"]),
        scope: text(values["scope"]),
        tags: tagList(values, "tags"),
        min_score: number(values, "min-score"),
        include: ["tags", "project"],
      }),
    );
    if (values["json"] === true) return printJson(io, answer);
    if (answer.results.length === 0) {
      io.stdout.write("no memory matches\n");
      return;
    }
    io.stdout.write(
      textTable(
        ["score", "id", "type", "scope", "project", "content"],
        answer.results.map(({ memory, score }) => [
          score.toFixed(2),
          memory.id,
          memory.type,
          memory.scope,
          memory.project ?? "",
          memory.content,
        ]),
        width(io),
      ),
    );
  },

  async recall({ client, values, arg, io }) {
    const answer = await client.json<{
      context: string;
      memory_count: number;
      tokens_used: number;
    }>(
      "POST",
      "/v1/recall",
      body({
        message: arg,
        budget: number(values, "budget"),
        project: text(values["project"]),
        min_score: number(values, "min-score"),
        context_neighbours: number(values, "context-neighbours"),
      }),
    );
    if (values["json"] === true) return printJson(io, answer);
    // stdout is the context and nothing else (`ctx=$(memsvc recall …)` goes into a prompt as it
    // is): an empty context is said on stderr, where the count goes.
    io.stdout.write(answer.context);
    io.stderr.write(
      answer.context === ""
        ? "nothing relevant remembered (0 memories)\n"
        : `${answer.memory_count} memories, ${answer.tokens_used} tokens\n`,
    );
  },

  async get({ client, values, arg, io }) {
    const memory = await client.json<Record<string, unknown>>(
      "GET",
      `/v1/memories/${encodeURIComponent(arg)}`,
    );
    if (values["json"] === true) return printJson(io, memory);
    const rows = Object.entries(memory).map(([key, value]) => [
      key,
      Array.isArray(value) ? value.join(", ") : value === null ? "never" : String(value),
    ]);
    io.stdout.write(textTable(["field", "value"], rows, width(io)));
  },

  async forget({ client, values, arg, io }) {
    const answer = await client.json("DELETE", `/v1/memories/${encodeURIComponent(arg)}`);
    if (values["json"] === true) return printJson(io, answer);
    io.stdout.write(`forgot ${arg}\n`);
  },

  async list({ client, values, io }) {
    const query = filterQuery(values);
    const limit = number(values, "limit") ?? 50;
    const all = values["all"] === true;
    query.set("limit", String(all ? 1000 : limit));
    const memories: MemoryView[] = [];
    let cursor = text(values["cursor"]) ?? null;
    // The page after those shown: said on stderr (and in --json), never dropped quietly.
    let next: string | null = null;
    do {
      if (cursor !== null) query.set("cursor", cursor);
      const page: { memories: MemoryView[]; next_cursor: string | null } = await client.json(
        "GET",
        `/v1/memories?${query.toString()}`,
      );
      memories.push(...page.memories);
      next = page.next_cursor;
      cursor = all ? next : null;
    } while (cursor !== null);
    if (values["json"] === true) return printJson(io, { memories, next_cursor: next });
    if (next !== null) {
      io.stderr.write(
        `${memories.length} shown, more match: --all shows every one, --cursor ${next} the next page\n`,
      );
    }
    if (memories.length === 0) {
      io.stdout.write("no memories\n");
      return;
    }
    const now = Date.now();
    io.stdout.write(
      textTable(
        ["id", "created", "type", "scope", "project", "content"],
        memories.map((m) => [
          m.id,
          m.created_at === undefined ? "" : age(m.created_at, now),
          m.type,
          m.scope,
          m.project ?? "",
          m.content,
        ]),
        width(io),
      ),
    );
  },

  async stats({ client, values, io }) {
    const query = filterQuery(values);
    const top = number(values, "top");
    if (top !== undefined) query.set("top", String(top));
    const search = query.toString();
    const stats = await client.json<StatsView>(
      "GET",
      search === "" ? "/v1/stats" : `/v1/stats?${search}`,
    );
    if (values["json"] === true) return printJson(io, stats);
    const facet = (name: string, counts: StatsView["by_tag"]) => [
      ...(counts?.values ?? []).map(({ value, count }) => [
        `${name} ${value === "" ? "(none)" : value}`,
        String(count),
      ]),
      ...(counts !== undefined && counts.other > 0
        ? [[`${name} (${counts.distinct - counts.values.length} others)`, String(counts.other)]]
        : []),
    ];
    const rows = [
      ["total", String(stats.total_memories)],
      ...Object.entries(stats.by_type).map(([k, n]) => [`type ${k}`, String(n)]),
      ...Object.entries(stats.by_scope).map(([k, n]) => [`scope ${k}`, String(n)]),
      ...facet("project", stats.by_project),
      ...facet("tag", stats.by_tag),
    ];
    io.stdout.write(textTable(["", "memories"], rows, width(io)));
  },

  export: exportMemories,
  import: importMemories,
};

/** `GET /v1/stats` as the CLI reads it. */
interface StatsView {
  total_memories: number;
  by_type: Record<string, number>;
  by_scope: Record<string, number>;
  by_project?: { values: { value: string; count: number }[]; other: number; distinct: number };
  by_tag?: { values: { value: string; count: number }[]; other: number; distinct: number };
}

/** The listing's filters given as options (`--tag` repeatable), as query parameters. */
function filterQuery(values: Values): URLSearchParams {
  const query = new URLSearchParams();
  for (const name of ["project", "type", "scope", "q"]) {
    const value = values[name];
    if (typeof value === "string") query.set(name, value);
  }
  for (const tag of (values["tag"] as string[] | undefined) ?? []) query.append("tag", tag);
  return query;
}
