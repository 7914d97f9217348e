import * as v from "valibot";
import { AgentServicesError } from "../../core/errors.js";

/**
 * Settings of `sqlsvc-mcp`, from environment variables, checked with valibot like memsvc's.
 *
 * @example
 * const config: SqlsvcConfig = loadSqlsvcConfig(process.env, { cores: availableParallelism() });
 */
export interface SqlsvcConfig {
  /** `SQLSVC_MCP_HOST`, default `127.0.0.1`, used as given (a bad host fails at bind). */
  readonly host: string;
  /** `SQLSVC_MCP_PORT`, default 8080, 1..65535 (0 only through {@link SqlsvcConfigOptions}). */
  readonly port: number;
  /** `SQLSVC_MCP_AUTH_TOKEN`, trimmed; empty means auth is off. */
  readonly authToken: string;
  /** `SQLSVC_MCP_WORKERS`, processes serving HTTP; default: one per core. */
  readonly workers: number;
  /**
   * `SQLSVC_MCP_CALL_BUDGET_MS`, default 10000, 100..600000: longest a tool call on a text over
   * 16 KiB may run (in a worker thread) before it is stopped with a tool error.
   */
  readonly callBudgetMs: number;
  /**
   * `SQLSVC_MCP_ALLOWED_HOSTS`, comma-separated: more `Host` names served besides IP addresses,
   * `localhost` and the bind host (`*`: any); see `OriginPolicy`. Default none.
   */
  readonly allowedHosts: readonly string[];
  /**
   * `SQLSVC_MCP_ALLOWED_ORIGINS`, comma-separated: more browser origins allowed to call
   * (`scheme://host:port`; `*`: any). Default none.
   */
  readonly allowedOrigins: readonly string[];
}

/**
 * Options of {@link loadSqlsvcConfig}.
 *
 * @example
 * loadSqlsvcConfig(process.env, { cores: os.availableParallelism() });
 */
export interface SqlsvcConfigOptions {
  /** Default for `SQLSVC_MCP_WORKERS` (the number of cores). */
  readonly cores: number;
}

const MAX_WORKERS = 64;

/** Default of `SQLSVC_MCP_CALL_BUDGET_MS`: the costliest 256 KiB texts take 1-2 s. */
export const DEFAULT_CALL_BUDGET_MS = 10_000;

/**
 * Reads and checks the environment, reporting every problem at once: throws a `config_invalid`
 * error whose message has one problem per line, each naming the variable, e.g.
 * `SQLSVC_MCP_PORT: expected integer, got "abc"` or `SQLSVC_MCP_PORT: 0 is out of range (1-65535)`.
 * Integers follow Go's `strconv.Atoi`, as the Go original did: an optional sign, then digits only
 * (`+8080` is 8080; ` 80` and `1.5` are not integers).
 *
 * Port 0 (any free port) is refused like the original does, except through
 * `SQLSVC_MCP_PORT=0` when `SQLSVC_MCP_ALLOW_PORT_0=1` is set; tests and benchmarks use that to
 * get a free port and read it back from the startup line.
 *
 * @example
 * loadSqlsvcConfig({ SQLSVC_MCP_PORT: "+9000" }, { cores: 2 });
 * // { host: "127.0.0.1", port: 9000, authToken: "", workers: 2, callBudgetMs: 10000,
 * //   allowedHosts: [], allowedOrigins: [] }
 */
export function loadSqlsvcConfig(
  env: Readonly<Record<string, string | undefined>>,
  options: SqlsvcConfigOptions,
): SqlsvcConfig {
  const parsed = v.safeParse(sqlsvcEnvSchema(options, env["SQLSVC_MCP_ALLOW_PORT_0"] === "1"), env);
  if (!parsed.success) {
    const problems = parsed.issues.map((issue) => issue.message);
    throw new AgentServicesError("config_invalid", problems.join("\n"));
  }
  return parsed.output;
}

