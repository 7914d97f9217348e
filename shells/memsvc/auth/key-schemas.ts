import * as v from "valibot";
import { isCalendarDate, strictBody } from "../../../core/memory/index.js";
import { isTenantName, TENANT_NAME_RULE } from "./tenant-name.js";

/** An ISO 8601 date-time with a time zone, e.g. `2027-01-01T00:00:00Z`. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

const tenantSchema = v.pipe(
  v.string(`expected ${TENANT_NAME_RULE}`),
  v.check(isTenantName, `expected ${TENANT_NAME_RULE}`),
  v.description("The tenant every request with the key acts inside."),
);

/**
 * The body of `POST /v1/keys`: `tenant` (required), `read_only` (default false), `expires_at`
 * (an ISO 8601 instant with a zone; the route refuses one that is not in the future).
 *
 * @example
 * v.parse(createKeySchema, { tenant: "acme" }); // { tenant: "acme", read_only: false }
 */
export const createKeySchema = strictBody(
  {
    tenant: tenantSchema,
    read_only: v.optional(
      v.pipe(
        v.boolean("expected true or false"),
        v.description("Reads only (search, recall, list, get, stats, export)."),
      ),
      false,
    ),
    expires_at: v.optional(
      v.pipe(
        v.string("expected an ISO 8601 date-time with a time zone, e.g. 2027-01-01T00:00:00Z"),
        v.regex(
          ISO_INSTANT,
          "expected an ISO 8601 date-time with a time zone, e.g. 2027-01-01T00:00:00Z",
        ),
        v.check(isCalendarDate, "expected a date-time that exists"),
        v.description("When the key stops working; default never."),
      ),
    ),
  },
  'expected a JSON object such as {"tenant": "acme"}',
);

const keyFields = {
  id: v.string(),
  tenant: v.string(),
  read_only: v.boolean(),
  expires_at: v.optional(v.string()),
  created_at: v.string(),
};

/** One key as listed: never the key or its hash. */
export const apiKeySchema = v.object(keyFields);

/** The answer of `POST /v1/keys`: the key, shown this once. */
export const createdKeySchema = v.object({
  ...keyFields,
  key: v.pipe(v.string(), v.description("The key: shown once, never stored or shown again.")),
});

/** The answer of `GET /v1/keys`. */
export const keyListSchema = v.object({ keys: v.array(apiKeySchema) });

/** The answer of `DELETE /v1/keys/{id}`. */
export const revokedKeySchema = v.object({ id: v.string(), revoked: v.literal(true) });

/** A key id: 16 lowercase hex digits. */
export const keyIdSchema = v.pipe(
  v.string("expected a key id (16 hex digits)"),
  v.regex(/^[0-9a-f]{16}$/, "expected a key id (16 hex digits)"),
);
