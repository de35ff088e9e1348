import { expect } from "vitest";
import type { buildReference } from "../../worker/openapi/build";
import type { buildStreamed, ByteSource } from "../../worker/openapi/stream/build";

/**
 * A stored body held in memory as the streamed build reads one from R2: streamed in `chunk`-byte pieces, read by
 * byte ranges `[start, end)` (clamped to the body), counting the range reads.
 */
export function memorySource(bytes: Uint8Array, chunk = 64 * 1024): ByteSource & { reads: number } {
  const source = {
    reads: 0,
    async *stream() {
      for (let i = 0; i < bytes.length; i += chunk) yield bytes.subarray(i, i + chunk);
    },
    async read(start: number, end: number) {
      source.reads++;
      return bytes.slice(start, Math.min(end, bytes.length));
    },
  };
  return source;
}

/** A build's issue as the equality below compares it: position first, so a sorted list reads in document order. */
const issueKey = (i: { rule: string; path: unknown[]; line?: number; column?: number; message: string }) => `${i.line}:${i.column} ${i.rule} ${JSON.stringify(i.path)} ${i.message}`;

/**
 * Asserts that a streamed build equals the whole-document build of the same body: operations, header, every
 * slice, and every issue with identical line and column. Throws (an assertion error) at the first difference.
 */
export async function expectSameModel(full: ReturnType<typeof buildReference>, streamed: Awaited<ReturnType<typeof buildStreamed>>): Promise<void> {
  if (!full.ok) throw new Error(full.message);
  if (!streamed.ok) throw new Error(streamed.message);
  expect(streamed.operations).toEqual(full.operations);
  expect(streamed.header).toEqual(full.header);
  for (const op of full.operations) expect(await streamed.slice(op.slug), op.slug).toEqual(full.slice(op.slug));
  expect(streamed.issues.map(issueKey).sort()).toEqual(full.issues.map(issueKey).sort());
}
