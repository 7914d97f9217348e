/**
 * dbt models: `fixSql` with every rule leaves Jinja markup as written. It used to upper-case
 * `{% set %}` into `{% SET %}` (which Jinja rejects) and keyword arguments such as
 * `materialized=` inside `{{ config(…) }}`, and to remove the comma of
 * `{% if not loop.last %},{% endif %}` as a trailing select comma.
 */
import { describe, expect, it } from "vitest";
import { formatSql } from "../../../../core/sql/format.js";
import { fixSql, lintSql } from "../../../../core/sql/lint/index.js";

const MARKUP = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}|\{#[\s\S]*?#\}/g;

const MODEL = [
  "{{ config(materialized='table', enabled=True) }}",
  "{# the columns, one per value; don't reorder #}",
  "{% set cols = ['a', 'b'] %}",
  "SELECT",
  "{% for col in cols %}",
  "    max({{ col }}) as {{ col }} {% if not loop.last %},{% endif %}",
  "{% endfor %}",
  "from {{ ref('orders') }}   ",
  "where status != 'x' {% if is_incremental() %}and id > 0{% else %}and 1 = 1{% endif %}",
].join("\n");

describe("lint and fix on text with Jinja markup", () => {
  it("fix leaves every span of markup as written and fixes the SQL around it", () => {
    const { fixed_sql } = fixSql(MODEL, { rules: ["all"] });
    expect(fixed_sql.match(MARKUP)).toEqual(MODEL.match(MARKUP));
    expect(fixed_sql).toContain("{% if not loop.last %},{% endif %}");
    expect(fixed_sql).toContain("FROM {{ ref('orders') }}\nWHERE");
    expect(fixSql(fixed_sql, { rules: ["all"] }).changed).toBe(false);
  });

  it("does not read the markup as SQL: no lex error for a quote inside a Jinja comment", () => {
    const rules = lintSql(MODEL, { rules: ["all"] }).violations.map((v) => v.rule);
    expect(rules).not.toContain("LXR");
    expect(
      lintSql("SELECT a FROM t {# it's #}\n", { rules: ["L007"] }).violations.map((v) => v.rule),
    ).toEqual([]);
  });

  it("still applies the fixes that change the SQL where there is no control flow", () => {
    const { fixed_sql } = fixSql("select count(1) from {{ ref('t') }} x", { rules: ["all"] });
    expect(fixed_sql).toBe("SELECT count(*) FROM {{ ref('t') }} x");
  });

  it("keeps markup inside a SQL string part of the string", () => {
    const sql = "select '{{ var(\"day\") }}'   from t";
    expect(fixSql(sql).fixed_sql).toBe("SELECT '{{ var(\"day\") }}' FROM t");
  });
});

describe("format on text with Jinja markup", () => {
  it("moves each span of markup whole and never re-cases it", () => {
    const sql =
      "{{ config(materialized='table') }}\nselect a from {{ ref('x') }}\n" +
      "where a != {{ var('y') }} {% if x %}and b = 1{% endif %}";
    const outcome = formatSql(sql, { uppercase_keywords: true });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.result.formatted_sql.match(MARKUP)).toEqual(sql.match(MARKUP));
    expect(outcome.result.formatted_sql).toMatch(/^SELECT a\nFROM /m);
  });
});
