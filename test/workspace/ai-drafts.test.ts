/**
 * AI drafts under the plan (issue 32): the AI changelog writer (faked: the model provider is what we cannot reach)
 * runs for Pro and trial organisations at 5 credits a draft; on Starter, or without credits, the embedded writer's
 * draft comes instead; unmanaged portals are not metered.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ChangelogWriter, ChangelogWriterInput } from "../../worker/publish/changelog-writer";
import { orgCredits } from "../../worker/workspace/credits";
import { meteredChangelogWriter } from "../../worker/workspace/ai-drafts";

let calls = 0;
const fakeAi: ChangelogWriter = {
  async write() {
    calls++;
    return { type: "changed", version: "2", bullets: [], body: "AI words" } as never;
  },
};
const input = { api: { slug: "pets", title: "Pets" }, from: "1", to: "2", date: "2026-11-27", result: { breaking: false, changes: [], counts: { ERR: 0, WARN: 0, INFO: 0 } }, operationUrl: () => undefined } as unknown as ChangelogWriterInput;

async function org(plan: string): Promise<number> {
  const row = await env.DB.prepare("INSERT INTO organisations (slug, name, plan, created_at, trial_ends_at) VALUES (?, 'O', ?, ?, NULL) RETURNING id").bind(`drafts-${plan}-${Math.random().toString(36).slice(2, 8)}`, plan, new Date().toISOString()).first<{ id: number }>();
  return row!.id;
}

describe("meteredChangelogWriter", () => {
  it("spends 5 credits per AI draft on Pro, falls back to the embedded writer without credits or on Starter", async () => {
    const pro = await org("pro");
    const now = Date.now();
    await orgCredits(env, pro).set(7, now, 1000);
    const writer = meteredChangelogWriter(env, { organisationId: pro, plan: "pro", trialEndsAt: null }, fakeAi);
    calls = 0;
    expect((await writer.write(input) as any).body).toBe("AI words");
    expect((await orgCredits(env, pro).read(now, 1000)).remaining).toBe(2);
    const second = (await writer.write(input)) as any;
    expect(second.body).not.toBe("AI words");
    expect(calls).toBe(1);
    const starter = await org("starter");
    const plain = meteredChangelogWriter(env, { organisationId: starter, plan: "starter", trialEndsAt: null }, fakeAi);
    expect(((await plain.write(input)) as any).body).not.toBe("AI words");
    expect(calls).toBe(1);
    const unmanaged = meteredChangelogWriter(env, { organisationId: null, plan: "trial", trialEndsAt: null }, fakeAi);
    expect(unmanaged).toBe(fakeAi);
  });
});
