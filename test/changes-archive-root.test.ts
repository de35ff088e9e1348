/**
 * @module A version published from an archive with `?root=` (two definitions side by side, so no root is found
 * automatically) can be diffed (issue 38): the root is kept with the version (versions.root) and the diff re-reads
 * the archive from it, as the publish did.
 */
import { gzipSync } from "fflate";
import { createTar } from "nanotar";
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createPortal, ORIGIN, upload } from "./harness/client";

const definition = (title: string, extra = "") => `openapi: 3.0.3
info: {title: ${title}, version: "1"}
paths:
  /pets:
    get:
      operationId: listPets
      responses: {'200': {description: ok}}
${extra}`;

/** An archive with two roots at one depth: `public.yaml` (the one published) and `internal.yaml`. */
const archive = (publicYaml: string) =>
  gzipSync(createTar([
    { name: "api/public.yaml", data: publicYaml },
    { name: "api/internal.yaml", data: definition("Internal", "  /admin:\n    delete:\n      responses: {'204': {description: gone}}\n") },
  ]));

describe("changes between versions published from an archive with ?root=", () => {
  it("the diff reads each version's archive from its own root", async () => {
    const token = await createPortal("changes-root");
    const v1 = await upload(token, archive(definition("Public")), { api: "pets", version: "1", root: "api/public.yaml" }, "application/gzip");
    expect(v1.status, JSON.stringify(v1.json).slice(0, 300)).toBe(201);
    const v2Yaml = definition("Public", "  /pets/{id}:\n    get:\n      parameters: [{name: id, in: path, required: true, schema: {type: string}}]\n      responses: {'200': {description: ok}}\n");
    const v2 = await upload(token, archive(v2Yaml), { api: "pets", version: "2", root: "public.yaml" }, "application/gzip");
    expect(v2.status, JSON.stringify(v2.json).slice(0, 300)).toBe(201);
    // Without the root, the archive is ambiguous: the upload says so, as the diff did.
    expect((await upload(token, archive(v2Yaml), { api: "pets", version: "3" }, "application/gzip")).json.error.code).toBe("ambiguous-root");

    const res = await SELF.fetch(`${ORIGIN}/v1/apis/pets/changes?from=1&to=2`, { headers: { authorization: `Bearer ${token}` } });
    const json = (await res.json()) as any;
    expect(res.status, JSON.stringify(json).slice(0, 400)).toBe(200);
    const endpoints = JSON.stringify(json);
    expect(endpoints).toContain("/pets/{id}");
    // The other root never enters the diff.
    expect(endpoints).not.toContain("/admin");
  });
});
