/**
 * What a markdown page names that must exist in the repository: relative link targets (with
 * their `#anchor`), repository paths in code spans and commands, and code symbols in code spans.
 * Pure functions over text; `tests/unit/docs/docs-references.test.ts` feeds them the real docs
 * and the real sources.
 */

/** One name a page uses, as it is written there. */
export interface MarkdownReference {
  readonly kind: "link" | "path" | "symbol" | "word";
  /** As written (a link's target, a code span's path or identifier). */
  readonly text: string;
  /** For links: the path part, without the anchor (empty for a link to the page itself). */
  readonly target?: string;
  /** For links: the anchor, without `#`. */
  readonly anchor?: string;
}

/** What the repository holds, as the checker needs it. */
export interface RepositoryIndex {
  /** True when the repository-relative path (no leading `./`, `/` ends a directory) exists. */
  readonly exists: (path: string) => boolean;
  /** Markdown text of a repository-relative file, or undefined when it is not there. */
  readonly markdown: (path: string) => string | undefined;
  /** Names declared in the sources (classes, functions, types, constants, methods, members). */
  readonly declared: ReadonlySet<string>;
  /** Every identifier-shaped word of the sources (for constants and member names). */
  readonly words: ReadonlySet<string>;
}

/**
 * The top-level folders whose paths the docs name. A code span or a command token starting with
 * one of these (and a `/`) is a repository path and must exist.
 */
export const REPOSITORY_ROOTS = [
  "core",
  "adapters",
  "shells",
  "bench",
  "scripts",
  "tests",
  "docs",
  "assets",
] as const;

/**
 * Names in code spans that look like our symbols but belong to a platform or a dependency.
 * Each entry says whose it is; keep the list short and sorted by owner.
 */
export const EXTERNAL_NAMES: ReadonlyMap<string, string> = new Map([
  // JavaScript and Node.js
  ["AbortSignal", "Web platform"],
  ["innerHTML", "DOM"],
  ["sessionStorage", "DOM"],
  ["textContent", "DOM"],
  ["VmRSS", "a field of /proc/PID/status"],
  ["writeHead", "node:http"],
  ["AsyncLocalStorage", "node:async_hooks"],
  ["EADDRINUSE", "Node.js error code"],
  ["EBADENGINE", "npm warning code"],
  ["EISDIR", "Node.js error code"],
  ["EPIPE", "Node.js error code"],
  ["O_DSYNC", "POSIX open flag"],
  ["SharedArrayBuffer", "JavaScript"],
  ["parseArgs", "node:util"],
  ["readFileSync", "node:fs"],
  ["setImmediate", "Node.js"],
  ["timingSafeEqual", "node:crypto"],
  ["writev", "Node.js stream / the writev system call"],
  // Dependencies
  ["StreamableHTTPServerTransport", "@modelcontextprotocol/sdk"],
  ["McpServer", "@modelcontextprotocol/sdk"],
  ["bodyLimit", "hono/body-limit"],
  ["getConnInfo", "@hono/node-server"],
  ["getRequestListener", "@hono/node-server"],
  ["toJsonSchema", "@valibot/to-json-schema"],
  ["ChromaClient", "chromadb"],
  ["CohereClient", "cohere-ai"],
  ["CohereClientV2", "cohere-ai"],
  ["CohereError", "cohere-ai"],
  ["rawBody", "@hono/node-server (the body it hands to a listener)"],
  ["strictObject", "valibot"],
  ["parseSync", "libpg-query"],
  ["loadModule", "libpg-query"],
  ["TooManyRequestsError", "cohere-ai"],
  // SQL, and sample input the docs tokenise
  ["XMLType", "Oracle SQL"],
  ["getUserName", "sample input of the tokenizer in docs/memory-model.md"],
  // Other tools named for comparison
  ["GoSQLX", "the Go original"],
  ["SQLFluff", "a Python SQL linter"],
]);

