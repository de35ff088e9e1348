import { describe, expect, it } from "vitest";
import { buildSearchIndex, loadSearchIndex, type SearchDocument } from "./index";

const all = () => true;
const doc = (id: string, title: string, body = "", extra: Partial<SearchDocument> = {}): SearchDocument => ({
  id, kind: "operation", title, body, url: `/x/${id}`, locale: "en", labels: [], ...extra,
});
const ids = (q: string, docs: SearchDocument[], opts = {}) =>
  loadSearchIndex(buildSearchIndex(docs)).search(q, { canRead: all, ...opts }).results.map((r) => r.doc.id);

describe("search engine: basics", () => {
  const docs = [
    doc("msg", "chat_postMessage", "Sends a message to a channel.", { fields: { operationId: "chat_postMessage" } }),
    doc("toll", "ListAvailablePhoneNumberTollFree", "Toll-free numbers you can buy."),
    doc("content", "Get repository content", "Gets the contents of a file.", { fields: { path: "/repos/{owner}/{repo}/contents/{path}", operationId: "repos/get-content" } }),
    doc("remove", "admin.users.remove", "Removes a user from a workspace."),
    doc("v251", "Changelog › Version 2.5.1", "Fixes."),
    doc("v215", "Changelog › Version 2.1.5", "Fixes."),
  ];

  it("finds identifiers by their parts and by their joined form", () => {
    expect(ids("post message", docs)[0]).toBe("msg");
    expect(ids("postmessage", docs)[0]).toBe("msg");
    expect(ids("phone number toll free", docs)[0]).toBe("toll");
    expect(ids("get content", docs)[0]).toBe("content");
    expect(ids("admin.users.remove", docs)[0]).toBe("remove");
  });

  it("keeps version numbers whole", () => {
    expect(ids("version 2.5.1", docs)[0]).toBe("v251");
    expect(ids("2.1.5", docs)[0]).toBe("v215");
  });

  it("completes the last word and corrects typos", () => {
    expect(ids("toll fr", docs)[0]).toBe("toll");
    expect(ids("mesage", docs)[0]).toBe("msg");
  });
});
