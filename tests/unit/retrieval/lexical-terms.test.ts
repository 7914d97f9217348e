import { describe, expect, it } from "vitest";
import {
  convexFusion,
  lexicalTerms,
  lightStem,
  minMax,
  reciprocalRank,
  STOP_WORDS,
} from "../../../core/retrieval/index.js";
import { TopK } from "../../../core/retrieval/top-k.js";

describe("lexicalTerms", () => {
  it("drops stop words and folds inflections", () => {
    expect(lexicalTerms("The deploys run on Fridays")).toEqual(["deploy", "run", "friday"]);
    expect(lexicalTerms("deploying")).toEqual(lexicalTerms("deployed"));
  });

  it("splits camelCase, kebab-case and snake_case, keeping the whole identifier too", () => {
    expect(lexicalTerms("call getUserName")).toEqual(["call", "getusername", "get", "user", "nam"]);
    expect(lexicalTerms("user-service")).toEqual(["user-service", "user", "servic"]);
    expect(lexicalTerms("max_retries")).toEqual(["max_retries", "max", "retry"]);
    expect(lexicalTerms("HTTPServer")).toEqual(["httpserver", "http", "server"]);
  });

  it("keeps numbers and drops possessives and apostrophes", () => {
    expect(lexicalTerms("Caroline's 2022 race")).toEqual(["carolin", "2022", "rac"]);
    expect(lexicalTerms("v1.2")).toEqual(["v1.2", "v", "1", "2"]);
    expect(lexicalTerms("don't")).toEqual([]);
  });

  it("returns nothing for text without letters or digits", () => {
    expect(lexicalTerms(" ?! -- ")).toEqual([]);
  });
});

describe("lightStem", () => {
  it("meets inflected forms of one word", () => {
    expect(lightStem("queries")).toBe("query");
    expect(lightStem("query")).toBe("query");
    expect(lightStem("running")).toBe("run");
    expect(lightStem("making")).toBe(lightStem("make"));
    expect(lightStem("boxes")).toBe("box");
    expect(lightStem("classes")).toBe("class");
  });

  it("leaves short words, words ending in -ss/-us/-is and non-ASCII words alone", () => {
    expect(lightStem("bus")).toBe("bus");
    expect(lightStem("status")).toBe("status");
    expect(lightStem("analysis")).toBe("analysis");
    expect(lightStem("naïve")).toBe("naïve");
  });
});

describe("stop words", () => {
  it("hold function words, not content words", () => {
    expect(STOP_WORDS.has("the")).toBe(true);
    expect(STOP_WORDS.has("youre")).toBe(true);
    expect(STOP_WORDS.has("not")).toBe(false);
    expect(STOP_WORDS.has("deploy")).toBe(false);
  });
});

describe("fusion", () => {
  it("normalises by the query's range, and a lone positive score to 1", () => {
    expect(minMax(0.5, 0.2, 0.8)).toBeCloseTo(0.5, 12);
    expect(minMax(3, 3, 3)).toBe(1);
    expect(minMax(0, 0, 0)).toBe(0);
  });

  it("mixes convexly and ranks reciprocally", () => {
    expect(convexFusion(1, 0.5, 0.4)).toBeCloseTo(0.8, 12);
    expect(reciprocalRank(1)).toBe(1 / 61);
    expect(reciprocalRank(undefined)).toBe(0);
  });
});

describe("TopK", () => {
  it("keeps the k best, ties to the smaller id", () => {
    const best = new TopK(2);
    best.offer({ slot: 0, id: "b", score: 0.5 });
    best.offer({ slot: 1, id: "a", score: 0.5 });
    best.offer({ slot: 2, id: "c", score: 0.1 });
    best.offer({ slot: 3, id: "0", score: 0.1 });
    expect(best.sorted().map((c) => c.id)).toEqual(["a", "b"]);
  });
});
