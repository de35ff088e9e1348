/**
 * @module Test cases of decodeUtf8 (sniff.ts), shared by the Node test (sniff.test.ts) and the workerd one
 * (test/upload-handoff.test.ts): the answer must be a fatal TextDecoder's on every platform.
 */

/** Bytes, and the text a fatal TextDecoder gives for them (undefined: it throws). */
export const UTF8_CASES: { name: string; bytes: number[]; text: string | undefined }[] = [
  { name: "ASCII", bytes: [0x6f, 0x3a, 0x20, 0x31], text: "o: 1" },
  { name: "two-, three- and four-byte sequences", bytes: [0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80], text: "é€😀" },
  { name: "a leading BOM is dropped", bytes: [0xef, 0xbb, 0xbf, 0x61], text: "a" },
  { name: "a second BOM is kept", bytes: [0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x61], text: "\uFEFFa" },
  { name: "U+FFFD written in the source", bytes: [0x61, 0xef, 0xbf, 0xbd, 0x62], text: "a\uFFFDb" },
  { name: "a lone continuation byte", bytes: [0x61, 0x80, 0x62], text: undefined },
  { name: "a truncated sequence at the end", bytes: [0x61, 0xe2, 0x82], text: undefined },
  { name: "an overlong encoding", bytes: [0xc0, 0xaf], text: undefined },
  { name: "an encoded surrogate", bytes: [0xed, 0xa0, 0x80], text: undefined },
  { name: "past U+10FFFF", bytes: [0xf4, 0x90, 0x80, 0x80], text: undefined },
  { name: "U+FFFD beside an ill-formed byte", bytes: [0xef, 0xbf, 0xbd, 0xff], text: undefined },
  { name: "empty", bytes: [], text: "" },
];
