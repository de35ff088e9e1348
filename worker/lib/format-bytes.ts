/** @module Byte counts for people: what an error message says a limit is. */

const UNITS = ["bytes", "KiB", "MiB", "GiB"] as const;

/**
 * `bytes` in the largest binary unit that keeps it at least 1, with at most one decimal and none when whole:
 * 262144 → "256 KiB", 1572864 → "1.5 MiB", 512 → "512 bytes".
 */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const text = Number.isInteger(value) ? String(value) : value.toFixed(1).replace(/\.0$/, "");
  return `${text} ${UNITS[unit]}`;
}
