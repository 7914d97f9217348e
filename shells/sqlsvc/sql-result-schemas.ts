import * as v from "valibot";

/**
 * The result schemas of the seven SQL tools, advertised as each tool's `outputSchema` (MCP
 * structured output; results go out as `structuredContent`). Strict objects: a field the schema
 * does not list is never sent, and the fields that only some options add are optional and say
 * which option adds them. They mirror the core's result types in `core/sql/results.ts`; a test
 * validates real results of every tool against them.
 *
 * @example
 * v.is(validateResultSchema, { valid: true }); // true
 */

const count = (description: string) =>
  v.pipe(v.number(), v.integer(), v.minValue(0), v.description(description));
const text = (description: string) => v.pipe(v.string(), v.description(description));
const texts = (description: string) => v.pipe(v.array(v.string()), v.description(description));
const position = (description: string) =>
  v.pipe(v.number(), v.integer(), v.minValue(1), v.description(description));

const problemSchema = v.strictObject({
  code: text(
    "syntax_error, unknown_table, unknown_column, ambiguous_column or unresolved_reference.",
  ),
  message: text("What is wrong, without the position."),
  line: position("1-based line of the name."),
  column: position("1-based column of the name, in characters."),
});

/** `validate_sql`. */
export const validateResultSchema = v.strictObject({
  valid: v.pipe(
    v.boolean(),
    v.description("True when the SQL is valid (and, with a schema, its names are known)."),
  ),
  error: v.optional(text("When invalid: 'invalid SQL: line L, column C: reason'.")),
  dialect: v.optional(text("The dialect, echoed as given (only when one was given).")),
  errors: v.optional(
    v.pipe(
      v.array(problemSchema),
      v.description("Only with schema: every problem, in text order."),
    ),
  ),
  schema_checked: v.optional(
    v.pipe(
      v.boolean(),
      v.description("Only with schema: false when the names could not be checked (syntax error)."),
    ),
  ),
});

const formatOptionsSchema = v.strictObject({
  indent_size: count("Spaces per indentation level."),
  uppercase_keywords: v.boolean(),
  add_semicolon: v.boolean(),
});

/** `format_sql`. */
export const formatResultSchema = v.strictObject({
  formatted_sql: text("The formatted SQL."),
  options: v.pipe(formatOptionsSchema, v.description("The options used, defaults filled in.")),
  target_dialect: v.optional(
    text("Only with target_dialect: the dialect the SQL was transpiled to, echoed as given."),
  ),
});

/** `parse_sql`. */
export const parseResultSchema = v.strictObject({
  statement_count: count("Number of statements (empty ones skipped)."),
  statement_types: texts("*ast.<Kind>Statement (or *ast.SetOperation) per statement."),
});

const lineageSchema = v.strictObject({
  statement: position("1-based statement number."),
  column: text("The output column (_N when unnamed, * for a wildcard)."),
  sources: texts("table.column of every table column it is computed from."),
});

/** `extract_metadata`. */
export const metadataResultSchema = v.strictObject({
  tables: texts("Tables referenced, first-seen order, CTE names excluded."),
  columns: texts("Columns referenced, once per distinct (table, column) pair."),
  functions: texts("Functions called, as written, each once."),
  lineage: v.optional(
    v.pipe(
      v.array(lineageSchema),
      v.description("Only with lineage: true: the sources of each output column."),
    ),
  ),
});

const findingSchema = v.strictObject({
  severity: v.picklist(["CRITICAL", "HIGH", "MEDIUM", "LOW"]),
  pattern: text("TAUTOLOGY, UNION_INJECTION, STACKED_QUERY, COMMENT_BYPASS, TIME_BASED, …"),
  description: v.string(),
  risk: v.string(),
  suggestion: v.string(),
});

/** `security_scan`. */
export const scanResultSchema = v.strictObject({
  is_clean: v.boolean(),
  has_critical: v.boolean(),
  has_high: v.pipe(v.boolean(), v.description("True when any HIGH or CRITICAL finding exists.")),
  total_count: count("All findings."),
  critical_count: count("CRITICAL findings."),
  high_count: count("HIGH findings."),
  medium_count: count("MEDIUM findings."),
  low_count: count("LOW findings."),
  findings: v.array(findingSchema),
});

const violationSchema = v.strictObject({
  rule: text("Rule code, e.g. L001."),
  rule_name: text("Rule name, e.g. TrailingWhitespace."),
  severity: v.picklist(["error", "warning", "info"]),
  message: v.string(),
  line: position("1-based line."),
  column: position("1-based column, in characters."),
  suggestion: v.string(),
});

const violationsSchema = v.pipe(
  v.array(v.union([violationSchema, v.string()])),
  v.description(
    "Sorted by line, column, rule. Objects; with compact: true, one line each: 'CODE line:col message'.",
  ),
);

const lintListSchema = v.strictObject({
  violation_count: count("Number of violations."),
  violations: violationsSchema,
});

/** `lint_sql`. */
export const lintResultSchema = v.strictObject({
  violation_count: count("Number of violations in the SQL as given."),
  violations: violationsSchema,
  fixed_sql: v.optional(text("Only with fix: true: the SQL with every safe fix applied.")),
  changed: v.optional(
    v.pipe(v.boolean(), v.description("Only with fix: true: fixed_sql differs.")),
  ),
  fixed_count: v.optional(count("Only with fix: true: violations the fixes removed.")),
  remaining: v.optional(
    v.pipe(lintListSchema, v.description("Only with fix: true: the violations left in fixed_sql.")),
  ),
});

const seedLintSchema = v.strictObject({
  violation_count: count("Number of violations."),
  violations: v.array(violationSchema),
});

const seedFormatSchema = v.strictObject({
  formatted_sql: v.string(),
  options: formatOptionsSchema,
});

const seedValidateSchema = v.strictObject({
  valid: v.boolean(),
  error: v.optional(v.string()),
});

const seedMetadataSchema = v.strictObject({
  tables: v.array(v.string()),
  columns: v.array(v.string()),
  functions: v.array(v.string()),
});

/** `analyze_sql`: a part is missing when it failed, and its message is under `errors`. */
export const analyzeResultSchema = v.strictObject({
  validate: v.optional(seedValidateSchema),
  parse: v.optional(parseResultSchema),
  metadata: v.optional(seedMetadataSchema),
  security: v.optional(scanResultSchema),
  lint: v.optional(seedLintSchema),
  format: v.optional(seedFormatSchema),
  errors: v.optional(
    v.pipe(
      v.strictObject({
        validate: v.optional(v.string()),
        parse: v.optional(v.string()),
        metadata: v.optional(v.string()),
        security: v.optional(v.string()),
        lint: v.optional(v.string()),
        format: v.optional(v.string()),
      }),
      v.description("Only when a part failed: its message by part name."),
    ),
  ),
});
