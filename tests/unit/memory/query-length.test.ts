/**
 * A recall or search message is read up to MAX_QUERY_CHARS once normalised (NFKC): embedding and
 * matching cost time in proportion to it on the event loop every request shares (1 MB of U+FDFA,
 * 6 million characters once normalised, held it 2-3 s). What is read is checked here through the
 * service: what the embedder is given, and which words still match.
 */
import { describe, expect, it } from "vitest";
import { MAX_QUERY_CHARS, queryText } from "../../../core/memory/model/query-text.js";
import { memoryFixture } from "./memory-fixture.js";

const LIGATURE = "\ufdfa"; // NFKC: 18 characters, four Arabic words

describe("the part of a recall or search message that ranks", () => {
  it("is the whole message up to the limit, once normalised", () => {
    expect(queryText("when do deploys run?")).toBe("when do deploys run?");
    const atLimit = "a".repeat(MAX_QUERY_CHARS);
    expect(queryText(atLimit)).toBe(atLimit);
    expect(queryText(`${atLimit}b`)).toBe(atLimit);
    const ligatures = queryText(LIGATURE.repeat(300_000));
    expect(ligatures.normalize("NFKC").length).toBeLessThanOrEqual(MAX_QUERY_CHARS);
    expect(ligatures.normalize("NFKC").length).toBeGreaterThan(MAX_QUERY_CHARS - 18);
    // Never half of a surrogate pair.
    const emoji = queryText(`x${"😀".repeat(MAX_QUERY_CHARS)}`);
    expect(emoji.length).toBe(MAX_QUERY_CHARS - 1);
    expect(emoji.endsWith("😀")).toBe(true);
  });

  it("recall and search embed and match only that head of a 1 MB message", async () => {
    const { service, embedder } = await memoryFixture({}, undefined, "default");
    await service.remember({ content: "deploys run on fridays", scope: "permanent" });
    await service.remember({ content: "zebra crossings", scope: "permanent" });
    const head = `deploys ${"x ".repeat(MAX_QUERY_CHARS)}`;
    const message = `${head}zebra ${LIGATURE.repeat(300_000)}`;
    embedder.calls.length = 0;

    const searched = await service.search({ message, explain: true });
    const recalled = await service.recall({ message });

    const queries = embedder.calls.filter((call) => call.method === "query");
    expect(queries).toHaveLength(2);
    for (const call of queries) {
      expect(call.texts[0]?.normalize("NFKC").length).toBeLessThanOrEqual(MAX_QUERY_CHARS);
      expect(head.startsWith(call.texts[0] as string)).toBe(true);
    }
    // "zebra", past the head, matches no word; "deploys", in it, still does.
    const lexical = new Map(
      searched.results.map((r) => [r.memory.content, r.factors?.lexical ?? 0]),
    );
    expect(lexical.get("deploys run on fridays")).toBeGreaterThan(0);
    expect(lexical.get("zebra crossings") ?? 0).toBe(0);
    expect(recalled.context).toContain("deploys run on fridays");
  });
});