/** The environment as a valibot schema; its output is the {@link SqlsvcConfig}. */
function sqlsvcEnvSchema(options: SqlsvcConfigOptions, allowPort0: boolean) {
  return v.pipe(
    v.object({
      SQLSVC_MCP_HOST: v.optional(v.string(), ""),
      // The original allows 1-65535; the range in the message stays that even with port 0 allowed.
      SQLSVC_MCP_PORT: goInteger("SQLSVC_MCP_PORT", 8080, {
        min: allowPort0 ? 0 : 1,
        shownMin: 1,
        max: 65_535,
      }),
      SQLSVC_MCP_AUTH_TOKEN: v.optional(v.string(), ""),
      SQLSVC_MCP_WORKERS: goInteger("SQLSVC_MCP_WORKERS", defaultWorkers(options.cores), {
        min: 1,
        max: MAX_WORKERS,
      }),
      SQLSVC_MCP_ALLOWED_HOSTS: v.optional(v.string(), ""),
      SQLSVC_MCP_ALLOWED_ORIGINS: v.optional(v.string(), ""),
      SQLSVC_MCP_CALL_BUDGET_MS: goInteger("SQLSVC_MCP_CALL_BUDGET_MS", DEFAULT_CALL_BUDGET_MS, {
        min: 100,
        max: 600_000,
      }),
    }),
    v.transform((env): SqlsvcConfig => ({
      host: env.SQLSVC_MCP_HOST === "" ? "127.0.0.1" : env.SQLSVC_MCP_HOST,
      port: env.SQLSVC_MCP_PORT,
      authToken: env.SQLSVC_MCP_AUTH_TOKEN.trim(),
      workers: env.SQLSVC_MCP_WORKERS,
      callBudgetMs: env.SQLSVC_MCP_CALL_BUDGET_MS,
      allowedHosts: commaList(env.SQLSVC_MCP_ALLOWED_HOSTS),
      allowedOrigins: commaList(env.SQLSVC_MCP_ALLOWED_ORIGINS),
    })),
  );
}

/** A comma-separated variable as its items, trimmed, empty ones dropped. */
function commaList(text: string): readonly string[] {
  return text
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

function defaultWorkers(cores: number): number {
  return Math.min(Math.max(1, Math.floor(cores)), MAX_WORKERS);
}

/**
 * An integer variable read like Go's `strconv.Atoi`: unset or empty gives `fallback`; otherwise
 * `NAME: expected integer, got "<raw>"` or `NAME: <value> is out of range (<shownMin>-<max>)`.
 */
function goInteger(
  name: string,
  fallback: number,
  range: { readonly min: number; readonly max: number; readonly shownMin?: number },
) {
  return v.pipe(
    v.optional(v.string(), ""),
    v.transform((raw) => (raw === "" ? String(fallback) : raw)),
    v.check(
      (raw) => parseGoInt(raw) !== undefined,
      (issue) => `${name}: expected integer, got ${goQuote(String(issue.input))}`,
    ),
    v.transform((raw) => parseGoInt(raw) ?? 0n),
    v.check(
      (value) => value >= range.min && value <= range.max,
      (issue) =>
        `${name}: ${String(issue.input)} is out of range (${range.shownMin ?? range.min}-${range.max})`,
    ),
    v.transform(Number),
  );
}

/** `strconv.Atoi`: optional sign then ASCII digits, within int64; undefined otherwise. */
function parseGoInt(raw: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(raw)) return undefined;
  const value = BigInt(raw.startsWith("+") ? raw.slice(1) : raw);
  const limit = 2n ** 63n;
  return value >= -limit && value < limit ? value : undefined;
}

/** Go's `%q`: double quotes, backslash escapes, control characters as `\xNN`. */
function goQuote(text: string): string {
  const escapes: Record<string, string> = {
    '"': '\\"',
    "\\": "\\\\",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\x07": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\v": "\\v",
  };
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const escape = escapes[char];
    if (escape !== undefined) out += escape;
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += char;
  }
  return `${out}"`;
}
