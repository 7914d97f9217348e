import type { SqlDialect } from "../../core/sql/dialects.js";
import type {
  SqlColumnLineage,
  SqlSchema,
  SqlSchemaCheck,
  SqlSchemaIssue,
  SqlSemantics,
  SqlTranspileResult,
} from "../../core/ports/sql-semantics.js";
import { SourceText } from "./source-text.js";

/** The part of `@polyglot-sql/sdk` the semantics use (the module the parser loaded). */
export interface PolyglotSemanticsModule {
  transpile(sql: string, read: string, write: string): PolyglotTranspileResult;
  validateWithSchema(
    sql: string,
    schema: PolyglotSchema,
    dialect?: string,
    options?: { checkReferences?: boolean },
  ): { valid: boolean; errors: PolyglotIssue[] };
  outputColumns(sql: string, dialect?: string): PolyglotOutputResult;
  lineageAt(ordinal: number, sql: string, dialect?: string): PolyglotLineageResult;
}

interface PolyglotTranspileResult {
  success: boolean;
  sql?: string[] | null;
  error?: string | null;
  errorLine?: number;
  errorColumn?: number;
  errorStart?: number;
}

interface PolyglotIssue {
  message: string;
  severity: string;
  code: string;
  line?: number;
  column?: number;
  start?: number;
}

interface PolyglotSchema {
  tables: { name: string; schema?: string; columns: { name: string; type: string }[] }[];
  strict?: boolean;
}

interface PolyglotOutputResult {
  success: boolean;
  output?: { columns: PolyglotOutputColumn[] } | null;
}

type PolyglotOutputColumn =
  | { kind: "named"; name: string; ordinal: number | null }
  | { kind: "unnamed"; ordinal: number | null }
  | { kind: "wildcard"; qualifier: string | null; startOrdinal: number | null };

interface PolyglotLineageResult {
  success: boolean;
  lineage?: PolyglotLineageNode;
}

interface PolyglotLineageNode {
  name: string;
  source_name: string;
  source_kind: string;
  downstream: PolyglotLineageNode[];
}

/** Polyglot's schema-check codes, as the tool reports them. */
const SCHEMA_CODES: Readonly<Record<string, string>> = {
  E200: "unknown_table",
  E201: "unknown_column",
  E221: "ambiguous_column",
  E222: "unresolved_reference",
};

/**
 * {@link SqlSemantics} over the polyglot engine (its `transpile`, `validateWithSchema` with
 * reference checks, `outputColumns` and `lineageAt`). Positions are recomputed from polyglot's
 * code-point offsets (its own line/column point past the name).
 *
 * @example
 * const semantics = new PolyglotSemantics(() => module, { mysql: "mysql", … });
 * semantics.checkSchema("SELECT nme FROM users", { users: ["id", "name"] }, "generic");
 * // { checked: true, issues: [{ code: "unknown_column", line: 1, column: 8, reason: "unknown column 'nme' in table 'users'" }] }
 */
export class PolyglotSemantics implements SqlSemantics {
  constructor(
    private readonly module: () => PolyglotSemanticsModule,
    private readonly dialects: Readonly<Record<SqlDialect, string>>,
  ) {}

  transpile(sql: string, from: SqlDialect, to: SqlDialect): SqlTranspileResult {
    const result = beyondEngine(
      () => this.module().transpile(sql, this.dialects[from], this.dialects[to]),
      (): PolyglotTranspileResult => ({ success: false, error: TOO_DEEP }),
    );
    if (result.success) return { ok: true, statements: result.sql ?? [] };
    const source = new SourceText(sql);
    const at =
      typeof result.errorStart === "number"
        ? source.position(source.indexOfCodePoint(result.errorStart))
        : { line: result.errorLine ?? 1, column: result.errorColumn ?? 1 };
    const reason = (result.error ?? "cannot read the SQL")
      .replace(
        /^(?:Parse error|Tokenization error|Syntax error)?\s*(?:at line \d+, column \d+)?:?\s*/i,
        "",
      )
      .replace(/^./, (c) => c.toLowerCase());
    return { ok: false, error: { ...at, reason } };
  }