const FENCE = /^\s*(```|~~~)/;

/** The page's lines with fenced code blocks marked, so prose and code are read differently. */
function splitFences(text: string): { prose: string[]; code: string[] } {
  const prose: string[] = [];
  const code: string[] = [];
  let inFence = false;
  for (const line of text.split("\n")) {
    if (FENCE.test(line)) {
      inFence = !inFence;
      continue;
    }
    (inFence ? code : prose).push(line);
    (inFence ? prose : code).push("");
  }
  return { prose, code };
}

/**
 * GitHub's anchor for a heading: lower case, punctuation and symbols dropped, spaces to hyphens;
 * a repeated heading gets `-1`, `-2`, ….
 *
 * @example
 * headingAnchors("# A `b` (c): d\n## A `b` (c): d").has("a-b-c-d-1"); // true
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of splitFences(markdown).prose) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const text = (heading[1] ?? "")
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/[`*]/g, "")
      .replace(/<[^>]+>/g, "");
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

const IDENTIFIER = String.raw`[A-Za-z_$][\w$]*`;
/** `MemoryService`, `TopK`: two or more capitalised parts. */
const PASCAL = /^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$/;
/** `createMemoryApp`: lower case first, then at least one capital. */
const CAMEL = /^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$/;
/** `CONFIG_KEYS`: upper case with an underscore. */
const UPPER_SNAKE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
/** Environment variables are configuration, not symbols. */
const ENVIRONMENT = /^(?:MEMSVC|SQLSVC|BENCH|COHERE|CO|OPENAI|NODE|UV|VITEST)_/;

/** The symbol part of a code span, or undefined when the span is not a code symbol. */
function symbolsOf(span: string): MarkdownReference[] {
  // `parseInput()`, `tools.validate(…)`, `new MemoryService(…)`, `Embedder.embedQuery`
  const match = new RegExp(
    String.raw`^(?:new\s+)?(${IDENTIFIER}(?:\.#?${IDENTIFIER})*)(\((?:[^()]|\([^()]*\))*\))?$`,
  ).exec(span.trim());
  if (match === null) return [];
  const [head = "", ...members] = (match[1] ?? "").split(".");
  const references: MarkdownReference[] = [];
  // One-word names (`recall()`, `user()`, `CHAR(`) are too often SQL or English to check.
  const headIsSymbol = PASCAL.test(head) || CAMEL.test(head);
  if (EXTERNAL_NAMES.has(head) || head in globalThis) return [];
  if (headIsSymbol) references.push({ kind: "symbol", text: head });
  else if (UPPER_SNAKE.test(head) && !ENVIRONMENT.test(head))
    references.push({ kind: "word", text: head });
  // Members of our symbols must be named somewhere in the sources; members of other things
  // (`c.req.valid`) are not checked.
  if (headIsSymbol && PASCAL.test(head)) {
    for (const member of members) references.push({ kind: "word", text: member.replace("#", "") });
  }
  return references;
}

