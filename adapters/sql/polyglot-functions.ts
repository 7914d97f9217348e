/**
 * What the adapter needs to name polyglot's function calls as written: the typed function
 * variants, the spellings polyglot folds together, and the call sites found in the text.
 */
import { isNameCharAt } from "./source-text.js";

/**
 * Polyglot's typed function variants (generated from the SDK's `Expression` union): a
 * single-key node with one of these keys is a call of that built-in.
 *
 * @example
 * POLYGLOT_FUNCTION_KEYS.has("upper"); // true: `{ upper: { this: … } }` is UPPER(…)
 */
export const POLYGLOT_FUNCTION_KEYS = new Set(
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

/** Spellings polyglot normalises away, by the normalised key of its variant (`len` → `length`). */
export const FUNCTION_ALIASES: Record<string, readonly string[]> = {
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

/** A `word(` in the text: a function call as written, with its string index. */
export interface CallSite {
  readonly norm: string;
  readonly text: string;
  readonly at: number;
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
      while (i < n && isNameCharAt(text, i)) i++;
      let j = i;
      while (j < n && (text[j] === " " || text[j] === "\t" || text[j] === "\n")) j++;
      if (text[j] === "(") {
        const word = text.slice(start, i);
        sites.push({ norm: normaliseFunctionName(word), text: word, at: start });
      }
    } else {
      i++;
    }
  }
  return sites;
}

/** Lower case without underscores, to match `DATEADD` with `date_add`. */
export function normaliseFunctionName(name: string): string {
  return name.toLowerCase().replace(/_/g, "");
}
