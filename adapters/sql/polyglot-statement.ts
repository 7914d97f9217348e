import type { ParsedStatement } from "../../core/ports/sql-parser.js";
import { MetadataCollector, type StatementNames } from "./metadata-collector.js";

/** A node of polyglot's JSON tree: an externally tagged enum (`{ select: {...} }`) or a struct. */
type PgNode = Record<string, unknown>;

/** Polyglot's typed function variants (generated from the SDK's `Expression` union). */
const FUNCTION_KEYS = new Set(
  (
    "concat_ws substring upper lower length trim l_trim r_trim replace reverse left right repeat " +
    "lpad rpad split regexp_like regexp_replace regexp_extract overlay abs round floor ceil power " +
    "sqrt cbrt ln log exp sign greatest least date_add date_sub date_diff date_trunc extract " +
    "to_date to_timestamp date time date_from_unix_date unix_date unix_seconds unix_millis " +
    "unix_micros unix_to_time_str time_str_to_date date_to_di di_to_date ts_or_di_to_di " +
    "ts_or_ds_to_datetime ts_or_ds_to_timestamp year_of_week year_of_week_iso coalesce null_if " +
    "if_func if_null nvl nvl2 count sum avg min max group_concat string_agg list_agg array_agg " +
    "count_if sum_if stddev stddev_pop stddev_samp variance var_pop var_samp median mode first " +
    "last any_value approx_distinct approx_count_distinct approx_percentile percentile " +
    "logical_and logical_or skewness bitwise_count array_concat_agg array_unique_agg " +
    "bool_xor_agg row_number rank dense_rank n_tile lead lag first_value last_value nth_value " +
    "percent_rank cume_dist percentile_cont percentile_disc contains starts_with ends_with " +
    "position initcap ascii chr char_func soundex levenshtein byte_length hex lower_hex unicode " +
    "mod_func random rand trunc_func pi radians degrees sin cos tan asin acos atan atan2 is_nan " +
    "is_inf int_div decode date_format format_date year month day hour minute second " +
    "day_of_week day_of_week_iso day_of_month day_of_year week_of_year quarter add_months " +
    "months_between last_day next_day epoch epoch_ms from_unixtime unix_timestamp make_date " +
    "make_timestamp timestamp_trunc time_str_to_unix s_h_a s_h_a1_digest time_to_unix " +
    "array_func array_length array_size cardinality array_contains array_position array_append " +
    "array_prepend array_concat array_sort array_reverse array_distinct array_join " +
    "array_to_string unnest explode explode_outer array_filter array_transform array_flatten " +
    "array_compact array_intersect array_union array_except array_remove array_zip sequence " +
    "generate exploding_generate_series to_array star_map struct_func struct_extract " +
    "named_struct map_func map_from_entries map_from_arrays map_keys map_values " +
    "map_contains_key map_concat element_at transform_keys transform_values json_extract " +
    "json_extract_scalar json_extract_path json_array json_object json_query json_value " +
    "json_array_length json_keys json_type parse_json to_json json_set json_insert json_remove " +
    "json_merge_patch json_array_agg json_object_agg convert typeof bitwise_and_agg " +
    "bitwise_or_agg bitwise_xor_agg"
  ).split(" "),
);

/** Spellings polyglot normalises away, by the normalised key of its variant. */
const ALIASES: Record<string, readonly string[]> = {
  length: ["len", "charlength", "characterlength", "lengthb"],
  substring: ["substr"],
  ifnull: ["isnull", "nvl"],
  ceil: ["ceiling"],
  char: ["chr"],
  sha: ["sha1"],
  trunc: ["truncate"],
  dateadd: ["adddate", "timestampadd"],
  datediff: ["timestampdiff"],
  stddev: ["stdev"],
  variance: ["var"],
  arrayfunc: ["array"],
  random: ["rand"],
};

/** Top-level statement keys whose kind is not their PascalCase name. */
const KIND_BY_KEY: Record<string, string> = {
  union: "SetOperation",
  intersect: "SetOperation",
  except: "SetOperation",
  truncate_table: "Truncate",
  set_statement: "Set",
  refresh: "RefreshMaterializedView",
  command: "Command",
};

