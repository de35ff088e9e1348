/** @module Content bundles for the workerd tests, and an upload helper (POST /v1/content/upload). */
import { SELF } from "cloudflare:test";
import { ORIGIN } from "../harness/client";
import { tarGz, type BundleSpec } from "../../worker/content/testing/bundle";

export const PETSTORE_OPS = "openapi: 3.0.3\ninfo: { title: Pets, version: 1.0.0 }\npaths:\n  /pets:\n    get:\n      operationId: listPets\n      responses: { '200': { description: ok } }\n    post:\n      operationId: createPets\n      responses: { '201': { description: ok } }\n  /pets/{petId}:\n    get:\n      operationId: showPetById\n      parameters: [{ name: petId, in: path, required: true, schema: { type: string } }]\n      responses: { '200': { description: ok } }\n";

/** A small valid bundle; `marker` appears in every guide so tests can tell releases apart. */
export function bundle(marker = "one", extra: BundleSpec = {}): BundleSpec {
  return {
    "portico.yaml": "name: Pets docs\nlocales: [en, de]\nvariables:\n  api_key: { default: KEY_DEFAULT }\n  org_name: Acme\naudiences: [partners]\nbranding: { logo: logo.png, accent: \"#aa3300\" }\nnavigation:\n  - title: Start\n    items: [guides/intro, guides/auth, steps/first, api:pets]\n",
    "guides/intro.md": `---\ntitle: Introduction\ntags: [start]\ndescription: Start here\n---\nMarker ${marker}. List pets with [list](op:pets#listPets) or [create](<op:pets#POST /pets>).\nThen read [auth](auth.md#keys).\n\n## Setup\n\nYour key is \`{{api_key}}\` at {{org_name}}.\n\n::: audience partners\n## Partner pricing\nSECRET-PARTNER-${marker}\n:::\n\n::: tip\nA tip.\n:::\n`,
    "guides/intro.de.md": `---\ntitle: Einführung\n---\nMarker ${marker} (de). [Auth](auth.md)\n`,
    "guides/auth.md": `---\ntitle: Authentication\ntags: [start, security]\norder: 2\n---\nMarker ${marker}.\n\n## Keys\n\nSend \`Authorization: Bearer {{api_key}}\`.\n`,
    "steps/first.md": "---\ntitle: First call\n---\nA walkthrough.\n\n```sample javascript Node.js\nconst key = \"{{api_key}}\";\nconst res = await fetch(\"/pets\");\nconsole.log(await res.json());\n```\n\n```sample python Python\nimport requests\nr = requests.get(\"/pets\")\n```\n\n## Set the key {lines=1}\nKeep it secret.\n\n## Call {lines=2-3 python=2}\nFetch [the pets](op:pets#listPets).\n",
    "changelog/2026-01-01-new.md": `---\ntitle: Pets ${marker}\ntype: New\nversion: v1.0.0\ndate: 2026-01-01\napi: pets\ntags: [pets]\n---\nPets are here.\n`,
    "changelog/2026-02-01-partner.md": "---\ntitle: Partner change\ntype: Improved\nversion: v1.1.0\ndate: 2026-02-01\naudiences: [partners]\n---\nSECRET-FEED-ENTRY\n",
    "logo.png": new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 1]),
    "glossary.yaml": "Pet:\n  definition: An animal in the store.\n  synonyms: [pets]\n",
    ...extra,
  };
}

/** POST /v1/content/upload; returns status and JSON. */
export async function uploadContent(token: string, body: Uint8Array | BundleSpec, query: Record<string, string> = {}): Promise<{ status: number; json: any }> {
  const qs = new URLSearchParams(query).toString();
  const res = await SELF.fetch(`${ORIGIN}/v1/content/upload${qs ? `?${qs}` : ""}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/gzip" },
    body: (body instanceof Uint8Array ? body : tarGz(body)) as Uint8Array<ArrayBuffer>,
  });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text) };
}

/** GET /v1/content as text (for byte-identical comparisons). */
export async function liveContent(token: string): Promise<string> {
  const res = await SELF.fetch(`${ORIGIN}/v1/content`, { headers: { authorization: `Bearer ${token}` } });
  return res.text();
}