/** Repository paths among the whitespace-separated tokens of a command or code span. */
function pathsOf(text: string): MarkdownReference[] {
  const roots = REPOSITORY_ROOTS.join("|");
  const references: MarkdownReference[] = [];
  for (const raw of text.split(/[\s"'=,;()[\]]+/)) {
    const token = raw.replace(/^\.\//, "").replace(/[.:]+$/, "");
    if (!new RegExp(`^(?:${roots})/`).test(token)) continue;
    // Placeholders and globs (`rules/<code>-<name>.ts`, `tests/**`, `…`) name no one file.
    if (/[<>*…{}$]|\.\.\./.test(token)) continue;
    references.push({ kind: "path", text: token.replace(/#.*$/, "") });
  }
  return references;
}

/**
 * Everything a markdown page names that the docs test checks: links (`[x](target#anchor)` and
 * `[x]: target`), repository paths in code spans and in fenced code, and code symbols in code
 * spans. Web links and `mailto:` are left out.
 *
 * @example
 * extractReferences("See [a](b.md#c) and `core/x.ts`, `MemoryService`.").map((r) => r.kind);
 * // ["link", "path", "symbol"]
 */
export function extractReferences(markdown: string): MarkdownReference[] {
  const { prose, code } = splitFences(markdown);
  const text = prose.join("\n");
  const references: MarkdownReference[] = [];
  const links = [
    ...text.matchAll(/!?\[(?:[^\]]|\][^(])*?\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g),
    ...text.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm),
  ];
  for (const link of links) {
    const written = link[1] ?? "";
    if (/^[a-z][a-z+.-]*:/i.test(written)) continue; // https:, mailto:
    const hash = written.indexOf("#");
    const target = hash === -1 ? written : written.slice(0, hash);
    const anchor = hash === -1 ? undefined : written.slice(hash + 1);
    references.push({
      kind: "link",
      text: written,
      target: decodeURIComponent(target),
      ...(anchor === undefined ? {} : { anchor }),
    });
  }
  // Code spans, outside fenced blocks; a link's text may be one too.
  for (const span of text.matchAll(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g)) {
    const content = (span[2] ?? "").replace(/\s+/g, " ").trim();
    references.push(...pathsOf(content), ...symbolsOf(content));
  }
  references.push(...pathsOf(code.join("\n")));
  return references;
}

/** Normalises `a/./b/../c` to `a/c`; a path that climbs out of the repository keeps a `../`. */
function normalise(path: string): string {
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === ".." && parts.length > 0 && parts.at(-1) !== "..") parts.pop();
    else parts.push(part);
  }
  return parts.join("/") + (path.endsWith("/") && parts.length > 0 ? "/" : "");
}

/**
 * The references of one page that do not hold, each as `file: reference (why)`.
 *
 * @example
 * brokenReferences("docs/a.md", "[x](missing.md)", index); // ["docs/a.md: missing.md (no such file)"]
 */
export function brokenReferences(file: string, markdown: string, repo: RepositoryIndex): string[] {
  const folder = file.includes("/") ? file.slice(0, file.lastIndexOf("/") + 1) : "";
  const broken: string[] = [];
  const seen = new Set<string>();
  const report = (reference: MarkdownReference, why: string) => {
    const line = `${file}: ${reference.text} (${why})`;
    if (!seen.has(line)) broken.push(line);
    seen.add(line);
  };
  for (const reference of extractReferences(markdown)) {
    if (reference.kind === "link") {
      const path = reference.target === "" ? file : normalise(folder + (reference.target ?? ""));
      if (path.startsWith("../") || path === "..") {
        report(reference, "outside the repository");
        continue;
      }
      if (!repo.exists(path)) {
        report(reference, "no such file");
        continue;
      }
      if (reference.anchor !== undefined && path.endsWith(".md")) {
        const target = repo.markdown(path);
        if (target !== undefined && !headingAnchors(target).has(reference.anchor))
          report(reference, `no heading #${reference.anchor} in ${path}`);
      }
    } else if (reference.kind === "path") {
      if (!repo.exists(normalise(reference.text))) report(reference, "no such path");
    } else if (reference.kind === "symbol") {
      if (!repo.declared.has(reference.text)) report(reference, "declared nowhere in the sources");
    } else if (!repo.words.has(reference.text)) {
      report(reference, "named nowhere in the sources");
    }
  }
  return broken;
}

/**
 * The names a source file declares: `class|function|interface|type|const|let|var|enum NAME`,
 * `export { NAME }`, destructured constants, methods and members (`NAME(`, `NAME:` at the start
 * of a line).
 *
 * @example
 * declaredNames("export function parseInput() {}\nclass A {\n  run(): void {}\n}"); // parseInput, A, run
 */
export function declaredNames(source: string): string[] {
  const names: string[] = [];
  const patterns = [
    new RegExp(
      String.raw`\b(?:class|function\*?|interface|type|const|let|var|enum|namespace)\s+(${IDENTIFIER})`,
      "g",
    ),
    new RegExp(
      String.raw`^\s*(?:(?:export|public|private|protected|static|async|readonly|get|set|override|abstract|declare)\s+)*#?(${IDENTIFIER})\??\s*(?:<[^>\n]*>)?\s*[(:=]`,
      "gm",
    ),
  ];
  for (const pattern of patterns) {
    for (const match of source.matchAll(pattern)) names.push(match[1] ?? "");
  }
  for (const list of source.matchAll(/(?:export|import|const|let)\s+(?:type\s+)?\{([^}]*)\}/g)) {
    for (const part of (list[1] ?? "").split(",")) {
      for (const name of part.replace(/\btype\b/g, "").split(/\s+as\s+|:/)) {
        if (name.trim() !== "") names.push(name.trim());
      }
    }
  }
  return names;
}
