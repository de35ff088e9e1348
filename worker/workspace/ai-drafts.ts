/**
 * @module AI drafts under the plan (issue 32): the Workers AI changelog writer costs 5 credits a draft and is part of
 * Pro. For a portal owned by an organisation, `meteredChangelogWriter` asks `can(org, "ai-drafts")` and spends the
 * credits first; without the feature or the credits the draft is the embedded writer's (the same facts, plainer
 * words), never an error. Unmanaged portals use the AI writer unmetered.
 */
import { embeddedChangelogWriter, type ChangelogWriter } from "../publish/changelog-writer";
import { orgCredits } from "./credits";
import { can, CREDIT_COST, monthlyCredits } from "./plans";

/** The portal as the writer needs it: its owner's plan mirrored on the row, when it has an owner. */
export interface MeteredPortal {
  organisationId: number | null;
  plan: string;
  trialEndsAt: string | null;
}

/** `ai` when the plan and the credits allow it, draft by draft; else the embedded writer. */
export function meteredChangelogWriter(env: Env, portal: MeteredPortal, ai: ChangelogWriter, now: () => Date = () => new Date()): ChangelogWriter {
  if (portal.organisationId === null) return ai;
  const org = { plan: portal.plan, trialEndsAt: portal.trialEndsAt };
  const orgId = portal.organisationId;
  return {
    async write(input) {
      const at = now();
      if (!can(org, "ai-drafts", at)) return embeddedChangelogWriter.write(input);
      const spent = await orgCredits(env, orgId).spend(CREDIT_COST["ai-drafts"], at.getTime(), monthlyCredits(org, at));
      return spent.ok ? ai.write(input) : embeddedChangelogWriter.write(input);
    },
  };
}
