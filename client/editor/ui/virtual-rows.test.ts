import { describe, expect, it } from "vitest";
import { visibleRange } from "./virtual-rows";

const layout = { rowPx: 20, virtualFrom: 100, overscan: 5 };

describe("visibleRange", () => {
  it("renders every row of a list up to virtualFrom", () => {
    expect(visibleRange(layout, 100, 900, 200)).toEqual([0, 100]);
  });
  it("renders the rows in view plus the overscan on both sides", () => {
    // scrollTop 1000 → row 50 at the top; 200 px show 10 rows (50..60); 5 more each side.
    expect(visibleRange(layout, 1000, 1000, 200)).toEqual([45, 65]);
  });
  it("clamps at both ends and reads a negative scroll (overscroll) as 0", () => {
    expect(visibleRange(layout, 1000, -40, 200)).toEqual([0, 15]);
    expect(visibleRange(layout, 1000, 19_900, 200)).toEqual([990, 1000]);
    expect(visibleRange(layout, 1000, 50_000, 200)).toEqual([1000, 1000]);
  });
  it("shows at least one row when the viewport has no height yet", () => {
    expect(visibleRange(layout, 1000, 0, 0)).toEqual([0, 6]);
  });
});
