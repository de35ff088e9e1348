import { describe, expect, it } from "vitest";
import { fold, tokenize } from "./tokenize";

const words = (s: string) => tokenize(s).map((t) => (t.joined ? `${t.word}*` : t.word));

describe("tokenize", () => {
  it("splits identifiers into their words, and keeps camel-case pieces joined too", () => {
    expect(words("chat_postMessage")).toEqual(["chat", "post", "message", "postmessage*"]);
    expect(words("ListAvailablePhoneNumberTollFree")).toEqual(["list", "available", "phone", "number", "toll", "free", "listavailablephonenumbertollfree*"]);
    expect(words("repos/get-content")).toEqual(["repos", "get", "content"]);
    expect(words("admin.users.remove")).toEqual(["admin", "users", "remove"]);
    expect(words("HTTPServer")).toEqual(["http", "server", "httpserver*"]);
    expect(words("List Floating IPs")).toEqual(["list", "floating", "ips"]);
  });

  it("keeps version numbers whole and digits inside words", () => {
    expect(words("Version 2.5.1 (2025-05-05)")).toEqual(["version", "2.5.1", "2025", "05", "05"]);
    expect(words("v1.2")).toEqual(["1.2"]);
    expect(words("k8s ec2")).toEqual(["k8s", "ec2"]);
    expect(words("oauth2")).toEqual(["oauth2", "oauth*"]);
  });

  it("records offsets into the original text", () => {
    const [t] = tokenize("  Élan");
    expect(t).toEqual({ word: "elan", start: 2, end: 6 });
  });

  it("folds case and diacritics, and reads CJK as character pairs", () => {
    expect(fold("Ärger Ñu")).toBe("arger nu");
    expect(words("検索エンジン").slice(0, 2)).toEqual(["検索", "索エ"]);
  });

  it("stops at maxTokens", () => {
    expect(tokenize("a b c d e", 2)).toHaveLength(2);
  });
});
