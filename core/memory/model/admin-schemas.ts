import * as v from "valibot";
import { isCalendarDate } from "./calendar-date.js";
import {
  contentField,
  confidenceField,
  FIELD_EXPECTATIONS as E,
  integerInRange,
  scopeField,
  tagsField,
  ttlSecondsField,
  typeField,
} from "./schemas.js";
import { strictBody } from "./strict-body.js";

/**
 * Request bodies of the memory API's management routes (list, update, delete by filter, import),
 * beside the seed's in `schemas.ts` and built the same way: strict objects, messages that say
 * what was expected.
 */

/** Default page size of a listing. */
export const DEFAULT_LIST_LIMIT = 50;
/** Largest page of a listing. */
export const MAX_LIST_LIMIT = 1000;
/** Most values of `by_project` and of `by_tag` in one stats answer. */
export const MAX_STATS_TOP = 1000;

/** ISO 8601 date (`2026-11-21`) or date-time with an offset or `Z`. */
const ISO_INSTANT =
  /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

const instant = (expected: string) =>
  v.pipe(v.string(expected), v.regex(ISO_INSTANT, expected), v.check(isCalendarDate, expected));

/**
 * The filters a listing and a delete by filter share (all optional; every one given must hold).
 * `project` is exact here: unlike recall and search, it does not add `permanent` memories of
 * other projects, so deleting a project's memories never deletes global rules.
 */
const listFilterEntries = {
  project: v.optional(v.pipe(v.string(E.project), v.description("Exactly this project."))),
  type: v.optional(typeField),
  scope: v.optional(scopeField),
  tags: v.optional(v.pipe(tagsField, v.description("Memories carrying every one of these tags."))),
  created_after: v.optional(
    v.pipe(instant(E.created_after), v.description("Created strictly after this instant.")),
  ),
  created_before: v.optional(
    v.pipe(instant(E.created_before), v.description("Created strictly before this instant.")),
  ),
  q: v.optional(
    v.pipe(v.string(E.q), v.description("Substring of the content, case-insensitive.")),
  ),
};

/**
 * Input of a listing (`GET /v1/memories`; the shell turns each repeated `tag` query parameter
 * into `tags` and numbers into numbers). Newest first unless `order` is `oldest`.
 *
 * @example
 * v.parse(listInputSchema, { project: "billing", tags: ["ops"], limit: 100 });
 */
export const listInputSchema = strictBody(
  {
    ...listFilterEntries,
    limit: v.optional(integerInRange(E.limit, 1, MAX_LIST_LIMIT), DEFAULT_LIST_LIMIT),
    cursor: v.optional(
      v.pipe(v.string(E.cursor), v.description("The `next_cursor` of the previous page.")),
    ),
    order: v.optional(v.picklist(["newest", "oldest"], E.order), "newest"),
  },
  E.body,
);

/**
 * Input of `GET /v1/stats` (query parameters as for a listing): the listing's filters, and `top`
 * to add the counts by project and by tag. With none of them, the answer is the seed's.
 *
 * @example
 * v.parse(statsInputSchema, { project: "billing", top: 20 });
 */
export const statsInputSchema = strictBody(
  {
    ...listFilterEntries,
    top: v.optional(
      v.pipe(
        integerInRange(E.top, 1, MAX_STATS_TOP),
        v.description(
          "Add by_project and by_tag: each the `top` most frequent values with their counts, the sum of the rest (`other`) and the number of distinct values.",
        ),
      ),
    ),
  },
  E.body,
);

/**
 * Body of `POST /v1/memories/delete`: the listing's filters, `all: true` to allow deleting
 * without one, `dry_run: true` to count without deleting.
 *
 * @example
 * v.parse(deleteMatchingInputSchema, { project: "old-project", dry_run: true });
 */
export const deleteMatchingInputSchema = strictBody(
  {
    ...listFilterEntries,
    all: v.optional(
      v.pipe(v.boolean(E.all), v.description("Required to delete with no filter at all.")),
    ),
    dry_run: v.optional(
      v.pipe(v.boolean(E.dry_run), v.description("Count what would be deleted; delete nothing.")),
    ),
  },
  E.body,
);

/**
 * Body of `PATCH /v1/memories/{id}`: the fields to change, at least one.
 *
 * @example
 * v.parse(updateInputSchema, { tags: ["ops"], confidence: 0.8 });
 */
export const updateInputSchema = strictBody(
  {
    content: v.optional(contentField),
    type: v.optional(typeField),
    scope: v.optional(scopeField),
    tags: v.optional(tagsField),
    project: v.optional(v.string(E.project)),
    confidence: v.optional(confidenceField),
    ttl_seconds: v.optional(
      v.pipe(
        ttlSecondsField,
        v.description("New lifetime of a `ttl` memory, counted from now; only with scope `ttl`."),
      ),
    ),
  },
  E.body,
);

const isoField = (name: string) =>
  v.pipe(
    v.string(`expected an ISO 8601 instant`),
    v.isoTimestamp(`expected an ISO 8601 instant`),
    v.check(isCalendarDate, "expected an ISO 8601 instant on a day that exists"),
    v.description(name),
  );

/**
 * One line of an import (`POST /v1/import`): a Memory object as the export writes it. Only
 * `content` is required; a missing `id` is generated, missing timestamps are the import's time,
 * and `vector` (with the `embedder` that made it) is used only when it comes from the running
 * embedder with its dimension, else the content is embedded again.
 *
 * @example
 * v.parse(importLineSchema, JSON.parse('{"content":"Deploys run on Fridays","type":"rule"}'));
 */
export const importLineSchema = strictBody(
  {
    id: v.optional(v.pipe(v.string(E.id), v.uuid(E.id))),
    content: contentField,
    type: v.optional(typeField, "fact"),
    scope: v.optional(scopeField, "session"),
    tags: v.optional(tagsField, () => []),
    project: v.optional(v.string(E.project), ""),
    confidence: v.optional(confidenceField, 1),
    created_at: v.optional(isoField("created_at")),
    updated_at: v.optional(isoField("updated_at")),
    last_accessed: v.optional(isoField("last_accessed")),
    access_count: v.optional(integerInRange("expected an integer of at least 0", 0), 0),
    expires_at: v.optional(v.nullable(isoField("expires_at"))),
    vector: v.optional(v.array(v.number("expected a number"), "expected an array of numbers")),
    embedder: v.optional(v.string("expected a string (the embedder id of `vector`)")),
  },
  E.body,
);

/** A listing input after validation and defaults. */
export type ParsedListInput = v.InferOutput<typeof listInputSchema>;
/** A stats input after validation. */
export type ParsedStatsInput = v.InferOutput<typeof statsInputSchema>;
/** A delete-by-filter body after validation. */
export type ParsedDeleteMatchingInput = v.InferOutput<typeof deleteMatchingInputSchema>;
/** A patch body after validation. */
export type ParsedUpdateInput = v.InferOutput<typeof updateInputSchema>;
/** An import line after validation and defaults. */
export type ParsedImportLine = v.InferOutput<typeof importLineSchema>;
