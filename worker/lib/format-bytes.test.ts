import { describe, expect, it } from "vitest";
import { formatBytes } from "./format-bytes";

describe("formatBytes", () => {
  it.each([
    [0, "0 bytes"], [512, "512 bytes"], [1024, "1 KiB"], [262_144, "256 KiB"], [524_288, "512 KiB"],
    [1_572_864, "1.5 MiB"], [100 * 1024 * 1024, "100 MiB"], [1023, "1023 bytes"], [1025, "1 KiB"],
  ])("%d → %s", (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});
