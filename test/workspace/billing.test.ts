/**
 * Billing through Stripe (issue 32): only Stripe's HTTP API is faked (a Fetcher answering /v1/checkout/sessions and
 * /v1/billing_portal/sessions as Stripe does); webhook events are signed with the library's own test helper and
 * verified by `constructEventAsync`: signature, replay (idempotent by event id), unknown events, cancellation.
 */
import { env } from "cloudflare:test";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { workspaceRoutes } from "../../worker/routes/workspace";
import { ownerWithPortal, asWriter } from "../harness/workspace";

const SECRET = "whsec_test_portico";
const seen: Array<{ path: string; form: URLSearchParams; auth: string | null }> = [];
const fakeStripe = {
  async fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
    const form = new URLSearchParams(typeof init?.body === "string" ? init.body : "");
    seen.push({ path: url.pathname, form, auth: new Headers(init?.headers).get("authorization") });
    const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "request-id": "req_fake" } });
    if (url.pathname === "/v1/checkout/sessions") return json({ id: "cs_test_1", object: "checkout.session", url: "https://checkout.stripe.com/c/pay/cs_test_1" });
    if (url.pathname === "/v1/billing_portal/sessions") return json({ id: "bps_1", object: "billing_portal.session", url: `https://billing.stripe.com/p/session/${form.get("customer")}` });
    return json({ error: { type: "invalid_request_error", message: `no fake for ${url.pathname}` } }, 404);
  },
};
const billingEnv = { ...env, STRIPE_SECRET_KEY: "sk_test_fake", STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_PRICE_STARTER: "price_starter", STRIPE_PRICE_PRO: "price_pro", STRIPE_PRICE_ENTERPRISE: "price_ent", STRIPE_API: fakeStripe };
const admin = { authorization: `Bearer ${env.PORTICO_ADMIN_TOKEN}`, "content-type": "application/json" };
const call = (path: string, init: RequestInit, e: object = billingEnv) => workspaceRoutes.request(path, init, e);

async function signed(event: object, secret = SECRET): Promise<RequestInit> {
  const payload = JSON.stringify(event);
  const stripe = new Stripe("sk_test_fake");
  const header = await stripe.webhooks.generateTestHeaderStringAsync({ payload, secret, cryptoProvider: Stripe.createSubtleCryptoProvider() });
  return { method: "POST", headers: { "stripe-signature": header, "content-type": "application/json" }, body: payload };
}

const completed = (id: string, org: string, plan: string) => ({ id, object: "event", type: "checkout.session.completed", data: { object: { id: "cs_test_1", object: "checkout.session", client_reference_id: org, customer: "cus_123", subscription: "sub_123", metadata: { org, plan } } } });

describe("Stripe billing", () => {
  it("answers 503 billing-off without Stripe settings", async () => {
    const { org } = await ownerWithPortal("bill0@example.com", "bill-off");
    const res = await call(`/v1/orgs/${org}/billing/checkout`, { method: "POST", headers: admin, body: JSON.stringify({ plan: "pro" }) }, env);
    expect(res.status).toBe(503);
    expect(((await res.json()) as any).error.code).toBe("billing-off");
  });

  it("creates a Checkout session for the plan's price, then a webhook moves the plan, once", async () => {
    const { org, cookie } = await ownerWithPortal("bill1@example.com", "bill-a");
    const res = await call(`/v1/orgs/${org}/billing/checkout`, { method: "POST", headers: admin, body: JSON.stringify({ plan: "pro" }) });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).url).toBe("https://checkout.stripe.com/c/pay/cs_test_1");
    const sent = seen.at(-1)!;
    expect(sent.auth).toBe("Bearer sk_test_fake");
    expect(sent.form.get("mode")).toBe("subscription");
    expect(sent.form.get("line_items[0][price]")).toBe("price_pro");
    expect(sent.form.get("client_reference_id")).toBe(org);
    const event = completed("evt_1", org, "pro");
    const first = await call("/v1/billing/stripe/webhook", await signed(event));
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ received: true, plan: "pro" });
    const usage = (await (await asWriter(cookie, "GET", `/v1/orgs/${org}/usage`)).json()) as any;
    expect(usage.org).toMatchObject({ plan: "pro", status: "active" });
    const replay = await call("/v1/billing/stripe/webhook", await signed(event));
    expect(await replay.json()).toMatchObject({ duplicate: true });
    // The customer portal for the customer the event named.
    const portal = await call(`/v1/orgs/${org}/billing/portal`, { method: "POST", headers: admin });
    expect(((await portal.json()) as any).url).toBe("https://billing.stripe.com/p/session/cus_123");
    const audit = (await (await asWriter(cookie, "GET", `/v1/audit?org=${org}`)).json()) as any;
    expect(audit.entries.filter((e: any) => e.actorType === "billing" && e.action === "org.plan")).toHaveLength(1);
  });

  it("refuses a bad or missing signature with 400 and changes nothing", async () => {
    const { org, cookie } = await ownerWithPortal("bill2@example.com", "bill-b");
    const forged = await call("/v1/billing/stripe/webhook", await signed(completed("evt_2", org, "enterprise"), "whsec_wrong"));
    expect(forged.status).toBe(400);
    expect(((await forged.json()) as any).error.code).toBe("invalid-signature");
    const init = await signed(completed("evt_3", org, "enterprise"));
    const tampered = await call("/v1/billing/stripe/webhook", { ...init, body: String(init.body).replace("enterprise", "starter") });
    expect(tampered.status).toBe(400);
    const none = await call("/v1/billing/stripe/webhook", { method: "POST", body: "{}" });
    expect(none.status).toBe(400);
    const usage = (await (await asWriter(cookie, "GET", `/v1/orgs/${org}/usage`)).json()) as any;
    expect(usage.org.plan).toBe("trial");
  });

  it("answers 200 to unknown events; a cancelled subscription ends like a trial, a new one restores", async () => {
    const { org, cookie } = await ownerWithPortal("bill3@example.com", "bill-c");
    const unknown = await call("/v1/billing/stripe/webhook", await signed({ id: "evt_u", object: "event", type: "invoice.paid", data: { object: {} } }));
    expect(await unknown.json()).toMatchObject({ received: true, ignored: true });
    await call("/v1/billing/stripe/webhook", await signed({ ...completed("evt_4", org, "starter"), data: { object: { ...completed("evt_4", org, "starter").data.object, customer: "cus_c3" } } }));
    const cancelled = await call("/v1/billing/stripe/webhook", await signed({ id: "evt_5", object: "event", type: "customer.subscription.deleted", data: { object: { id: "sub_123", object: "subscription", customer: "cus_c3", status: "canceled", items: { data: [{ price: { id: "price_starter" } }] }, metadata: {} } } }));
    expect(await cancelled.json()).toMatchObject({ plan: "trial" });
    const after = (await (await asWriter(cookie, "GET", `/v1/orgs/${org}/usage`)).json()) as any;
    expect(after.org.status).toBe("trial-ended");
    const upgraded = await call("/v1/billing/stripe/webhook", await signed({ id: "evt_6", object: "event", type: "customer.subscription.updated", data: { object: { id: "sub_9", object: "subscription", customer: "cus_c3", status: "active", items: { data: [{ price: { id: "price_ent" } }] }, metadata: {} } } }));
    expect(await upgraded.json()).toMatchObject({ plan: "enterprise" });
  });
});
