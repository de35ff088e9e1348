/**
 * @module The plans-and-credits seam of the assistant, filled by the workspace (issue 32): a portal owned by an
 * organisation may answer when its plan includes `assistant` (`can(org, feature)`, worker/workspace/plans.ts) and
 * the organisation's credit meter (one OrgCredits Durable Object per organisation) has a credit left; the spend is
 * atomic. Portals outside any organisation (made by the service admin with `POST /v1/portals`) are not metered:
 * `used` and `remaining` are null ("unlimited"). Owners are mailed once a month when use crosses 80 %.
 */
import { mailerFor } from "../access/mailer";
import { ApiError } from "../http/errors";
import { ownerEmails } from "../store/workspace";
import { orgCredits } from "../workspace/credits";
import { CREDIT_COST, monthlyCredits, requireFeature, type PlanHolder } from "../workspace/plans";

/** Credits as the answer reports them; null = not metered (unlimited). */
export interface Credits {
  used: number | null;
  remaining: number | null;
}

/** The organisation owning a portal, or undefined for an unmanaged portal (one D1 read). */
export async function organisationOfPortal(db: D1Database, portalId: number): Promise<(PlanHolder & { id: number; name: string }) | undefined> {
  const row = await db.prepare("SELECT o.id, o.name, o.plan, o.trial_ends_at AS trialEndsAt FROM portals p JOIN organisations o ON o.id = p.organisation_id WHERE p.id = ?")
    .bind(portalId).first<PlanHolder & { id: number; name: string }>();
  return row ?? undefined;
}

/**
 * Whether `portal` may answer one more question, and its credits after it. Throws ApiError 403 `plan-required`
 * (naming the plan) or 402 `trial-ended` synchronously when the plan says no; the promise rejects with 402
 * `credits-exhausted` when the meter does. The spend is one atomic step of the organisation's OrgCredits object,
 * whenever the caller awaits it.
 */
export function spendAssistantCredit(env: Env, portal: { id: number; slug: string; owner?: { organisationId: number; plan: string; trialEndsAt: string | null } }, now = new Date()): Promise<Credits> {
  // The plan is mirrored on the portal row the route loaded already: no D1 read here, and its refusal is thrown at
  // once (synchronously), before the caller starts anything beside the spend.
  const owner = portal.owner;
  if (!owner) return Promise.resolve({ used: null, remaining: null });
  const org = { id: owner.organisationId, plan: owner.plan, trialEndsAt: owner.trialEndsAt };
  requireFeature(org, "assistant", now);
  return spendCredit(env, portal, org, now);
}

async function spendCredit(env: Env, portal: { id: number }, org: PlanHolder & { id: number }, now: Date): Promise<Credits> {
  const grant = monthlyCredits(org, now);
  const spent = await orgCredits(env, org.id).spend(CREDIT_COST.assistant, now.getTime(), grant);
  if (!spent.ok) throw creditsExhausted();
  if (spent.warn) {
    // Once a month; a failed warning must not fail the reader's answer.
    const named = await organisationOfPortal(env.DB, portal.id);
    if (named) await warnOwners(env, named, spent.used, spent.grant).catch((e) => console.warn("credit warning not sent", String(e)));
  }
  return { used: spent.used, remaining: spent.remaining };
}

async function warnOwners(env: Env, org: { id: number; name: string }, used: number, grant: number): Promise<void> {
  const mailer = mailerFor(env);
  for (const to of await ownerEmails(env.DB, org.id)) {
    await mailer.send(null, { to, subject: `${org.name} has used 80 % of its AI credits`, text: `${org.name} has used ${used} of its ${grant} AI credits this month. When they run out the assistant stops answering until the 1st (search keeps working). Plans and usage: /app/orgs` });
  }
}

/** The errors the seam may throw, named here so the route and the docs agree. */
export const planRequired = () => new ApiError(403, "plan-required", "the assistant is not part of this portal's plan", { feature: "assistant", plan: "pro" });
export const creditsExhausted = () => new ApiError(402, "credits-exhausted", "the assistant has used this month's AI credits; search still works, and the credits renew on the 1st (UTC)");
