import { describe, expect, it } from "vitest";
import { aliasPairs, compoundHeads, definitionPairs, mineRelated } from "./mine";
import { stem } from "./analyze";
import type { SearchDocument } from "./types";

const op = (operationId: string, title: string, body = ""): SearchDocument => ({
  id: operationId, kind: "operation", title, body, url: "/", locale: "en", labels: [], fields: { operationId },
});
const named = (docs: SearchDocument[], terms: string[]) => {
  const related = mineRelated(docs, new Map(terms.map((t, i) => [t, i])));
  return Object.fromEntries(Object.entries(related).map(([k, v]) => [k, v.filter((_, i) => i % 2 === 0).map((t) => terms[t])]));
};
const TERMS = ["add", "cach", "clear", "delet", "droplet", "kick", "member", "particip", "save", "star", "zap"];

describe("mineRelated", () => {
  it("pairs an operationId's verb with its summary's verb when the pair recurs", () => {
    const docs = [op("ZapParticipant", "Kick a participant"), op("ZapMember", "Kick a member"), op("ClearCache", "Zap the cache")];
    expect(named(docs, TERMS)).toEqual({ kick: ["zap"], zap: ["kick"] });
  });

  it("ignores a pair seen once, and resource words that no summary starts with", () => {
    const docs = [op("droplets_destroy", "Delete a Droplet"), op("ZapParticipant", "Kick a participant")];
    expect(named(docs, TERMS)).toEqual({});
  });

  it("reads the body's first sentence when the title is the operationId", () => {
    const docs = [op("stars_add", "stars_add", "Save an item for later. Formerly adding a star."), op("pins_add", "pins_add", "Save a pin."), op("files_save", "Add a file")];
    expect(named(docs, TERMS)).toEqual({ add: ["save"], save: ["add"] });
  });
});

describe("aliasPairs: names the content gives as one thing", () => {
  // Real sentences from the dev set's corpus (Bump.sh guides and updates).
  it("pairs a name with the one it was formerly known as", () => {
    expect(aliasPairs("Their API reference documentation leverages the OpenAPI Specification (formerly known as Swagger). However")).toEqual([["specif", "swagger"]]);
    expect(aliasPairs("TypeSpec (formerly known as Cadl) was built to simplify the API design process")).toEqual([["typespec", "cadl"]]);
    // Any case, and the Kelvin sign, which the marker's case folding reads as a k.
    expect(aliasPairs("TypeSpec (FORMERLY KNOWN AS Cadl) was built")).toEqual([["typespec", "cadl"]]);
    expect(aliasPairs("Protocol Buffers (A\u212aA Protobuf) are")).toEqual(aliasPairs("Protocol Buffers (aka Protobuf) are"));
    expect(aliasPairs("Protocol Buffers (aka Protobuf) are")).not.toEqual([]);
  });

  it("reads also known as, also called and a.k.a., an alias standing for its last word", () => {
    expect(aliasPairs("The API key, also known as a token, grants access to our API")).toEqual([["kei", "token"]]);
    expect(aliasPairs("Protocol Buffers (also known as Protobuf) can be used for requests/messages.")).toEqual([["buffer", "protobuf"]]);
    expect(aliasPairs("how your API contract (a.k.a API description) is actually covered")).toEqual([["contract", "descript"]]);
    expect(aliasPairs("a string format (supported by OpenAPI 2.x, aka Swagger,\nand AsyncAPI).")).toEqual([["openapi", "swagger"]]);
  });

  it("pairs the modifiers of two names with the same head", () => {
    expect(aliasPairs("The OpenAPI Specification, formerly the Swagger Specification, is")).toEqual([["openapi", "swagger"]]);
  });

  it("gives nothing for clauses, sentence-initial markers, or markers with nothing before them on the line", () => {
    expect(aliasPairs("A valid OpenAPI description document is also called an API contract because, like a contract")).toEqual([]);
    expect(aliasPairs("Save an item for later. Formerly known as adding a star.")).toEqual([]);
    expect(aliasPairs("AsyncAPI definition\naka AsyncAPI file / document / description")).toEqual([]);
  });

  it("is bounded on hostile text", () => {
    expect(aliasPairs("x aka y ".repeat(100_000)).length).toBeLessThanOrEqual(16);
  });
});

describe("definitionPairs: a name and the class the portal defines it by", () => {
  // Real sentences from DigitalOcean's API description (tag descriptions), line breaks as in the source.
  it("pairs the defined name with the head of its class", () => {
    expect(definitionPairs("Droplets A Droplet is a DigitalOcean\nvirtual machine. By sending requests to the Droplet endpoint")).toEqual([["droplet", "machin"]]);
    expect(definitionPairs("A tag is a label that can be applied to a resource (currently Droplets, Images, Volumes")).toEqual([["tag", "label"]]);
  });

  it("reads only indefinite definitions at a capitalised article", () => {
    expect(definitionPairs("The API contract is the document your team agrees on.")).toEqual([]);
    expect(definitionPairs("once a droplet is a member of the pool")).toEqual([]);
    expect(definitionPairs("A backup is available for every Droplet.")).toEqual([]); // no article: not a class
  });

  it("is bounded on hostile text", () => {
    expect(definitionPairs("A cat is a dog. ".repeat(50_000)).length).toBeLessThanOrEqual(16);
  });
});

describe("mineRelated with aliases", () => {
  it("relates an alias pair found once, when both terms are in the index", () => {
    const guide: SearchDocument = { id: "g", kind: "guide", title: "What is TypeSpec?", body: "TypeSpec (formerly known as Cadl) was built to simplify API design.", url: "/", locale: "en", labels: [] };
    expect(named([guide], ["cadl", "typespec"])).toEqual({ cadl: ["typespec"], typespec: ["cadl"] });
    expect(named([guide], ["typespec"])).toEqual({});
  });
});

describe("compoundHeads: closed compounds of the vocabulary", () => {
  const vocab = (words: string[]) => new Map(words.map((w) => [w, stem(w)]));

  it("relates a head to the compounds that end with it when both parts are words", () => {
    const heads = compoundHeads(vocab(["name", "space", "namespace", "namespaces", "work", "workspace", "file", "system", "filesystem"]));
    expect(heads.get("space")).toEqual(["namespac", "workspac"]);
    expect(heads.get("system")).toEqual(["filesystem"]);
  });

  it("skips inflections, prefixes and parts that are not words", () => {
    // mapping = map + -ping (its stem is map); percent = per + cent (a 3-letter prefix); monkey: "mon" is no word here.
    expect(compoundHeads(vocab(["map", "ping", "mapping", "per", "cent", "percent", "monkey", "key"])).size).toBe(0);
  });

  it("are mined one way, head to compound, below other relations", () => {
    const terms = ["name", "namespac", "space"];
    const related = mineRelated([], new Map(terms.map((t, i) => [t, i])), vocab(["name", "space", "namespace"]));
    expect(related).toEqual({ space: [1, 50] });
  });
});
