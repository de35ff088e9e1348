/**
 * @module Plans and the one entitlement check `can(org, feature)` (issue 32). Every gated route and every gated
 * dashboard control asks it; gated calls answer 403 `plan-required` naming the cheapest plan with the feature.
 * A trial past its end answers publishing with 402 `trial-ended`; reader pages stay up 30 days after it.
 * Pure: the clock is a parameter.
 */
import { ApiError } from "../http/errors";

/** Plans from cheapest to dearest; `trial` has everything in Pro for 14 days. */
export const PLANS = ["trial", "starter", "pro", "enterprise"] as const;
/** One plan. */
export type Plan = (typeof PLANS)[number];
/** Plans a customer pays for (Stripe prices exist for these). */
export const PAID_PLANS = ["starter", "pro", "enterprise"] as const;

/** Length of a trial, in days. */
export const TRIAL_DAYS = 14;
/** Days reader pages stay up after a trial ended without a plan. */
export const READER_GRACE_DAYS = 30;
const DAY_MS = 86_400_000;

/** Features gated by plan. */
export const FEATURES = {
  reference: "starter",
  guides: "starter",
  "keyword-search": "starter",
  playground: "starter",
  "private-portal": "starter",
  changelog: "starter",
  assistant: "pro",
  "search-analytics": "pro",
  "ai-drafts": "pro",
  "reader-jwt": "pro",
  "reader-magic-link": "pro",
  "custom-domain": "pro",
  "ai-credits": "pro",
  saml: "enterprise",
  "org-search": "enterprise",
  "audit-export": "enterprise",
} as const satisfies Record<string, Exclude<Plan, "trial">>;
/** One gated feature. */
export type Feature = keyof typeof FEATURES;

/** Monthly AI credits per plan (the assistant costs 1 per answer, AI drafts 5). */
export const MONTHLY_CREDITS: Record<Plan, number> = { trial: 1000, starter: 0, pro: 1000, enterprise: 10_000 };
/** Credits one use costs. */
export const CREDIT_COST = { assistant: 1, "ai-drafts": 5 } as const;

/** Names plans had before (organisations of issue 9's `PUT /v1/orgs/{org}`): "team" is starter. */
export function normalisePlan(plan: string): Plan {
  if (plan === "team") return "starter";
  return (PLANS as readonly string[]).includes(plan) ? (plan as Plan) : "starter";
}

/** What the entitlement check needs of an organisation. */
export interface PlanHolder {
  plan: string;
  /** ISO 8601; only read on plan "trial". */
  trialEndsAt: string | null;
}

/** Where an organisation stands: `trialing` (days left), `active` (paid), `trial-ended` (readers still served), `paused` (past the grace). */
export type PlanStatus =
  | { status: "active"; plan: Plan }
  | { status: "trialing"; plan: "trial"; trialEndsAt: string; daysLeft: number }
  | { status: "trial-ended"; plan: "trial"; trialEndsAt: string; readersUntil: string }
  | { status: "paused"; plan: "trial"; trialEndsAt: string };

/** The organisation's status at `now`. A trial without an end date never ends (an operator's choice). */
export function planStatus(org: PlanHolder, now: Date): PlanStatus {
  const plan = normalisePlan(org.plan);
  if (plan !== "trial" || !org.trialEndsAt) return { status: "active", plan };
  const end = Date.parse(org.trialEndsAt);
  if (now.getTime() < end) return { status: "trialing", plan, trialEndsAt: org.trialEndsAt, daysLeft: Math.ceil((end - now.getTime()) / DAY_MS) };
  const readersUntil = new Date(end + READER_GRACE_DAYS * DAY_MS).toISOString();
  if (now.getTime() < end + READER_GRACE_DAYS * DAY_MS) return { status: "trial-ended", plan, trialEndsAt: org.trialEndsAt, readersUntil };
  return { status: "paused", plan, trialEndsAt: org.trialEndsAt };
}

/** Whether the plan includes `feature` (a running trial has everything in Pro; an ended one nothing gated). */
export function can(org: PlanHolder, feature: Feature, now = new Date()): boolean {
  const state = planStatus(org, now);
  if (state.status === "trial-ended" || state.status === "paused") return false;
  const plan = state.plan === "trial" ? "pro" : state.plan;
  return PLANS.indexOf(plan) >= PLANS.indexOf(FEATURES[feature]);
}

/**
 * Throws unless `org` may use `feature`: 402 `trial-ended` after a trial, else 403 `plan-required` whose message
 * and `details.plan` name the cheapest plan with it.
 */
export function requireFeature(org: PlanHolder, feature: Feature, now = new Date()): void {
  if (can(org, feature, now)) return;
  const state = planStatus(org, now);
  if (state.status === "trial-ended" || state.status === "paused") throw trialEnded(state.trialEndsAt);
  const plan = FEATURES[feature];
  throw new ApiError(403, "plan-required", `${feature} is part of the ${plan[0]!.toUpperCase()}${plan.slice(1)} plan; this organisation is on ${state.plan}`, { feature, plan });
}

/** Throws 402 `trial-ended` when the organisation's trial is over (publishing stops; readers are still served). */
export function requirePublishing(org: PlanHolder, now = new Date()): void {
  const state = planStatus(org, now);
  if (state.status === "trial-ended" || state.status === "paused") throw trialEnded(state.trialEndsAt);
}

function trialEnded(trialEndsAt: string): ApiError {
  return new ApiError(402, "trial-ended", `the trial ended on ${trialEndsAt.slice(0, 10)}; choose a plan to publish again (nothing was lost)`, { trialEndsAt });
}

/** Whether reader pages are served: always, except a trial ended more than 30 days ago. */
export function readersServed(org: PlanHolder, now = new Date()): boolean {
  return planStatus(org, now).status !== "paused";
}

/** The monthly credit grant at `now` (0 once a trial ended). */
export function monthlyCredits(org: PlanHolder, now = new Date()): number {
  const state = planStatus(org, now);
  if (state.status === "trial-ended" || state.status === "paused") return 0;
  return MONTHLY_CREDITS[state.plan];
}
