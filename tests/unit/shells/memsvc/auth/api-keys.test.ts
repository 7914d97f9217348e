import { describe, expect, it } from "vitest";
import { InMemoryApiKeyStore } from "../../../../../core/testing/index.js";
import { ApiKeys, VERIFIED_CACHE_MS } from "../../../../../shells/memsvc/auth/api-keys.js";

function setup(start = Date.parse("2026-11-28T09:00:00.000Z")) {
  const store = new InMemoryApiKeyStore();
  const clock = { ms: start };
  const keys = new ApiKeys({ store, now: () => clock.ms });
  return { store, clock, keys };
}

describe("API keys", () => {
  it("makes a key shown once: the store keeps a salted hash, never the key or its secret", async () => {
    const { store, keys } = setup();
    const made = await keys.create({ tenant: "acme", readOnly: true });
    expect(made.key).toMatch(/^msk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(made).toMatchObject({
      tenant: "acme",
      read_only: true,
      created_at: "2026-11-28T09:00:00.000Z",
    });
    const [stored] = await store.list();
    const secret = made.key.split("_").slice(2).join("_");
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect(stored?.secretHash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(JSON.stringify(await keys.list())).not.toContain(secret);
    expect(await keys.list()).toEqual([
      { id: made.id, tenant: "acme", read_only: true, created_at: made.created_at },
    ]);
  });

  it("verifies a key as its tenant's principal, read-only flag and id included", async () => {
    const { keys } = setup();
    const made = await keys.create({ tenant: "acme", readOnly: true });
    expect(await keys.verify(made.key)).toEqual({
      ok: true,
      principal: { tenant: "acme", readOnly: true, operator: false, keyId: made.id },
    });
  });

  it("refuses unknown ids, wrong secrets and text that is no key alike", async () => {
    const { keys } = setup();
    const made = await keys.create({ tenant: "acme", readOnly: false });
    const wrongSecret = `${made.key.slice(0, -1)}${made.key.endsWith("A") ? "B" : "A"}`;
    const unknownId = made.key.replace(made.id, "0000000000000000");
    for (const presented of [wrongSecret, unknownId, "s3cret", `${made.key}x`, ""]) {
      expect(await keys.verify(presented), presented).toEqual({ ok: false, reason: "invalid" });
    }
    // A wrong secret for a verified key is refused from the cache, without the store.
    await keys.verify(made.key);
    expect(keys.cached(wrongSecret)).toEqual({ ok: false, reason: "invalid" });
  });

  it("refuses a key from its expiry on, cached or not", async () => {
    const { store, clock, keys } = setup();
    const made = await keys.create({
      tenant: "acme",
      readOnly: false,
      expiresAt: "2026-11-28T10:00:00.000Z",
    });
    expect((await keys.verify(made.key)).ok).toBe(true);
    clock.ms = Date.parse("2026-11-28T10:00:00.000Z");
    expect(keys.cached(made.key)).toEqual({ ok: false, reason: "expired" });
    const restarted = new ApiKeys({ store, now: () => clock.ms });
    expect(await restarted.verify(made.key)).toEqual({ ok: false, reason: "expired" });
  });

  it("answers from the cache within the window, then reads the store once (no new hash)", async () => {
    const { store, clock, keys } = setup();
    const made = await keys.create({ tenant: "acme", readOnly: false });
    await keys.verify(made.key);
    const reads = store.reads;
    clock.ms += VERIFIED_CACHE_MS - 1;
    expect(keys.cached(made.key)?.ok).toBe(true);
    expect((await keys.verify(made.key)).ok).toBe(true);
    expect(store.reads).toBe(reads);
    clock.ms += 1;
    expect(keys.cached(made.key)).toBeUndefined();
    expect((await keys.verify(made.key)).ok).toBe(true);
    expect(store.reads).toBe(reads + 1);
  });

  it("refuses a key revoked here at once, and one revoked elsewhere after the window", async () => {
    const { store, clock, keys } = setup();
    const here = await keys.create({ tenant: "acme", readOnly: false });
    const elsewhere = await keys.create({ tenant: "acme", readOnly: false });
    await keys.verify(here.key);
    await keys.verify(elsewhere.key);
    expect(await keys.revoke(here.id)).toBe(true);
    expect(await keys.revoke(here.id)).toBe(false);
    expect(keys.cached(here.key)).toBeUndefined();
    expect(await keys.verify(here.key)).toEqual({ ok: false, reason: "invalid" });
    // Another replica removes the record from the shared store.
    await store.remove(elsewhere.id);
    expect((await keys.verify(elsewhere.key)).ok).toBe(true);
    clock.ms += VERIFIED_CACHE_MS;
    expect(await keys.verify(elsewhere.key)).toEqual({ ok: false, reason: "invalid" });
  });

  it("does not cache a key whose check read the store while it was being revoked", async () => {
    // QA of issue 23: a first use racing a revocation (the file store's rewrite and fsync) read
    // the key before the delete landed and cached it after: it kept working for 5 s; and a
    // request after the revocation joined that check.
    const { store, keys } = setup();
    const made = await keys.create({ tenant: "acme", readOnly: false });
    let land!: () => void;
    const landing = new Promise<void>((resolve) => (land = resolve));
    const [get, remove] = [store.get.bind(store), store.remove.bind(store)];
    store.remove = async (id) => landing.then(() => remove(id));
    const revoked = keys.revoke(made.id);
    store.get = async (id) => {
      const read = await get(id); // read before the delete lands, answered once it is revoked
      await revoked;
      return read;
    };
    const racing = keys.verify(made.key);
    land();
    expect(await revoked).toBe(true);
    // Asked once the revocation answered, while the racing check still runs: not shared with it.
    const after = keys.verify(made.key);
    await racing; // concurrent with the revocation: either answer is fair
    expect(await after).toEqual({ ok: false, reason: "invalid" });
    expect(keys.cached(made.key)).toBeUndefined();
    expect(await keys.verify(made.key)).toEqual({ ok: false, reason: "invalid" });
  });

  it("shares one store read among concurrent first uses of a key", async () => {
    const { store, keys } = setup();
    const made = await keys.create({ tenant: "acme", readOnly: false });
    const reads = store.reads;
    const checks = await Promise.all(Array.from({ length: 10 }, () => keys.verify(made.key)));
    expect(checks.every((check) => check.ok)).toBe(true);
    expect(store.reads).toBe(reads + 1);
  });

  it("lists one tenant's keys when asked", async () => {
    const { keys } = setup();
    await keys.create({ tenant: "acme", readOnly: false });
    await keys.create({ tenant: "beta", readOnly: false });
    expect((await keys.list("beta")).map((k) => k.tenant)).toEqual(["beta"]);
    expect(await keys.list()).toHaveLength(2);
  });
});
