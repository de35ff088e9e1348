/**
 * @module The plans-and-credits seam (one function the workspace issue fills). Today every portal may use the
 * assistant and credits are not metered: `used` and `remaining` are null ("unlimited"). Once plans gate it, this is
 * where 403 `plan-required` and 402 `credits-exhausted` come from, before retrieval runs.
 */
import { ApiError } from "../http/errors";

/** Credits as the answer reports them; null = not metered (unlimited). */
export interface Credits {
  used: number | null;
  remaining: number | null;
}

/**
 * Whether `portal` may answer one more question, and its credits after it. Throws ApiError 403 `plan-required` or
 * 402 `credits-exhausted` when a plan says no (never today: there are no plans yet).
 */
export async function spendAssistantCredit(_env: Env, _portal: { id: number; slug: string }): Promise<Credits> {
  return { used: null, remaining: null };
}

/** The errors the seam may throw, named here so the route and the docs agree. */
export const planRequired = () => new ApiError(403, "plan-required", "the assistant is not part of this portal's plan");
export const creditsExhausted = () => new ApiError(402, "credits-exhausted", "this portal has used its assistant credits for the period");
