import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { webhooksLabel } from "./tag-tree";
import { RequestBody } from "./components/request-body";
import { renderToString } from "preact-render-to-string";

describe("reference nits of issue 7", () => {
  it("names the webhooks section apart from a tag called Webhooks", () => {
    expect(webhooksLabel(["Shipments", "Webhooks"])).toBe("Webhook events");
    expect(webhooksLabel(["Shipments"])).toBe("Webhooks");
  });
  it("separates 'Request body' from its required badge", () => {
    const html = renderToString(<RequestBody body={{ required: true }} entries={[]} ctx={{} as never} idPrefix="x-" hl={3} />);
    expect(html.replace(/<[^>]+>/g, "")).toContain("Request body required");
    expect(readFileSync(new URL("../../client/static/portico.css", import.meta.url), "utf8")).toMatch(/\n\.rq \{/);
  });
});
