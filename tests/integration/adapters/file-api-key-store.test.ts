import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FileApiKeyStore } from "../../../adapters/system/index.js";
import { isAgentServicesError } from "../../../core/errors.js";
import { describeApiKeyStoreContract } from "../../contracts/api-key-store-contract.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function place(): string {
  const dir = mkdtempSync(join(tmpdir(), "api-keys-"));
  dirs.push(dir);
  return join(dir, "api-keys.json");
}

describeApiKeyStoreContract("FileApiKeyStore", () => {
  const path = place();
  return Promise.resolve({
    keys: new FileApiKeyStore(path),
    reopen: () => Promise.resolve(new FileApiKeyStore(path)),
    cleanup: () => Promise.resolve(),
  });
});

const record = {
  id: "0123456789abcdef",
  tenant: "acme",
  readOnly: false,
  createdAt: "2026-11-28T09:00:00.000Z",
  secretHash: "scrypt$16384$8$1$c2FsdA$aGFzaA",
};

describe("FileApiKeyStore's file", () => {
  it("is readable by its owner only and leaves no temporary file behind", async () => {
    const path = place();
    await new FileApiKeyStore(path).add(record);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(path, ".."))).toEqual(["api-keys.json"]);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ version: 1, keys: [record] });
  });

  it("refuses a damaged file with a message naming it, never as an empty key list", async () => {
    const path = place();
    writeFileSync(path, '{"version":1,"keys":[{"id":');
    const error: unknown = await new FileApiKeyStore(path).list().catch((e: unknown) => e);
    expect(isAgentServicesError(error, "store_unavailable")).toBe(true);
    expect((error as Error).message).toContain(path);
  });
});
