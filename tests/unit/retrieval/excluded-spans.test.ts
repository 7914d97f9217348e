import { describe, expect, it } from "vitest";
import { createBm25Index, withoutExcludedSpans } from "../../../core/retrieval/index.js";

describe("a query's excluded spans", () => {
  it("drops an exclusion cue and the rest of its clause", () => {
    expect(withoutExcludedSpans("Novels by Jane Austen (excluding Pride and Prejudice)?")).toBe(
      "Novels by Jane Austen ( )?",
    );
    expect(withoutExcludedSpans("Introduce Ginsberg's works, but do not mention 'Howl'.")).toBe(
      "Introduce Ginsberg's works, but  .",
    );
    expect(withoutExcludedSpans("Dracula's powers, without discussing bats; and his castle")).toBe(
      "Dracula's powers,  ; and his castle",
    );
  });

  it("leaves bare 'without', 'except' and 'not' alone: they name what the answer is about", () => {
    for (const text of [
      "how do I deploy without downtime?",
      "can we deploy every day except Friday?",
      "why is the build not green?",
    ]) {
      expect(withoutExcludedSpans(text)).toBe(text);
    }
  });

  it("takes linear time on a long adversarial query", () => {
    const text = "excluding ".repeat(20_000) + "x";
    expect(withoutExcludedSpans(text).trim()).toBe("");
  });
});

describe("BM25 with excluded spans (issue 22)", () => {
  const docs = [
    { id: "austen", text: "Jane Austen wrote novels about women and marriage", vector: [1, 0] },
    {
      id: "pride",
      text: "Pride and Prejudice, Jane Austen's novel of pride and prejudice",
      vector: [0, 1],
    },
  ];

  it("does not rank a document up for the words the query excludes", () => {
    const index = createBm25Index();
    for (const d of docs) index.add(d);
    const text = "women in Jane Austen's novels, excluding Pride and Prejudice";
    expect(index.query({ text, vector: [0, 0], topK: 2 }).map((h) => h.id)).toEqual([
      "austen",
      "pride",
    ]);
  });

  it("matches the whole query when the excluded span is all there is", () => {
    const index = createBm25Index();
    for (const d of docs) index.add(d);
    const hits = index.query({ text: "excluding prejudice", vector: [0, 0], topK: 2 });
    expect(hits.map((h) => h.id)).toEqual(["pride"]);
  });

  it("ranks by the excluded words too with the whole query as its text (classic BM25)", () => {
    const index = createBm25Index({ queryText: (text) => text });
    for (const d of docs) index.add(d);
    const text = "women in Jane Austen's novels, excluding Pride and Prejudice";
    expect(index.query({ text, vector: [0, 0], topK: 2 })[0]?.id).toBe("pride");
  });
});
