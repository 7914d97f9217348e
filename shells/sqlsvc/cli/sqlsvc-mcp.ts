#!/usr/bin/env node
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { isAgentServicesError } from "../../../core/errors.js";
import { HELP_AND_VERSION, isCommandLineError } from "../../common/command-line.js";
import { packageVersion } from "../../common/package-version.js";
import { createJsonLogger, createStderrLogger } from "../../common/logger.js";
import { loadSqlsvcConfig, type SqlsvcConfig } from "../sqlsvc-config.js";
import { unknownSqlsvcEnv } from "../unknown-env.js";

const USAGE = `Usage: sqlsvc-mcp [--stdio] [-h|--help] [-v|--version]

SQL tools (validate, format, parse, metadata, security scan, lint, analyze) for AI assistants,
served over the Model Context Protocol.

  (no option)  serve MCP over streamable HTTP on POST /mcp
  --stdio      serve MCP over stdin/stdout (for assistants that launch the server)
  -h, --help     show this help
  -v, --version  print the version

Environment:
  SQLSVC_MCP_HOST        bind address (default 127.0.0.1)
  SQLSVC_MCP_PORT        port, 1-65535 (default 8080)
  SQLSVC_MCP_AUTH_TOKEN  bearer token required on every request (default empty: no auth)
  SQLSVC_MCP_WORKERS     HTTP worker processes (default: one per core)
  SQLSVC_MCP_CALL_BUDGET_MS  longest a call on a text over 16 KiB, or asking for schema,
                             target_dialect or lineage, may run (default 10000)
  SQLSVC_MCP_ALLOWED_HOSTS   more Host names served, comma-separated (default: IP addresses,
                             localhost and the bind host; others get 421)
  SQLSVC_MCP_ALLOWED_ORIGINS more browser origins allowed, comma-separated (default: its own;
                             others get 403)
`;

const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(argv: readonly string[]): Promise<number> {
  const options = { ...HELP_AND_VERSION, stdio: { type: "boolean" } } as const;
  let values;
  try {
    ({ values } = parseArgs({ args: [...argv], options }));
  } catch (error) {
    if (!isCommandLineError(error)) throw error;
    const known = ["-h", "--help", "-v", "--version", "--stdio"];
    const culprit = argv.find((arg) => !known.includes(arg)) ?? error.message;
    process.stderr.write(`sqlsvc-mcp: unknown argument: ${culprit}\n\n${USAGE}`);
    return 2;
  }
  if (values.help === true) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (values.version === true) {
    process.stdout.write(`sqlsvc-mcp ${packageVersion()}\n`);
    return 0;
  }
  const stdio = values.stdio === true;
  let config: SqlsvcConfig;
  try {
    config = loadSqlsvcConfig(process.env, { cores: availableParallelism() });
  } catch (error) {
    if (!isAgentServicesError(error, "config_invalid")) throw error;
    for (const problem of error.message.split("\n"))
      log(`sqlsvc-mcp: configuration error: ${problem}`);
    return 1;
  }
  // A misspelt variable leaves its setting at the default: say so, in the startup lines' format.
  const warn = createStderrLogger({ level: "info", format: undefined });
  for (const warning of unknownSqlsvcEnv(process.env)) warn.warn(warning);
  const version = packageVersion();
  // Loaded only now, so --help, --version and configuration errors answer at once.
  const { loadSqlToolkit } = await import("../load-sql-toolkit.js");
  if (stdio) {
    const [{ createToolCatalog }, { serveMcpStdio }, { sqlsvcServerInfo }, { createSqlTools }] =
      await Promise.all([
        import("../../common/mcp/tool-catalog.js"),
        import("../../common/mcp/serve-mcp-stdio.js"),
        import("../sqlsvc-app.js"),
        import("../sql-tools.js"),
      ]);
    const { observeToolCalls } = await import("../../common/mcp/observe-tool-calls.js");
    const logger = createJsonLogger();
    const catalog = observeToolCalls(
      createToolCatalog(createSqlTools(await loadSqlToolkit())),
      (call) => logger.info("tool call", { ...call }),
    );
    await serveMcpStdio(sqlsvcServerInfo(version), catalog);
    return 0;
  }
  const { runSqlsvcHttp } = await import("../run-sqlsvc-http.js");
  return runSqlsvcHttp({ config, version, loadToolkit: loadSqlToolkit, log });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(`sqlsvc-mcp: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