/**
 * The neutral kind of one polyglot statement node.
 *
 * @example
 * polyglotStatementKind({ insert: { is_replace: true } }); // "Replace"
 */
export function polyglotStatementKind(node: PgNode): string {
  const key = Object.keys(node)[0] ?? "unknown";
  const body = (node[key] ?? {}) as PgNode;
  if (key === "paren" || key === "subquery") {
    const inner = body["this"];
    if (inner !== null && typeof inner === "object") return polyglotStatementKind(inner as PgNode);
  }
  if (key === "insert" && body["is_replace"] === true) return "Replace";
  if (key === "create_view" && body["materialized"] === true) return "CreateMaterializedView";
  const mapped = KIND_BY_KEY[key];
  if (mapped !== undefined) return mapped;
  if (key.startsWith("drop_")) return "Drop";
  if (key.startsWith("alter_")) return "Alter";
  return key
    .split("_")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
}

/** A `word(` in the text: a function call as written, with its string index. */
interface CallSite {
  readonly norm: string;
  readonly text: string;
  readonly at: number;
}

/**
 * One statement of a polyglot parse in the neutral model; names are walked on first read.
 * Polyglot drops the spelling of built-in functions (`{ upper: … }`), so their names are
 * recovered from the call sites in the text.
 *
 * @example
 * const s = new PolyglotStatement(parse(sql, "tsql").ast[0], sql);
 * s.functions; // ["UPPER"] for `SELECT UPPER(name) FROM t`
 */
export class PolyglotStatement implements ParsedStatement {
  readonly kind: string;
  private names: StatementNames | undefined;

  constructor(
    private readonly node: PgNode,
    private readonly text: string,
    private readonly sites: () => readonly CallSite[],
  ) {
    this.kind = polyglotStatementKind(node);
  }

  get tables(): readonly string[] {
    return this.collect().tables;
  }

  get columns(): readonly string[] {
    return this.collect().columns;
  }

  get functions(): readonly string[] {
    return this.collect().functions;
  }

  private collect(): StatementNames {
    if (this.names === undefined) {
      const collector = new MetadataCollector();
      new Walker(collector, this.sites).walk(this.node);
      this.names = collector.result();
    }
    return this.names;
  }
}

/**
 * The call sites of `text` (words followed by `(`), outside strings, quoted names and comments.
 *
 * @example
 * findCallSites("SELECT upper(x) -- f(y)"); // [{ norm: "upper", text: "upper", at: 7 }]
 */
export function findCallSites(text: string): CallSite[] {
  const sites: CallSite[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const ch = text[i] ?? "";
    if (ch === "'" || ch === '"' || ch === "`" || ch === "[") {
      const close = ch === "[" ? "]" : ch;
      i++;
      while (i < n && text[i] !== close) i++;
      i++;
    } else if (ch === "-" && text[i + 1] === "-") {
      while (i < n && text[i] !== "\n") i++;
    } else if (ch === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end === -1 ? n : end + 2;
    } else if (/[\p{L}_]/u.test(ch)) {
      const start = i;
      while (i < n && /[\p{L}\p{N}_$]/u.test(text[i] ?? "")) i++;
      let j = i;
      while (j < n && (text[j] === " " || text[j] === "\t" || text[j] === "\n")) j++;
      if (text[j] === "(") {
        const word = text.slice(start, i);
        sites.push({ norm: normalise(word), text: word, at: start });
      }
    } else {
      i++;
    }
  }
  return sites;
}

function normalise(name: string): string {
  return name.toLowerCase().replace(/_/g, "");
}

class Walker {
  constructor(
    private readonly out: MetadataCollector,
    private readonly sites: () => readonly CallSite[],
  ) {}

