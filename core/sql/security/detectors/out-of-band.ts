import type { Token } from "../../token.js";
import type { Detector } from "../detector.js";
import { makeFinding } from "../patterns.js";

/** Procedures and packages that run commands or reach the network or file system. */
const OUT_OF_BAND_NAMES: ReadonlySet<string> = new Set([
  "XP_CMDSHELL", "XP_DIRTREE", "XP_FILEEXIST", "XP_SUBDIRS", "XP_REGREAD", "XP_REGWRITE",
  "XP_SERVICECONTROL", "SP_OACREATE", "SP_OAMETHOD", "SP_MAKEWEBTASK", "UTL_HTTP", "UTL_INADDR",
  "UTL_TCP", "UTL_SMTP", "UTL_FILE", "DBMS_LDAP", "HTTPURITYPE", "OPENROWSET", "OPENDATASOURCE",
  "SYS_EXEC", "SYS_EVAL",
]); // prettier-ignore
/** Functions that read or write server files (called with parentheses). */
const FILE_CALLS: ReadonlySet<string> = new Set([
  "LOAD_FILE",
  "PG_READ_FILE",
  "PG_READ_BINARY_FILE",
  "PG_LS_DIR",
  "LO_IMPORT",
  "LO_EXPORT",
]);

/** A UNC path (`\\host\share`, `//host/share`) in a string literal. */
const NETWORK_PATH = /^[en]?'(?:\\\\|\/\/)[^\\/']/i;
/** Table-name tokens read after BULK INSERT before its FROM (`[db].[dbo].[t]` is five). */
const BULK_TARGET = 8;

/** The string after FROM in `BULK INSERT <table> FROM '…'` starting at `k`, if there is one. */
function bulkSource(sig: readonly Token[], k: number): string | undefined {
  for (let j = k; j < k + BULK_TARGET; j++) {
    if (sig[j]?.upper === "FROM")
      return sig[j + 1]?.kind === "string" ? sig[j + 1]?.text : undefined;
  }
  return undefined;
}

/**
 * Command execution and data exfiltration through side channels: `xp_cmdshell`, `xp_dirtree`,
 * `sp_OACreate`, `EXEC master..`, `LOAD_FILE()`, `INTO OUTFILE`/`DUMPFILE`, `UTL_HTTP`,
 * `UTL_INADDR`, `DBMS_LDAP`, `OPENROWSET`, `COPY … TO/FROM PROGRAM`, `pg_read_file()`, `lo_export()`,
 * `BULK INSERT … FROM '\\host\share\file'`.
 *
 * @example
 * scanSql("EXEC xp_cmdshell 'dir'").findings[0]?.pattern; // "OUT_OF_BAND"
 */
export const outOfBandDetector: Detector = {
  family: "out-of-band",
  patterns: ["OUT_OF_BAND"],
  detect(ctx, emit) {
    const sig = ctx.sig;
    for (let k = 0; k < sig.length; k++) {
      const t = sig[k] as Token;
      if (t.kind !== "identifier" && t.kind !== "keyword") continue;
      const next = sig[k + 1];
      if (OUT_OF_BAND_NAMES.has(t.upper)) {
        emit(makeFinding("OUT_OF_BAND", "CRITICAL", `Pattern detected: ${t.text}`));
      } else if (FILE_CALLS.has(t.upper) && next?.text === "(") {
        emit(makeFinding("OUT_OF_BAND", "CRITICAL", `Pattern detected: ${t.text}(`));
      } else if (t.upper === "INTO" && (next?.upper === "OUTFILE" || next?.upper === "DUMPFILE")) {
        emit(makeFinding("OUT_OF_BAND", "CRITICAL", `Pattern detected: ${t.text} ${next.text}`));
      } else if ((t.upper === "EXEC" || t.upper === "EXECUTE") && next?.upper === "MASTER") {
        emit(makeFinding("OUT_OF_BAND", "CRITICAL", `Pattern detected: ${t.text} ${next.text}`));
      } else if (
        t.upper === "BULK" &&
        next?.upper === "INSERT" &&
        bulkSource(sig, k + 2)?.match(NETWORK_PATH) != null
      ) {
        // `BULK INSERT t FROM '\\host\share\x'`: the server reaches out over SMB (issue 8).
        emit(
          makeFinding(
            "OUT_OF_BAND",
            "CRITICAL",
            "Pattern detected: BULK INSERT from a network path",
          ),
        );
      } else if (
        (t.upper === "TO" || t.upper === "FROM") &&
        next?.upper === "PROGRAM" &&
        sig[k + 2]?.kind === "string"
      ) {
        emit(makeFinding("OUT_OF_BAND", "CRITICAL", `Pattern detected: ${t.text} ${next.text}`));
      }
    }
  },
};
