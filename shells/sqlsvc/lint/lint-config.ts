import { readFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import * as v from "valibot";
import { parse as parseYaml } from "yaml";
import { AgentServicesError } from "../../../core/errors.js";
import type { LintOptions } from "../../../core/sql/lint/index.js";
import { lintOptionEntries, toLintOptions } from "./lint-options-schema.js";
import { dialectNamed } from "../cli/dialect-names.js";
import { ignoreGlobProblem, ignoreGlobs, type IgnoreGlobs } from "./ignore-globs.js";

/** The name of the project file `sqlsvc lint` and `sqlsvc fix` look for. */
export const LINT_CONFIG_FILE = ".sqlsvc.yaml";

/**
 * One project configuration: the lint options, the ignore globs (relative to `dir`), and where
 * it came from (undefined for the built-in defaults).
 */
export interface LintConfig {
  readonly options: LintOptions;
  readonly ignore: IgnoreGlobs;
  readonly dir: string;
  readonly source: string | undefined;
}

const globList = v.optional(
  v.array(
    v.pipe(
      v.string("expected a glob"),
      v.check(
        (glob) => ignoreGlobProblem(glob) === undefined,
        (issue) => ignoreGlobProblem(String(issue.input)) ?? "expected a glob",
      ),
    ),
    "expected a list of globs",
  ),
);

/**
 * `.sqlsvc.yaml`: the lint options of `lint_sql` (`rules`, `exclude_rules`, `dialect`,
 * `rule_options`) plus `ignore` globs. Unknown keys are errors, so a typo never falls back to a
 * default silently. `rules` and `exclude_rules` may also be one comma-separated string, as
 * SQLFluff users write them.
 *
 * @example
 * v.safeParse(LintConfigSchema, { rules: ["L001"], ignore: ["vendor/**"] }).success; // true
 */
export const LintConfigSchema = v.strictObject(
  { ...lintOptionEntries, ignore: globList },
  (issue) =>
    issue.expected === "never"
      ? `unknown key (expected rules, exclude_rules, dialect, rule_options or ignore)`
      : "expected a mapping of settings",
);

/**
 * Reads and validates the configuration text of `source`; every problem is reported at once,
 * each naming its key (`.sqlsvc.yaml: rule_options.L005.max_length: expected an integer …`).
 *
 * @example
 * parseLintConfig("rules: L001, L007\nignore: [build/**]", "/repo/.sqlsvc.yaml").options.rules; // ["L001", "L007"]
 */
export function parseLintConfig(text: string, source: string): LintConfig {
  let data: unknown;
  try {
    data = parseYaml(text) ?? {};
  } catch (error) {
    throw new AgentServicesError(
      "config_invalid",
      `${source}: not valid YAML: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
    );
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new AgentServicesError(
      "config_invalid",
      `${source}: (top level): expected a mapping of settings`,
    );
  }
  // SQLFluff users write rule lists as one comma-separated string, and dialects by other names.
  const record = { ...(data as Record<string, unknown>) };
  if (typeof record["dialect"] === "string")
    record["dialect"] = dialectNamed(record["dialect"]) ?? record["dialect"];
  for (const key of ["rules", "exclude_rules"]) {
    const value = record[key];
    if (typeof value === "string")
      record[key] = value
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== "");
  }
  data = record;
  const parsed = v.safeParse(LintConfigSchema, data, { abortEarly: false });
  if (!parsed.success) {
    const problems = parsed.issues.map((issue) => {
      const path = v.getDotPath(issue) ?? "(top level)";
      return `${source}: ${path}: ${issue.message}`;
    });
    throw new AgentServicesError("config_invalid", problems.join("\n"));
  }
  const { ignore, ...options } = parsed.output;
  return {
    options: toLintOptions(options),
    ignore: ignoreGlobs(ignore ?? []),
    dir: dirname(source),
    source,
  };
}

const NO_GLOBS = ignoreGlobs([]);

/**
 * Finds the configuration of each linted file: the one given with `--config`, else the nearest
 * `.sqlsvc.yaml` in the file's directory or above (each directory is looked at once, and each
 * file read once), else the defaults.
 *
 * @example
 * const configs = new LintConfigFinder(undefined, process.cwd());
 * const config = await configs.forFile("queries/report.sql");
 */
export class LintConfigFinder {
  private readonly byDir = new Map<string, Promise<LintConfig | undefined>>();
  private readonly explicit: Promise<LintConfig> | undefined;

  constructor(
    configPath: string | undefined,
    private readonly cwd: string,
  ) {
    this.explicit =
      configPath === undefined
        ? undefined
        : this.load(resolve(cwd, configPath), true).then((c) => c as LintConfig);
    // Awaited per file (and by `check`); never an unhandled rejection meanwhile.
    this.explicit?.catch(() => undefined);
  }

  /** Loads the `--config` file now, so a bad one fails before any file is read. */
  async check(): Promise<void> {
    await this.explicit;
  }

  /** The configuration for `file` (a path, relative to the working directory or absolute). */
  async forFile(file: string): Promise<LintConfig> {
    if (this.explicit !== undefined) return this.explicit;
    const found = await this.inDir(dirname(resolve(this.cwd, file)));
    return found ?? { options: {}, ignore: NO_GLOBS, dir: this.cwd, source: undefined };
  }

  /**
   * True when `file` matches an ignore glob of its configuration (globs are relative to the
   * configuration file's directory).
   */
  static ignores(config: LintConfig, file: string, cwd: string): boolean {
    if (config.ignore.patterns.length === 0) return false;
    const path = relative(config.dir, resolve(cwd, file)).split(sep).join("/");
    return config.ignore.ignores(path);
  }

  private inDir(dir: string): Promise<LintConfig | undefined> {
    let pending = this.byDir.get(dir);
    if (pending === undefined) {
      pending = this.load(join(dir, LINT_CONFIG_FILE), false).then((config) => {
        if (config !== undefined) return config;
        const parent = dirname(dir);
        return parent === dir ? undefined : this.inDir(parent);
      });
      this.byDir.set(dir, pending);
    }
    return pending;
  }

  private async load(path: string, required: boolean): Promise<LintConfig | undefined> {
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (!required && (code === "ENOENT" || code === "ENOTDIR")) return undefined;
      throw new AgentServicesError(
        "config_invalid",
        `${path}: cannot read: ${String((error as Error).message)}`,
      );
    }
    return parseLintConfig(text, path);
  }
}