  walk(node: unknown): void {
    if (Array.isArray(node)) {
      for (const item of node) this.walk(item);
      return;
    }
    if (node === null || typeof node !== "object") return;
    const obj = node as PgNode;
    let count = 0;
    for (const _ in obj) count++;
    for (const key in obj) {
      const value = obj[key];
      if (value === null || typeof value !== "object") {
        // Argument-less variants serialise as `{ row_number: null }`.
        if (count === 1 && value === null && FUNCTION_KEYS.has(key)) this.typedFunc(key, {});
        continue;
      }
      const body = value as PgNode;
      if (key === "table" && isTableRef(body)) this.table(body);
      else if (count === 1) this.variant(key, body);
      else if (key === "with") this.ctes(body);
      this.walk(value);
    }
  }

  /** A single-key object is an enum variant: `{ column: … }`, `{ upper: … }`, `{ insert: … }`. */
  private variant(key: string, body: PgNode): void {
    switch (key) {
      case "column":
        this.column(body);
        return;
      case "function":
      case "aggregate_function":
        if (body["no_parens"] !== true && typeof body["name"] === "string") {
          this.func(body["name"]);
        }
        return;
      case "method_call": {
        const method = body["method"] as PgNode | null;
        if (typeof method?.["name"] === "string") this.func(method["name"]);
        return;
      }
      case "insert":
        this.identifiers(body["columns"]);
        return;
      case "update":
        if (Array.isArray(body["set"])) {
          for (const pair of body["set"] as unknown[]) {
            if (Array.isArray(pair)) this.identifiers([pair[0]]);
          }
        }
        return;
      case "create_table":
      case "create_view":
      case "alter_table":
      case "alter_view":
        if (isTableRef(body["name"])) this.table(body["name"] as PgNode);
        return;
      default:
        if (FUNCTION_KEYS.has(key)) this.typedFunc(key, body);
    }
  }

  private table(ref: PgNode): void {
    const parts: string[] = [];
    for (const part of [ref["catalog"], ref["schema"], ref["name"]]) {
      const name = (part as PgNode | null)?.["name"];
      if (typeof name === "string") parts.push(name);
    }
    const span = ((ref["name"] as PgNode)["span"] ?? null) as PgNode | null;
    this.out.table(parts, typeof span?.["start"] === "number" ? span["start"] : -1);
  }

  private column(body: PgNode): void {
    const name = body["name"];
    if (typeof name === "string") {
      this.out.column("", name); // CREATE INDEX column lists
      return;
    }
    if (!("join_mark" in body) || name === null || typeof name !== "object") return;
    const ident = name as PgNode;
    if (typeof ident["name"] !== "string") return;
    const table = (body["table"] as PgNode | null)?.["name"];
    const span = (ident["span"] ?? null) as PgNode | null;
    const at = typeof span?.["start"] === "number" ? span["start"] : -1;
    this.out.column(typeof table === "string" ? table : "", ident["name"], at);
  }

  private identifiers(list: unknown): void {
    if (!Array.isArray(list)) return;
    for (const item of list as (PgNode | null)[]) {
      const name = item?.["name"];
      if (typeof name === "string") this.out.column("", name);
    }
  }

  private ctes(body: PgNode): void {
    if (!Array.isArray(body["ctes"])) return;
    for (const cte of body["ctes"] as PgNode[]) {
      const name = (cte["alias"] as PgNode | null)?.["name"];
      if (typeof name === "string") this.out.cte(name);
    }
  }

  private func(name: string): void {
    const norm = normalise(name.slice(name.lastIndexOf(".") + 1));
    const site = this.sites().find((s) => s.norm === norm);
    this.out.func(name, site?.at ?? -1);
  }

  private typedFunc(key: string, body: PgNode): void {
    const original = body["original_name"];
    if (typeof original === "string") {
      this.func(original);
      return;
    }
    const norm = normalise(key.replace(/_func$/, ""));
    const spellings = [norm, ...(ALIASES[norm] ?? [])];
    const site = this.sites().find((s) => spellings.includes(s.norm));
    if (site !== undefined) this.out.func(site.text, site.at);
    else this.out.func(key.replace(/_func$/, "").toUpperCase());
  }
}

function isTableRef(value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  const name = (value as PgNode)["name"];
  return name !== null && typeof name === "object" && typeof (name as PgNode)["name"] === "string";
}
