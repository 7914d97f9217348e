import { describe, expect, it } from "vitest";
import { accessMetadata, duplicateMergeMetadata } from "../../../core/memory/index.js";
import type { Memory } from "../../../core/memory/index.js";

const HOUR = 3_600_000;
const T0 = "2026-11-21T10:00:00.000Z";
const T0_MS = Date.parse(T0);
const options = { ttlHours: 720, sessionIdleHours: 24 };

const session: Memory = {
  id: "00000000-0000-4000-8000-000000000001",
  content: "x",
  type: "fact",
  scope: "session",
  tags: ["a"],
  project: "",
  confidence: 0.5,
  created_at: T0,
  updated_at: T0,
  last_accessed: T0,
  access_count: 2,
  expires_at: new Date(T0_MS + 24 * HOUR).toISOString(),
};

describe("accessMetadata", () => {
  it("counts the access and moves last_accessed and a session memory's expiry", () => {
    const at = T0_MS + 5 * HOUR;
    expect(accessMetadata(session, at, options)).toEqual({
      access_count: 3,
      last_accessed: new Date(at).toISOString(),
      last_accessed_ms: at,
      expires_at: new Date(at + 24 * HOUR).toISOString(),
      expires_at_ms: at + 24 * HOUR,
    });
  });

  it("leaves a ttl memory's expiry alone", () => {
    const ttl: Memory = { ...session, scope: "ttl", expires_at: "2026-12-21T10:00:00.000Z" };
    expect(accessMetadata(ttl, T0_MS + HOUR, options)).not.toHaveProperty("expires_at_ms");
  });

  it("never moves last_accessed backwards when an older recall finishes late", () => {
    const later = { ...session, last_accessed: new Date(T0_MS + 2 * HOUR).toISOString() };
    expect(accessMetadata(later, T0_MS + HOUR, options)).toMatchObject({
      access_count: 3,
      last_accessed_ms: T0_MS + 2 * HOUR,
    });
  });
});

describe("duplicateMergeMetadata", () => {
  it("unites tags, keeps the higher confidence and sets updated_at, touching nothing else", () => {
    expect(
      duplicateMergeMetadata(session, { tags: ["b", "a", "c"], confidence: 0.4 }, T0_MS + HOUR),
    ).toEqual({
      tags: '["a","b","c"]',
      confidence: 0.5,
      updated_at: new Date(T0_MS + HOUR).toISOString(),
      updated_at_ms: T0_MS + HOUR,
    });
  });
});
