import { describe, expect, it } from "vitest";
import { decodeUtf8, sniffBody } from "./sniff";
import { UTF8_CASES } from "./utf8-cases";

const fatal = (bytes: Uint8Array) => {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
};
const decoded = (bytes: Uint8Array) => {
  try {
    return decodeUtf8(bytes);
  } catch {
    return undefined;
  }
};

describe("decodeUtf8 answers as a fatal TextDecoder does", () => {
  for (const { name, bytes, text } of UTF8_CASES) {
    it(name, () => {
      const input = new Uint8Array(bytes);
      expect(fatal(input)).toBe(text);
      expect(decoded(input)).toBe(text);
      // A view into a larger buffer (as a request body or archive entry may be).
      const padded = new Uint8Array(bytes.length + 4).fill(0x7a);
      padded.set(input, 2);
      expect(decoded(padded.subarray(2, 2 + bytes.length))).toBe(text);
    });
  }

  it("without Buffer (a browser), through TextDecoder alone", () => {
    const saved = globalThis.Buffer;
    try {
      (globalThis as { Buffer?: unknown }).Buffer = undefined;
      for (const { bytes, text } of UTF8_CASES) expect(decoded(new Uint8Array(bytes))).toBe(text);
    } finally {
      globalThis.Buffer = saved;
    }
  });

  it("sniffBody refuses ill-formed UTF-8 as binary and keeps U+FFFD written in the source", () => {
    expect(sniffBody(new Uint8Array([0x6f, 0x3a, 0x20, 0xc3, 0x28]))).toMatchObject({ kind: "binary", message: "the body is not UTF-8 text" });
    expect(sniffBody(new Uint8Array([0x6f, 0x3a, 0x20, 0xef, 0xbf, 0xbd]))).toEqual({ kind: "text", text: "o: \uFFFD" });
  });
});
