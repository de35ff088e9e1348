import { createTar } from "nanotar";
import { gzipSync } from "fflate";
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createPortal, ORIGIN, upload } from "./harness/client";

const ROOT = `openapi: 3.0.3
info:
  title: Outside
  version: "1"
paths:
  /a:
    get:
      parameters:
        - $ref: '../../etc/passwd'
        - $ref: 'file:///etc/passwd'
        - $ref: '/proc/self/environ'
        - $ref: 'models/soft.yaml'
        - $ref: 'models/hard.yaml'
        - $ref: 'C:\\Windows\\win.ini'
      responses:
        '200':
          $ref: 'responses/ok.yaml'
`;
const OK = `description: ok
content:
  application/json:
    schema:
      $ref: '../../../secret.yaml#/Secret'
`;

/** Turns the tar entry `name` into a link entry (type "1" hard, "2" symbolic) to `target`, fixing its checksum. */
function makeLink(tar: Uint8Array, name: string, type: "1" | "2", target: string): void {
  for (let at = 0; at + 512 <= tar.length; at += 512) {
    const header = tar.subarray(at, at + 512);
    if (String.fromCharCode(...header.subarray(0, name.length)) !== name || header[name.length] !== 0) continue;
    header[156] = type.charCodeAt(0);
    header.fill(0, 157, 257);
    header.set(new TextEncoder().encode(target), 157);
    header.fill(0x20, 148, 156);
    const sum = header.reduce((a, b) => a + b, 0);
    header.set(new TextEncoder().encode(sum.toString(8).padStart(6, "0") + "\0 "), 148);
    return;
  }
  throw new Error(`no entry ${name}`);
}

describe("$refs that leave an uploaded archive", () => {
  it("are reported as lint errors with file and line, and nothing outside is read", async () => {
    const tar = createTar([
      { name: "openapi.yaml", data: ROOT },
      { name: "responses/ok.yaml", data: OK },
      { name: "models/soft.yaml", data: "x" },
      { name: "models/hard.yaml", data: "x" },
    ]);
    makeLink(tar, "models/soft.yaml", "2", "/etc/passwd");
    makeLink(tar, "models/hard.yaml", "1", "openapi.yaml");
    const token = await createPortal("outside");
    const { status, json } = await upload(token, gzipSync(tar), { api: "outside" }, "text/html");
    expect(status).toBe(201);
    const outside = json.lint.issues.filter((i: any) => i.rule === "ref-outside-archive");
    const seen = outside.map((i: any) => [i.file ?? "openapi.yaml", i.line, i.severity, i.message.split(";")[0]]);
    expect(seen).toEqual(expect.arrayContaining([
      ["openapi.yaml", 9, "error", '"../../etc/passwd" points outside the uploaded archive'],
      ["openapi.yaml", 10, "error", '"file:///etc/passwd" is a file: URL, outside the uploaded archive'],
      ["openapi.yaml", 11, "error", '"/proc/self/environ" is an absolute path, outside the uploaded archive'],
      ["openapi.yaml", 12, "error", '"models/soft.yaml" goes through models/soft.yaml, a symbolic or hard link entry (links are never followed)'],
      ["openapi.yaml", 13, "error", '"models/hard.yaml" goes through models/hard.yaml, a symbolic or hard link entry (links are never followed)'],
      ["openapi.yaml", 14, "error", '"C:\\\\Windows\\\\win.ini" is an absolute (drive) path, outside the uploaded archive'],
      ["responses/ok.yaml", 5, "error", '"../../../secret.yaml#/Secret" points outside the uploaded archive'],
    ]));
    expect(outside).toHaveLength(7);
    expect(json.lint.errors).toBeGreaterThanOrEqual(7);
    // Nothing was read from outside: no path or content of this machine's files reaches the answer.
    expect(JSON.stringify(json)).not.toMatch(/root:x:0:0|PATH=/);
    // The raw archive is served back as what it is, whatever the upload's Content-Type said.
    const raw = await SELF.fetch(`${ORIGIN}/v1/apis/outside/definition`, { headers: { authorization: `Bearer ${token}` } });
    expect(raw.headers.get("content-type")).toBe("application/gzip");
    expect(raw.headers.get("x-content-type-options")).toBe("nosniff");
    await raw.arrayBuffer();
  });

  it("a single-file upload's refs to other files (here outside any upload) are reported too, with lines", async () => {
    const token = await createPortal("outside-single");
    const single = "openapi: 3.0.3\ninfo: {title: S, version: '1'}\npaths:\n  /a:\n    get:\n      parameters:\n        - $ref: '../../etc/passwd'\n        - $ref: 'file:///etc/passwd'\n      responses: {'200': {description: ok}}\n";
    const { status, json } = await upload(token, single, { api: "single" });
    expect(status).toBe(201);
    const refs = json.lint.issues.filter((i: any) => /ref/.test(i.rule)).map((i: any) => [i.rule, i.line, i.severity]);
    expect(refs).toEqual([["unresolved-ref", 7, "error"], ["remote-ref", 8, "warning"]]);
  });

  it("?strict=true refuses such an archive with 422, naming the refs", async () => {
    const tar = createTar([{ name: "openapi.yaml", data: ROOT.replace(/        - \$ref: '(?!\.\.\/\.\.\/etc).*\n/g, "") }, { name: "responses/ok.yaml", data: "description: ok\n" }]);
    const token = await createPortal("outside-strict");
    const { status, json } = await upload(token, gzipSync(tar), { api: "outside", strict: "true" }, "application/gzip");
    expect(status).toBe(422);
    expect(JSON.stringify(json.error.details.lint.issues)).toContain("ref-outside-archive");
  });
});
