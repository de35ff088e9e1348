/**
 * @module The `BillingProvider` port (issue 32) with its two adapters: Stripe, through its official library with the
 * fetch HTTP client and `constructEventAsync` (Web Crypto), when `STRIPE_SECRET_KEY` and `STRIPE_WEBHOOK_SECRET` are
 * set; otherwise none (billing off: the service admin sets plans). Checkout subscribes an organisation, the customer
 * portal changes or cancels, and the webhook moves the plan (`applyBillingEvent`, idempotent by event id).
 * Prices come from the vars `STRIPE_PRICE_STARTER`, `STRIPE_PRICE_PRO`, `STRIPE_PRICE_ENTERPRISE`.
 * @see https://docs.stripe.com/api/checkout/sessions/create
 * @see https://docs.stripe.com/webhooks#verify-events
 */
import Stripe from "stripe";
import { ApiError } from "../http/errors";
import type { OrgRow } from "../store/workspace";
import { PAID_PLANS } from "./plans";

/** A paid plan. */
export type PaidPlan = (typeof PAID_PLANS)[number];

/** What the webhook hands on: the event, already verified. */
export type BillingEvent = Stripe.Event;

/** Billing for organisations. */
export interface BillingProvider {
  readonly enabled: boolean;
  /** A Checkout URL subscribing `org` to `plan`; back to `returnUrl` after. */
  checkout(org: OrgRow, plan: PaidPlan, returnUrl: string): Promise<string>;
  /** A customer-portal URL for an organisation that subscribed. */
  portal(org: OrgRow, returnUrl: string): Promise<string>;
  /** Verifies a webhook's signature and parses it. @throws ApiError 400 `invalid-signature`. */
  verify(body: string, signature: string | undefined): Promise<BillingEvent>;
}

/** The env the Stripe adapter reads; `STRIPE_API` (optional Fetcher) carries Stripe's HTTP API calls (tests bind a fake). */
export interface BillingEnv {
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_PRICE_STARTER?: string;
  STRIPE_PRICE_PRO?: string;
  STRIPE_PRICE_ENTERPRISE?: string;
  STRIPE_API?: { fetch: typeof fetch };
}

const OFF: BillingProvider = {
  enabled: false,
  checkout: () => Promise.reject(billingOff()),
  portal: () => Promise.reject(billingOff()),
  verify: () => Promise.reject(billingOff()),
};

function billingOff(): ApiError {
  return new ApiError(503, "billing-off", "billing is not configured on this server; the service admin sets plans (PATCH /v1/admin/orgs/{org})");
}

/** The price id of a plan. @throws ApiError 503 when it is not configured. */
export function priceOf(env: BillingEnv, plan: PaidPlan): string {
  const price = { starter: env.STRIPE_PRICE_STARTER, pro: env.STRIPE_PRICE_PRO, enterprise: env.STRIPE_PRICE_ENTERPRISE }[plan];
  if (!price) throw new ApiError(503, "billing-off", `no Stripe price is configured for ${plan} (STRIPE_PRICE_${plan.toUpperCase()})`);
  return price;
}

/** The plan of a price id, or undefined. */
export function planOfPrice(env: BillingEnv, price: string | undefined): PaidPlan | undefined {
  if (!price) return undefined;
  return PAID_PLANS.find((p) => ({ starter: env.STRIPE_PRICE_STARTER, pro: env.STRIPE_PRICE_PRO, enterprise: env.STRIPE_PRICE_ENTERPRISE })[p] === price);
}

