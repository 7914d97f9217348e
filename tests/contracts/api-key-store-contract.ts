import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ApiKeyStore, StoredApiKey } from "../../core/ports/api-key-store.js";

/**
 * What a contract run needs: a store over a fresh place that holds no key, a way to open a
 * second store over the same place (what a restart or another replica sees), and a disposer.
 */
export interface ApiKeyStoreUnderTest {
  keys: ApiKeyStore;
  reopen(): Promise<ApiKeyStore>;
  cleanup(): Promise<void>;
}

function key(id: string, createdAt: string, extra: Partial<StoredApiKey> = {}): StoredApiKey {
  return {
    id,
    tenant: "acme",
    readOnly: false,
    createdAt,
    secretHash: `scrypt$16384$8$1$salt-${id}$hash-${id}`,
    ...extra,
  };
}

/**
 * The behaviour every {@link ApiKeyStore} must have (see its doc comment): records kept as given,
 * listed oldest first, a duplicate id refused without replacing anything, removal reported, and
 * every change visible to a store opened later over the same place. Runs against
 * `InMemoryApiKeyStore` in unit tests, `FileApiKeyStore` and `PostgresApiKeyStore` in
 * integration tests.
 *
 * @example
 * describeApiKeyStoreContract("InMemoryApiKeyStore", async () => {
 *   const keys = new InMemoryApiKeyStore();
 *   return { keys, reopen: async () => keys, cleanup: async () => {} };
 * });
 */
export function describeApiKeyStoreContract(
  name: string,
  make: () => Promise<ApiKeyStoreUnderTest>,
): void {
  describe(`ApiKeyStore contract: ${name}`, () => {
    let subject: ApiKeyStoreUnderTest;
    let keys: ApiKeyStore;

    beforeEach(async () => {
      subject = await make();
      keys = subject.keys;
    });
    afterEach(async () => {
      await subject.cleanup();
    });

    it("holds no key at first", async () => {
      expect(await keys.list()).toEqual([]);
      expect(await keys.get("0123456789abcdef")).toBeUndefined();
    });

    it("gives back a stored key as it was given, expiry and read-only flag included", async () => {
      const plain = key("00000000000000a1", "2026-11-28T09:00:00.000Z");
      const limited = key("00000000000000a2", "2026-11-28T09:00:01.000Z", {
        tenant: "beta-team",
        readOnly: true,
        expiresAt: "2027-01-01T00:00:00.000Z",
      });
      await keys.add(plain);
      await keys.add(limited);
      expect(await keys.get(plain.id)).toEqual(plain);
      expect(await keys.get(limited.id)).toEqual(limited);
    });

    it("lists keys oldest first, then by id", async () => {
      const at = "2026-11-28T09:00:00.000Z";
      await keys.add(key("00000000000000b3", "2026-11-28T09:00:02.000Z"));
      await keys.add(key("00000000000000b2", at));
      await keys.add(key("00000000000000b1", at));
      expect((await keys.list()).map((k) => k.id)).toEqual([
        "00000000000000b1",
        "00000000000000b2",
        "00000000000000b3",
      ]);
    });

    it("refuses a second key with a stored id and keeps the first", async () => {
      const first = key("00000000000000c1", "2026-11-28T09:00:00.000Z");
      await keys.add(first);
      await expect(keys.add({ ...first, tenant: "other" })).rejects.toThrow();
      expect(await keys.get(first.id)).toEqual(first);
      expect(await keys.list()).toHaveLength(1);
    });

    it("removes a key once: true, then false; it is gone from get and list", async () => {
      const gone = key("00000000000000d1", "2026-11-28T09:00:00.000Z");
      const kept = key("00000000000000d2", "2026-11-28T09:00:01.000Z");
      await keys.add(gone);
      await keys.add(kept);
      expect(await keys.remove(gone.id)).toBe(true);
      expect(await keys.remove(gone.id)).toBe(false);
      expect(await keys.get(gone.id)).toBeUndefined();
      expect(await keys.list()).toEqual([kept]);
    });

    it("shows every change to a store opened later over the same place", async () => {
      const kept = key("00000000000000e1", "2026-11-28T09:00:00.000Z", { readOnly: true });
      const gone = key("00000000000000e2", "2026-11-28T09:00:01.000Z");
      await keys.add(kept);
      await keys.add(gone);
      await keys.remove(gone.id);
      const again = await subject.reopen();
      expect(await again.list()).toEqual([kept]);
      expect(await again.get(gone.id)).toBeUndefined();
    });

    it("keeps every one of many concurrent additions", async () => {
      const many = Array.from({ length: 20 }, (_, i) =>
        key(`0000000000000f${i.toString(16).padStart(2, "0")}`, "2026-11-28T09:00:00.000Z"),
      );
      await Promise.all(many.map((k) => keys.add(k)));
      expect((await keys.list()).map((k) => k.id)).toEqual(many.map((k) => k.id));
      expect(await (await subject.reopen()).list()).toHaveLength(20);
    });
  });
}
