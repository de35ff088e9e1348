import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { portals } from "../schema";
import { getDb } from "../worker/store/db";
import { preparedOnce, slot } from "../worker/store/prepared";
import { createPortal } from "./harness/client";

describe("preparedOnce (store/prepared.ts): a query built once per handle, run with each call's values", () => {
  it("answers each run's own rows, mapped as drizzle maps them, alone and in a batch", async () => {
    await createPortal("prep-one", "Prep One");
    await createPortal("prep-two", "Prep Two");
    const db = getDb(env.DB);
    const bySlug = (slug: string) => preparedOnce(db, "test:portal-by-slug", () => db.select({ name: portals.name, sessionVersion: portals.sessionVersion }).from(portals).where(eq(portals.slug, slot<string>("slug"))), { slug });
    const [one, two, none] = await db.batch([bySlug("prep-one"), bySlug("prep-two"), bySlug("prep-none")]);
    expect(one).toEqual([{ name: "Prep One", sessionVersion: expect.any(Number) }]);
    expect(two).toEqual([{ name: "Prep Two", sessionVersion: expect.any(Number) }]);
    expect(none).toEqual([]);
    // The same name keeps the first shape; a second run with other values reads those values' rows.
    const [again] = await db.batch([bySlug("prep-two")]);
    expect(again).toEqual(two);
    // The same as drizzle's own query built each time.
    const [built] = await db.batch([db.select({ name: portals.name, sessionVersion: portals.sessionVersion }).from(portals).where(eq(portals.slug, "prep-one"))]);
    expect(built).toEqual(one);
  });
});
