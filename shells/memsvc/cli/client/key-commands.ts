import { parseArgs } from "node:util";
import { EXIT } from "./memory-client.js";
import { answering, clientFor, optionText, usageAnswer, UsageError } from "./client-run.js";
import { textTable } from "./text-table.js";
import type { ClientIo } from "./client-commands.js";

/** The usage lines of `memsvc keys`, for `memsvc --help`. */
export const KEYS_USAGE = `API keys of tenants (operator token needed; same --url, --token, --json):
  keys create --tenant NAME [--read-only] [--expires WHEN]
                          A new key, printed alone on the last line (shown this once).
                          WHEN: 30d, 12h, 90m, 2027-01-01 or 2027-01-01T00:00:00Z
  keys list [--tenant NAME]       Every key's id, tenant, access, creation and expiry
  keys revoke ID                  Refused at once (other replicas: within 5 s)
`;

interface KeyView {
  id: string;
  tenant: string;
  read_only: boolean;
  expires_at?: string;
  created_at: string;
}

const OPTIONS = {
  url: { type: "string" },
  token: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  tenant: { type: "string" },
  "read-only": { type: "boolean" },
  expires: { type: "string" },
} as const;

/**
 * Runs `memsvc keys create|list|revoke` against a running service with the operator token and
 * resolves with the exit code (those of the client commands: 0 ok, 1 failed or unreachable,
 * 2 usage, 3 refused as invalid, 4 no such key, 5 token missing, wrong or not the operator's).
 *
 * @example
 * process.exitCode = await runKeyCommand(["create", "--tenant", "acme"], io);
 */
export async function runKeyCommand(argv: readonly string[], io: ClientIo): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
    }));
  } catch (error) {
    return usage(io, (error as Error).message);
  }
  if (values["help"] === true) {
    io.stdout.write(KEYS_USAGE);
    return EXIT.ok;
  }
  const [action, ...rest] = positionals;
  const client = clientFor(values, io);
  const json = values["json"] === true;
  return answering(io, KEYS_USAGE, async () => {
    switch (action) {
      case "create": {
        if (rest.length > 0) return usage(io, `unexpected argument ${JSON.stringify(rest[0])}`);
        const tenant = text(values["tenant"]);
        if (tenant === undefined) return usage(io, "keys create needs --tenant NAME");
        const expires = text(values["expires"]);
        const body = {
          tenant,
          read_only: values["read-only"] === true,
          ...(expires === undefined ? {} : { expires_at: expiryOf(expires, Date.now()) }),
        };
        const made = await client.json<KeyView & { key: string }>("POST", "/v1/keys", body);
        if (json) {
          io.stdout.write(`${JSON.stringify(made)}\n`);
          return EXIT.ok;
        }
        io.stdout.write(
          `created key ${made.id} for tenant ${made.tenant} (${access(made)}, expires ${made.expires_at ?? "never"})\n` +
            "store it now: it is not shown again\n" +
            `${made.key}\n`,
        );
        return EXIT.ok;
      }
      case "list": {
        if (rest.length > 0) return usage(io, `unexpected argument ${JSON.stringify(rest[0])}`);
        const tenant = text(values["tenant"]);
        const path =
          tenant === undefined ? "/v1/keys" : `/v1/keys?tenant=${encodeURIComponent(tenant)}`;
        const { keys } = await client.json<{ keys: KeyView[] }>("GET", path);
        if (json) io.stdout.write(`${JSON.stringify({ keys })}\n`);
        else if (keys.length === 0) io.stdout.write("no API keys\n");
        else {
          const rows = keys.map((k) => [
            k.id,
            k.tenant,
            access(k),
            k.created_at,
            k.expires_at ?? "never",
          ]);
          io.stdout.write(textTable(["id", "tenant", "access", "created", "expires"], rows));
        }
        return EXIT.ok;
      }
      case "revoke": {
        if (rest.length !== 1) return usage(io, "keys revoke takes one key ID");
        const id = rest[0] as string;
        const answer = await client.json("DELETE", `/v1/keys/${encodeURIComponent(id)}`);
        io.stdout.write(json ? `${JSON.stringify(answer)}\n` : `revoked ${id}\n`);
        return EXIT.ok;
      }
      default:
        return usage(
          io,
          action === undefined
            ? "keys needs create, list or revoke"
            : `unknown keys command ${JSON.stringify(action)}`,
        );
    }
  });
}

/**
 * `--expires` as an ISO 8601 instant: a duration from now (`30d`, `12h`, `90m`), a day
 * (`2027-01-01`, midnight UTC) or an instant given as is.
 *
 * @example
 * expiryOf("1d", Date.parse("2026-11-28T09:00:00Z")); // "2026-11-29T09:00:00.000Z"
 */
export function expiryOf(when: string, now: number): string {
  const duration = /^(\d+)([dhm])$/.exec(when);
  if (duration !== null) {
    const unit = { d: 86_400_000, h: 3_600_000, m: 60_000 }[duration[2] as "d" | "h" | "m"];
    return new Date(now + Number(duration[1]) * unit).toISOString();
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(when) && !Number.isNaN(Date.parse(when))) {
    return new Date(`${when}T00:00:00Z`).toISOString();
  }
  if (/^\d{4}-\d{2}-\d{2}T/.test(when)) return when; // the service validates it, naming expires_at
  throw new UsageError(
    `--expires expects a duration (30d, 12h, 90m), a day (2027-01-01) or an instant (2027-01-01T00:00:00Z), got "${when}"`,
  );
}

function access(key: KeyView): string {
  return key.read_only ? "read-only" : "read-write";
}

function usage(io: ClientIo, message: string): number {
  return usageAnswer(io, KEYS_USAGE, message);
}

const text = optionText;
