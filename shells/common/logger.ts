/** Severity of a log line. */
export type LogLevel = "debug" | "info" | "warn" | "error";

/** Extra fields of a log line (flat JSON values). */
export type LogFields = Readonly<Record<string, string | number | boolean | null | undefined>>;

/** Where the shells log: one JSON object per line on stderr in production, a spy in tests. */
export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Options of {@link createJsonLogger}. */
export interface JsonLoggerOptions {
  /** Lines below this level are dropped (default `info`). */
  readonly level?: LogLevel;
  /** Where each line (with its `\n`) goes (default: `process.stderr`). */
  readonly write?: (line: string) => void;
  /** The clock of the `time` field (default: `new Date()`). */
  readonly now?: () => Date;
}

/**
 * A logger writing one JSON object per line: `{"time","level","msg",...fields}`. Undefined fields
 * are left out. JSON was chosen over logfmt because every log shipper parses it without setup.
 *
 * @example
 * const log = createJsonLogger({ level: "info" });
 * log.info("request", { method: "GET", path: "/healthz", status: 200, ms: 0.4 });
 * // {"time":"2026-11-21T10:00:00.000Z","level":"info","msg":"request","method":"GET",...}
 */
export function createJsonLogger(options: JsonLoggerOptions = {}): Logger {
  const min = RANK[options.level ?? "info"];
  const write = options.write ?? ((line: string) => void process.stderr.write(line));
  const now = options.now ?? (() => new Date());
  const log = (level: LogLevel) => (msg: string, fields?: LogFields) => {
    if (RANK[level] < min) return;
    write(`${JSON.stringify({ time: now().toISOString(), level, msg, ...fields })}\n`);
  };
  return { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}

/** How lines are written: JSON for machines, text for people at a terminal. */
export type LogFormat = "json" | "text";

/** Options of {@link createTextLogger}. */
export interface TextLoggerOptions extends JsonLoggerOptions {
  /** ANSI colours for the level (default false; the CLI turns them on for a terminal). */
  readonly color?: boolean;
}

const LABEL: Record<LogLevel, string> = {
  debug: "DEBUG",
  info: "INFO ",
  warn: "WARN ",
  error: "ERROR",
};
const COLOUR: Record<LogLevel, string> = {
  debug: "\u001b[2m",
  info: "\u001b[36m",
  warn: "\u001b[33m",
  error: "\u001b[31m",
};

/**
 * A logger for people at a terminal: `HH:MM:SS.mmm LEVEL message key=value …`, one line each,
 * values quoted when they hold spaces, optionally with the level in colour. The same fields as
 * the JSON lines, so nothing is lost by reading them here.
 *
 * @example
 * createTextLogger({ level: "info" }).info("listening", { address: "127.0.0.1:8080" });
 * // 10:00:00.000 INFO  listening address=127.0.0.1:8080
 */
export function createTextLogger(options: TextLoggerOptions = {}): Logger {
  const min = RANK[options.level ?? "info"];
  const write = options.write ?? ((line: string) => void process.stderr.write(line));
  const now = options.now ?? (() => new Date());
  const log = (level: LogLevel) => (msg: string, fields?: LogFields) => {
    if (RANK[level] < min) return;
    const time = now().toISOString().slice(11, 23);
    const label =
      options.color === true ? `${COLOUR[level]}${LABEL[level]}\u001b[0m` : LABEL[level];
    const rest = Object.entries(fields ?? {})
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => `${key}=${textValue(value)}`)
      .join(" ");
    write(`${time} ${label} ${msg}${rest === "" ? "" : ` ${rest}`}\n`);
  };
  return { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}

function textValue(value: string | number | boolean | null | undefined): string {
  const text = String(value);
  return /^[^\s"=]+$/.test(text) ? text : JSON.stringify(text);
}

/**
 * The service's logger on stderr: text with colours when stderr is a terminal (and `NO_COLOR` is
 * unset), JSON lines otherwise, unless `format` says which.
 *
 * @example
 * const logger = createStderrLogger({ level: "info", format: undefined }); // auto
 */
export function createStderrLogger(options: {
  readonly level: LogLevel;
  readonly format: LogFormat | undefined;
  readonly env?: Readonly<Record<string, string | undefined>>;
}): Logger {
  const terminal = process.stderr.isTTY === true;
  const format = options.format ?? (terminal ? "text" : "json");
  if (format === "json") return createJsonLogger({ level: options.level });
  const env = options.env ?? process.env;
  return createTextLogger({
    level: options.level,
    color: terminal && (env["NO_COLOR"] ?? "") === "",
  });
}

/**
 * The same logger with fields added to every line (e.g. the request id).
 *
 * @example
 * withFields(logger, { request_id: "abc" }).error("request failed", { code: "bug" });
 */
export function withFields(logger: Logger, fields: LogFields): Logger {
  // The added fields go last: a line reads `"msg":…,"code":…` as before, then `"request_id"`.
  return {
    debug: (msg, more) => logger.debug(msg, { ...more, ...fields }),
    info: (msg, more) => logger.info(msg, { ...more, ...fields }),
    warn: (msg, more) => logger.warn(msg, { ...more, ...fields }),
    error: (msg, more) => logger.error(msg, { ...more, ...fields }),
  };
}

/**
 * A logger that drops everything (for tests that do not look at logs).
 *
 * @example
 * createMemoryApp({ memory, logger: SILENT_LOGGER });
 */
export const SILENT_LOGGER: Logger = Object.freeze({
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
});