  checkSchema(sql: string, schema: SqlSchema, dialect: SqlDialect): SqlSchemaCheck {
    const result = this.module().validateWithSchema(
      sql,
      toPolyglotSchema(schema),
      this.dialects[dialect],
      {
        checkReferences: true,
      },
    );
    const source = new SourceText(sql);
    const issues: SqlSchemaIssue[] = [];
    for (const issue of result.errors) {
      if (issue.severity !== "error") continue;
      const code = SCHEMA_CODES[issue.code];
      // Anything else is the engine failing to read SQL our grammars accepted: no verdict.
      if (code === undefined) return { checked: false, issues: [] };
      const at =
        typeof issue.start === "number"
          ? source.position(source.indexOfCodePoint(issue.start))
          : { line: issue.line ?? 1, column: issue.column ?? 1 };
      issues.push({ code, ...at, reason: lowerFirst(issue.message) });
    }
    return { checked: true, issues };
  }

  lineage(
    statement: string,
    dialect: SqlDialect,
    maxColumns: number,
  ): readonly SqlColumnLineage[] | undefined {
    return beyondEngine(
      () => this.traceColumns(statement, dialect, maxColumns),
      () => undefined,
    );
  }

  private traceColumns(
    statement: string,
    dialect: SqlDialect,
    maxColumns: number,
  ): readonly SqlColumnLineage[] | undefined {
    const mod = this.module();
    const name = this.dialects[dialect];
    const output = mod.outputColumns(statement, name);
    if (!output.success || output.output == null) return undefined;
    const lineage: SqlColumnLineage[] = [];
    for (const column of output.output.columns) {
      if (lineage.length >= maxColumns) break;
      if (column.kind === "wildcard") {
        lineage.push({
          column: column.qualifier === null ? "*" : `${column.qualifier}.*`,
          sources: [],
        });
        continue;
      }
      const label =
        column.kind === "named" ? column.name : `_${String(column.ordinal ?? lineage.length)}`;
      if (column.ordinal === null) {
        lineage.push({ column: label, sources: [] });
        continue;
      }
      const traced = mod.lineageAt(column.ordinal, statement, name);
      lineage.push({
        column: label,
        sources: traced.success && traced.lineage !== undefined ? sourcesOf(traced.lineage) : [],
      });
    }
    return lineage;
  }
}

const TOO_DEEP = "the SQL nests deeper than the transpiler can follow";

/**
 * `run`, or `fallback` when the engine's recursion overflows the stack on text our grammars
 * accepted (a 128 KiB qualified name `a.a.a…` did in the schema check; the grammars' limits
 * bound nesting, not name chains): an answer without the analysis, never a server fault.
 */
function beyondEngine<T, F>(run: () => T, fallback: () => F): T | F {
  try {
    return run();
  } catch (error) {
    if (error instanceof RangeError || (error instanceof Error && error.name === "RuntimeError"))
      return fallback();
    throw error;
  }
}

/** The table columns at the leaves of a lineage tree, as `table.column`, each once, in order. */
function sourcesOf(root: PolyglotLineageNode): string[] {
  const found = new Set<string>();
  const pending = [root];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (node.downstream.length === 0) {
      if (node.source_kind === "table" && node.source_name !== "") {
        const column = node.name.slice(node.name.lastIndexOf(".") + 1);
        found.add(`${node.source_name}.${column}`);
      }
      continue;
    }
    for (let i = node.downstream.length - 1; i >= 0; i--) {
      pending.push(node.downstream[i] as PolyglotLineageNode);
    }
  }
  return [...found];
}

function toPolyglotSchema(schema: SqlSchema): PolyglotSchema {
  const tables: PolyglotSchema["tables"] = [];
  for (const [qualified, columns] of Object.entries(schema)) {
    const dot = qualified.lastIndexOf(".");
    const name = qualified.slice(dot + 1);
    const list = Array.isArray(columns)
      ? (columns as readonly string[]).map((column) => ({ name: column, type: "text" }))
      : Object.entries(columns as Readonly<Record<string, string>>).map(([column, type]) => ({
          name: column,
          type: type === "" ? "text" : type,
        }));
    tables.push({ name, ...(dot > 0 ? { schema: qualified.slice(0, dot) } : {}), columns: list });
  }
  return { tables, strict: true };
}

function lowerFirst(text: string): string {
  return text.replace(/^./, (c) => c.toLowerCase());
}