/** The Stripe adapter. */
export function stripeBilling(env: BillingEnv & { STRIPE_SECRET_KEY: string; STRIPE_WEBHOOK_SECRET: string }): BillingProvider {
  const fetcher = env.STRIPE_API;
  const stripe = new Stripe(env.STRIPE_SECRET_KEY, {
    httpClient: Stripe.createFetchHttpClient(fetcher ? (input, init) => fetcher.fetch(input as RequestInfo, init) : undefined),
    maxNetworkRetries: 1,
    timeout: 10_000,
  });
  const crypto = Stripe.createSubtleCryptoProvider();
  return {
    enabled: true,
    async checkout(org, plan, returnUrl) {
      const session = await stripe.checkout.sessions.create({
        mode: "subscription",
        line_items: [{ price: priceOf(env, plan), quantity: 1 }],
        client_reference_id: org.slug,
        ...(org.stripeCustomerId ? { customer: org.stripeCustomerId } : {}),
        metadata: { org: org.slug, plan },
        subscription_data: { metadata: { org: org.slug, plan } },
        success_url: `${returnUrl}?billing=done`,
        cancel_url: returnUrl,
      });
      if (!session.url) throw new ApiError(502, "billing-failed", "Stripe answered without a Checkout URL");
      return session.url;
    },
    async portal(org, returnUrl) {
      if (!org.stripeCustomerId) throw new ApiError(409, "not-subscribed", "this organisation has not subscribed yet; choose a plan first");
      const session = await stripe.billingPortal.sessions.create({ customer: org.stripeCustomerId, return_url: returnUrl });
      return session.url;
    },
    async verify(body, signature) {
      if (!signature) throw new ApiError(400, "invalid-signature", "missing Stripe-Signature header");
      try {
        return await stripe.webhooks.constructEventAsync(body, signature, env.STRIPE_WEBHOOK_SECRET, undefined, crypto);
      } catch (error) {
        throw new ApiError(400, "invalid-signature", "the Stripe signature does not verify", undefined, { cause: error });
      }
    },
  };
}

/** Stripe when configured, else billing off. */
export function billingFor(env: Env | BillingEnv): BillingProvider {
  const b = env as BillingEnv;
  return b.STRIPE_SECRET_KEY && b.STRIPE_WEBHOOK_SECRET ? stripeBilling(b as BillingEnv & { STRIPE_SECRET_KEY: string; STRIPE_WEBHOOK_SECRET: string }) : OFF;
}

/** What an event asks of an organisation: a plan to move to (with billing ids), or nothing. */
export type PlanMove =
  | { kind: "subscribe"; org: string; plan: PaidPlan; customer?: string; subscription?: string }
  | { kind: "update"; customer: string; plan?: PaidPlan; active: boolean }
  | { kind: "ignore" };

/** Reads the events that move plans; anything else is ignored (and still answered 200). */
export function planMoveOf(env: BillingEnv, event: BillingEvent): PlanMove {
  const id = (v: unknown) => (typeof v === "string" ? v : v && typeof v === "object" && "id" in v ? String((v as { id: unknown }).id) : undefined);
  if (event.type === "checkout.session.completed") {
    const s = event.data.object;
    const org = s.client_reference_id ?? s.metadata?.org;
    const plan = s.metadata?.plan as PaidPlan | undefined;
    if (!org || !plan || !(PAID_PLANS as readonly string[]).includes(plan)) return { kind: "ignore" };
    const customer = id(s.customer);
    const subscription = id(s.subscription);
    return { kind: "subscribe", org, plan, ...(customer ? { customer } : {}), ...(subscription ? { subscription } : {}) };
  }
  if (event.type === "customer.subscription.updated" || event.type === "customer.subscription.deleted") {
    const sub = event.data.object;
    const customer = id(sub.customer);
    if (!customer) return { kind: "ignore" };
    const plan = planOfPrice(env, sub.items?.data?.[0]?.price?.id) ?? (sub.metadata?.plan as PaidPlan | undefined);
    const active = event.type === "customer.subscription.updated" && (sub.status === "active" || sub.status === "trialing" || sub.status === "past_due");
    return { kind: "update", customer, ...(plan && (PAID_PLANS as readonly string[]).includes(plan) ? { plan } : {}), active };
  }
  return { kind: "ignore" };
}
