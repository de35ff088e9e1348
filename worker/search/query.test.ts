import { describe, expect, it } from "vitest";
import { MAX_QUERY_WORDS, parseQuery } from "./query";

describe("parseQuery", () => {
  it("drops question frames and stopwords", () => {
    expect(parseQuery("how do i delete a droplet").words).toEqual(["delete", "droplet"]);
    expect(parseQuery("is there an api to list invoices?").words).toEqual(["list", "invoices"]);
    expect(parseQuery("Which endpoint lets me rotate a key").words).toEqual(["rotate", "key"]);
    expect(parseQuery("can i edit a record through the api").words).toEqual(["edit", "record"]);
    expect(parseQuery("what is pagination").words).toEqual(["pagination"]);
    expect(parseQuery("tips on monitoring").words).toEqual(["monitoring"]);
    expect(parseQuery("a guide to designing our api").words).toEqual(["designing", "api"]);
    expect(parseQuery("tips").words).toEqual(["tips"]);
    expect(parseQuery("where can i read about rate limits").words).toEqual(["rate", "limits"]);
    expect(parseQuery("help with versioning").words).toEqual(["versioning"]);
  });

  it("keeps the closing word of 'how does X work' as optional", () => {
    expect(parseQuery("how does jsonpath work")).toEqual({ words: ["jsonpath"], optional: ["work"], lastIsPrefix: false, idents: [], runs: [] });
  });

  it("keeps stopwords when nothing else is left, and never strips a frame down to nothing", () => {
    expect(parseQuery("the").words).toEqual(["the"]);
    expect(parseQuery("how do i").words).toEqual(["i"]);
  });

  it("marks the last word as a prefix only while it is being typed", () => {
    expect(parseQuery("create dro").lastIsPrefix).toBe(true);
    expect(parseQuery("create dro ").lastIsPrefix).toBe(false);
    expect(parseQuery("how do i create dro").lastIsPrefix).toBe(false);
  });

  it("keeps a stopword being typed last as the start of a word, not as a word", () => {
    expect(parseQuery("list order it")).toMatchObject({ words: ["list", "order"], lastIsPrefix: false, typing: "it" });
    expect(parseQuery("list order it ").typing).toBeUndefined();
    expect(parseQuery("how do i check in").typing).toBeUndefined();
    expect(parseQuery("it").words).toEqual(["it"]);
  });

  it("splits identifiers typed as such", () => {
    expect(parseQuery("chat_postMessage").words).toEqual(["chat", "post", "message"]);
  });

  it("caps the number of words", () => {
    expect(parseQuery("word ".repeat(500)).words).toHaveLength(MAX_QUERY_WORDS);
  });
});
