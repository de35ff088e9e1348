import { describe, expect, it } from "vitest";
import { BoundedCache } from "./bounded-cache";

describe("BoundedCache", () => {
  it("drops the least recently used entry first once past its size", () => {
    const cache = new BoundedCache<string, string>({ maxSize: 10 });
    cache.set("a", "A", 4);
    cache.set("b", "B", 4);
    expect(cache.get("a")).toBe("A"); // a is now the most recently used
    cache.set("c", "C", 4);
    expect([cache.get("a"), cache.get("b"), cache.get("c")]).toEqual(["A", undefined, "C"]);
    expect(cache.size).toBe(8);
  });

  it("bounds the number of entries too (size 1 each by default)", () => {
    const cache = new BoundedCache<number, string>({ maxEntries: 2 });
    cache.set(1, "one");
    cache.set(2, "two");
    cache.get(1);
    cache.set(3, "three");
    expect([cache.get(1), cache.get(2), cache.get(3)]).toEqual(["one", undefined, "three"]);
    expect(cache.entries).toBe(2);
  });

  it("keeps no entry larger than maxEntrySize (one hostile value must not flush the rest)", () => {
    const cache = new BoundedCache<string, string>({ maxSize: 100, maxEntrySize: 25 });
    cache.set("small", "s", 10);
    expect(cache.set("big", "b", 26)).toBe("b");
    expect([cache.get("big"), cache.get("small")]).toEqual([undefined, "s"]);
  });

  it("replacing an entry counts its new size once", () => {
    const cache = new BoundedCache<string, string>({ maxSize: 10 });
    cache.set("a", "A", 6);
    cache.set("a", "A2", 3);
    cache.set("b", "B", 7);
    expect([cache.get("a"), cache.get("b"), cache.size]).toEqual(["A2", "B", 10]);
  });

  it("set returns the value, for `cache.get(k) ?? cache.set(k, load())`", () => {
    const cache = new BoundedCache<string, number>({ maxEntries: 4 });
    expect(cache.get("k") ?? cache.set("k", 42)).toBe(42);
    expect(cache.get("k")).toBe(42);
  });
});
