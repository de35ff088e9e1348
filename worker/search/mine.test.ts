import { describe, expect, it } from "vitest";
import { mineRelated } from "./mine";
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
