/** Search documents from models and content releases: what readers search by, their URLs, labels and locales. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { buildReference } from "../openapi/build";
import { compileBundle } from "../content/compile";
import { operationDocument, STREAMED_SCHEMA_WALK } from "./documents";
import { combineLabels, releaseDocuments, splitByAudience } from "./documents-content";
import { decodeEntities, plainText } from "./documents-text";
import { buildSearchIndex, loadSearchIndex } from "./index";

const SPEC = `openapi: 3.0.3
info: { title: Invoices, version: "2.1" }
paths:
  /invoices/{invoice_uuid}:
    parameters: [{ name: invoice_uuid, in: path, required: true, description: UUID of the invoice, schema: { type: string } }]
    get:
      operationId: getInvoice
      summary: Retrieve an **invoice**
      description: Returns one invoice. See [billing](https://example.com/billing).
      tags: [Billing]
      parameters: [{ $ref: "#/components/parameters/Format" }]
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Invoice" }
        "404":
          description: not found
          content:
            application/problem+json:
              schema: { type: object, properties: { problemDetailField: { type: string } } }
    post:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                memo: { type: string, description: A note printed on the PDF }
      responses: { "204": { description: done } }
components:
  parameters:
    Format: { name: format, in: query, schema: { type: string, enum: [pdf, csv] } }
  schemas:
    Invoice:
      type: object
      properties:
        amount_due: { type: integer, description: Cents still owed }
        status: { type: string, enum: [draft, paid, void] }
        lines: { type: array, items: { $ref: "#/components/schemas/Invoice" } }
`;

function docsOf(spec: string, layout = "page-per-operation") {
  const out = buildReference({ body: new TextEncoder().encode(spec), contentType: "application/yaml" });
  if (!out.ok) throw new Error(out.message);
  return out.operations.map((op) => operationDocument(out.slice(op.slug), { api: "billing", version: "2.1", layout, locale: "en" }));
}

describe("operation documents", () => {
  it("carry summary, method + path, operationId, tag, parameters, properties, enum values and descriptions", () => {
    const [get, post] = docsOf(SPEC);
    expect(get).toMatchObject({
      id: "op:billing:getinvoice", kind: "operation", title: "Retrieve an invoice", section: "Billing", url: "/reference/billing/2.1/getinvoice", locale: "en", labels: [], api: "billing", version: "2.1",
      fields: { method: "GET", path: "/invoices/{invoice_uuid}", operationId: "getInvoice", tag: "Billing", parameters: ["invoice_uuid", "format"], properties: [] },
    });
    expect(get.fields!.enums).toEqual(expect.arrayContaining(["pdf", "csv", "draft", "paid", "void"]));
    expect(get.body).toContain("Returns one invoice. See billing.");
    expect(get.body).toContain("UUID of the invoice");
    // Response fields: names in the body (searchable as words), their prose left out (every answer repeats it).
    expect(get.body).toContain("Returns amount_due, status, lines");
    expect(get.body).not.toContain("Cents still owed");
    expect(get.body).not.toContain("problemDetailField");
    expect(post.title).toBe("POST /invoices/{invoice_uuid}");
    expect(post.fields!.properties).toEqual(["memo"]);
    expect(post.body).toContain("A note printed on the PDF");
  });

  it("link to an anchor of the single page in the single-page layout", () => {
    expect(docsOf(SPEC, "single-page")[0].url).toBe("/reference/billing/2.1/#getinvoice");
  });

  it("stay bounded on a dense schema graph", () => {
    const schemas = Array.from({ length: 200 }, (_v, i) => `    S${i}:\n      type: object\n      properties:\n${Array.from({ length: 20 }, (_w, j) => `        p${i}_${j}: { $ref: "#/components/schemas/S${(i + j + 1) % 200}" }`).join("\n")}`).join("\n");
    const spec = `openapi: 3.0.3\ninfo: { title: D, version: "1" }\npaths:\n  /d:\n    get:\n      responses:\n        "200":\n          description: ok\n          content: { application/json: { schema: { $ref: "#/components/schemas/S0" } } }\ncomponents:\n  schemas:\n${schemas}\n`;
    const [doc] = docsOf(spec);
    const returned = doc.body.slice(doc.body.indexOf("Returns ") + 8).split(", ");
    expect(returned.length).toBeLessThanOrEqual(300);
    expect(returned.length).toBeGreaterThan(20);
  });

  it("walk less of the schemas with the lighter walk of streamed definitions, keeping the operation's identity", () => {
    const schemas = Array.from({ length: 200 }, (_v, i) => `    S${i}:\n      type: object\n      properties:\n${Array.from({ length: 20 }, (_w, j) => `        p${i}_${j}: { $ref: "#/components/schemas/S${(i + j + 1) % 200}" }`).join("\n")}`).join("\n");
    const spec = `openapi: 3.0.3\ninfo: { title: D, version: "1" }\npaths:\n  /d/{id}:\n    get:\n      operationId: getD\n      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]\n      responses:\n        "200":\n          description: ok\n          content: { application/json: { schema: { $ref: "#/components/schemas/S0" } } }\ncomponents:\n  schemas:\n${schemas}\n`;
    const out = buildReference({ body: new TextEncoder().encode(spec), contentType: "application/yaml" });
    if (!out.ok) throw new Error(out.message);
    const slice = out.slice(out.operations[0].slug);
    const full = operationDocument(slice, { api: "d", version: "1", layout: "page-per-operation", locale: "en" });
    const light = operationDocument(slice, { api: "d", version: "1", layout: "page-per-operation", locale: "en", walk: STREAMED_SCHEMA_WALK });
    const returned = (doc: { body: string }) => doc.body.slice(doc.body.indexOf("Returns ") + 8).split(", ");
    expect(returned(light).length).toBeLessThanOrEqual(STREAMED_SCHEMA_WALK.names);
    expect(returned(full).length).toBeGreaterThan(STREAMED_SCHEMA_WALK.names);
    expect(light.fields).toMatchObject({ path: "/d/{id}", operationId: "getD", parameters: ["id"] });
    expect({ ...light, body: "" }).toEqual({ ...full, body: "" });
  });

  it("carry their first tag's description as plain text in `context`, bounded; none without one", () => {
    const out = buildReference({ body: new TextEncoder().encode(SPEC), contentType: "application/yaml" });
    if (!out.ok) throw new Error(out.message);
    const slice = out.slice(out.operations[0].slug);
    const src = { api: "billing", version: "2.1", layout: "page-per-operation", locale: "en" };
    const tags = [{ name: "Billing", description: "Invoices and **credit notes**. " + "word ".repeat(2000) }, { name: "Other", description: "Not this one." }];
    const doc = operationDocument(slice, { ...src, tags });
    expect(doc.fields?.context?.startsWith("Invoices and credit notes")).toBe(true);
    expect(doc.fields!.context!.length).toBeLessThanOrEqual(1000);
    expect(operationDocument(slice, { ...src, tags, walk: STREAMED_SCHEMA_WALK }).fields!.context!.length).toBeLessThanOrEqual(500);
    expect(operationDocument(slice, src).fields?.context).toBeUndefined();
    expect(operationDocument(slice, { ...src, tags: [{ name: "Billing" }, { name: 7, description: "x" } as never] }).fields?.context).toBeUndefined();
    // OpenAPI 3.2's tag summary comes first.
    expect(operationDocument(slice, { ...src, tags: [{ name: "Billing", summary: "Money in", description: "Invoices." }] }).fields?.context).toMatch(/^Money in\s+Invoices/);
  });
});

describe("plain text", () => {
  it("keeps the words of Markdown and HTML and drops markup", () => {
    expect(plainText("## Title\n\nUse `chat_postMessage` with [the docs](http://x) and ![alt](i.png) &amp; <b>bold</b>.")).toBe("Title\nUse chat_postMessage with the docs and alt & bold .");
  });
  it("reads a bounded prefix of hostile text", () => {
    expect(plainText("[".repeat(1_000_000), 100).length).toBeLessThanOrEqual(100);
    expect(plainText("<".repeat(1_000_000) + "x", 50).length).toBeLessThanOrEqual(50);
  });
  it("gives what running every pass on every text gave, on GitHub's strings and random markup", () => {
    // plainText before its passes were made conditional on the characters their matches need.
    const reference = (source: string, max = 10_000): string => {
      let t = source.length > max * 4 ? source.slice(0, max * 4) : source;
      t = t.replace(/<!--[^]*?-->/g, " ").replace(/<(?:br|\/p|\/li|\/h[1-6]|\/div|\/tr|\/dt|\/dd|\/pre)\b[^>]*>/gi, "\n").replace(/<[^>]*>/g, " ");
      t = t.replace(/!\[([^\]\n]*)\]\([^)\n]*\)/g, "$1").replace(/\[([^\]\n]*)\]\([^)\n]*\)/g, "$1").replace(/\[([^\]\n]*)\]\[[^\]\n]*\]/g, "$1");
      t = t.replace(/^[ \t]*(?:#{1,6}|>|[-*+]|\d{1,3}[.)])[ \t]+/gm, "").replace(/```[^\n]*|~~~[^\n]*/g, " ").replace(/[*`~|]+/g, " ");
      t = decodeEntities(t).replace(/[ \t\r\f\v\u00a0]+/g, " ").replace(/ ?\n[\s]*/g, "\n").trim();
      if (t.length <= max) return t;
      const cut = t.lastIndexOf(" ", max);
      return t.slice(0, cut > max - 40 ? cut : max);
    };
    const texts: string[] = [];
    const walk = (v: unknown): void => {
      if (typeof v === "string") texts.push(v);
      else if (v && typeof v === "object") for (const x of Object.values(v)) walk(x);
    };
    walk(JSON.parse(readFileSync(resolve(import.meta.dirname, "../../node_modules/@octokit/openapi/generated/api.github.com.json"), "utf8")));
    const alphabet = ["a", " ", "  ", "\t", "\n", "\r", "\u00a0", "\f", "\v", "\u2028", "<b>", "</p>", "<!--", "-->", "[x](y)", "![a](b)", "[r][s]", "]", "# ", "> ", "- ", "1. ", "```", "~~~", "*", "`", "|", "&amp;", "&#39;", "&", ";"];
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
    for (let i = 0; i < 20_000; i++) {
      let text = "";
      for (let k = random(20); k >= 0; k--) text += alphabet[random(alphabet.length)];
      texts.push(text);
    }
    expect(texts.length).toBeGreaterThan(150_000);
    for (const text of texts) {
      if (plainText(text) !== reference(text)) expect(plainText(text)).toBe(reference(text));
      if (plainText(text, 30) !== reference(text, 30)) expect(plainText(text, 30)).toBe(reference(text, 30));
    }
  });
});

describe("content documents", () => {
  it("combine labels of nested audiences without ever widening them", () => {
    expect(combineLabels([], ["partners"])).toEqual(["partners"]);
    expect(combineLabels(["partners"], [])).toEqual(["partners"]);
    expect(combineLabels(["partners", "beta"], ["beta"])).toEqual(["beta"]);
    expect(combineLabels(["partners"], ["beta"])).toEqual(["\u0000"]);
    expect(splitByAudience("a <!--a:partners-->b <!--a:beta-->c<!--/a--><!--/a--> d", [])).toEqual([
      { labels: [], html: "a   d" }, { labels: ["partners"], html: "b " }, { labels: ["\u0000"], html: "c" },
    ]);
  });

  it("split guides at headings (with anchors), and make steps, changelog entries and glossary terms, in every locale", async () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    const files = new Map<string, Uint8Array>([
      ["portico.yaml", enc("name: D\nlocales: [en, fr]\nvariables: { api_key: { default: K } }\naudiences: [partners]\nglossary: glossary.yaml\n")],
      ["guides/start.md", enc("---\ntitle: Start\ndescription: Begin here\n---\nIntro words.\n\n## Keys\n\nUse {{api_key}}.\n\n::: audience partners\n## Rebates\nSecret rebate words.\n:::\n")],
      ["guides/start.fr.md", enc("---\ntitle: Démarrer\n---\nBonjour.\n")],
      ["steps/call.md", enc("---\ntitle: Call\n---\nWalk.\n\n```sample js\nfetch(1)\n```\n\n## Fetch it {lines=1}\nDo the fetch.\n")],
      ["changelog/2026-01-01-x.md", enc("---\ntitle: Faster pets\ntype: Improved\nversion: v2.0.0\ndate: 2026-01-01\n---\nPets load faster.\n")],
      ["glossary.yaml", enc("Droplet:\n  definition: A virtual machine.\n  synonyms: [VM]\n")],
    ]);
    const release = await compileBundle(files, new Map());
    const docs = releaseDocuments(release.pages, release.glossary, release.config);
    const by = (id: string) => docs.find((d) => d.id === id);
    expect(by("guide:en:start")).toMatchObject({ kind: "guide", title: "Start", url: "/guides/start", labels: [], locale: "en" });
    expect(by("guide:en:start")!.body).toContain("Intro words");
    expect(by("guide:en:start#keys")).toMatchObject({ title: "Keys", section: "Start", url: "/guides/start#keys", body: "Keys\nUse {{api_key}}." });
    expect(by("guide:en:start#rebates")).toMatchObject({ labels: ["partners"], url: "/guides/start#rebates" });
    expect(docs.filter((d) => d.labels.length === 0).map((d) => d.body).join(" ")).not.toContain("Secret rebate");
    expect(by("guide:fr:start")).toMatchObject({ locale: "fr", title: "Démarrer", url: "/fr/guides/start" });
    expect(by("step:en:call#1")).toMatchObject({ kind: "step", title: "Fetch it", section: "Call", url: "/steps/call#step-1" });
    expect(by("changelog:en:2026-01-01-x")).toMatchObject({ kind: "changelog", section: "Improved · v2.0.0 · 2026-01-01", url: "/changelog#2026-01-01-x" });
    expect(by("glossary:Droplet")).toMatchObject({ kind: "glossary", url: "/glossary#term-droplet", body: "VM\nA virtual machine." });

    // The engine keeps the partners-only section from a reader without the label, totals included.
    const index = loadSearchIndex(buildSearchIndex(docs));
    expect(index.search("rebate", { canRead: (l) => l.length === 0 }).total).toBe(0);
    expect(index.search("rebate", { canRead: () => true }).results[0].doc.id).toBe("guide:en:start#rebates");
  });

  it("keep a page that has a title and no body (a headline-only changelog entry, an empty guide page) as a document", async () => {
    // Release notes are often headlines alone ("Added ParcelLabelVoidedEvent", "Version 0.1.0 (2020-08-26)"): the
    // entry is a page of the changelog, found by its title, its version and its date like any other.
    const enc = (s: string) => new TextEncoder().encode(s);
    const files = new Map<string, Uint8Array>([
      ["portico.yaml", enc("name: D\n")],
      ["changelog/2020-08-26-first.md", enc("---\ntitle: Added ParcelLabelVoidedEvent\ntype: New\nversion: v0.1.0\ndate: 2020-08-26\n---\n")],
      ["changelog/2020-09-01-second.md", enc("---\ntitle: Faster labels\ntype: Improved\nversion: v0.2.0\ndate: 2020-09-01\n---\nLabels load faster.\n")],
      ["guides/soon.md", enc("---\ntitle: Parcel lockers\n---\n")],
    ]);
    const release = await compileBundle(files, new Map());
    const docs = releaseDocuments(release.pages, release.glossary, release.config);
    expect(docs.find((d) => d.id === "changelog:en:2020-08-26-first")).toMatchObject({ kind: "changelog", title: "Added ParcelLabelVoidedEvent", body: "", labels: [] });
    expect(docs.find((d) => d.id === "guide:en:soon")).toMatchObject({ kind: "guide", title: "Parcel lockers", body: "" });
    const index = loadSearchIndex(buildSearchIndex(docs));
    const first = (q: string) => index.search(q, { canRead: () => true }).results[0]?.doc.id;
    expect(first("ParcelLabelVoidedEvent")).toBe("changelog:en:2020-08-26-first");
    expect(first("v0.1.0")).toBe("changelog:en:2020-08-26-first");
    expect(first("parcel lockers")).toBe("guide:en:soon");
  });
});
