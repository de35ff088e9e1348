// Readers benchmark (issue 8): sign-in-to-page time per way in (shared password, magic link, JWT) over HTTP
// against `wrangler dev`, and the cost of the access checks on a page: in process (session decrypt + labels +
// the canRead filter of a 1,000-guide release, per request) and over HTTP (the same guide page on a portal
// without access settings and on a gated one, signed in, interleaved). Prints figures; asserts nothing.
// BENCH_CONTENT_PAGES (guides, 1000), BENCH_SIGNINS (sign-ins per method, 20; magic links at most 5: rate limit),
// BENCH_PAGES (HTTP page requests per portal, 200).
import { SignJWT } from "jose";
import { tsImport } from "tsx/esm/api";
import { uploadContent, zipFiles } from "../scripts/lib/content-bundle.mjs";
import { createPortal, startDevServer } from "../scripts/lib/dev-server.mjs";
import { generateBundle } from "./content.mjs";

const GUIDES = Number(process.env.BENCH_CONTENT_PAGES ?? 1000);
const SIGNINS = Number(process.env.BENCH_SIGNINS ?? 20);
const REQUESTS = Number(process.env.BENCH_PAGES ?? 200);
const PASSWORD = "bench-partners-password";
const JWT_SECRET = "bench-jwt-secret-0123456789abcdef-0123456789";

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x) => `${x.toFixed(2)} ms`;
const line = (label, xs) => `${label}: p50 ${ms(pct(xs, 50))}  p95 ${ms(pct(xs, 95))}  max ${ms(Math.max(...xs))}  (n=${xs.length})`;

/** In process: what the access model adds to one page request of a 1,000-guide release, warm. */
async function inProcess(files) {
  const compile = await tsImport("../worker/content/compile.ts", import.meta.url);
  const site = await tsImport("../worker/content/site.ts", import.meta.url);
  const reader = await tsImport("../worker/access/reader.ts", import.meta.url);
  const labels = await tsImport("../worker/access/labels.ts", import.meta.url);
  const policyMod = await tsImport("../worker/access/policy.ts", import.meta.url);
  const { EncryptJWT, jwtDecrypt } = await import("jose");
  const enc = new TextEncoder();
  const release = await compile.compileBundle(new Map(Object.entries(files).map(([k, v]) => [k, enc.encode(v)])), new Map());
  const metas = release.pages.map((p) => p.meta);
  const policy = policyMod.effectivePolicy(undefined, { methods: ["password"], sections: [{ prefix: "/guides/g05", audiences: ["partners"] }, { group: "Part 3", audiences: ["beta"] }] }, { hasPassword: true, hasJwtSecret: false });
  const key = new Uint8Array(32).fill(7);
  const cookie = await new EncryptJWT({ rid: "r", aud_: ["partners"], vars: { api_key: "k" }, m: "password" }).setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setIssuer("portico").setAudience("1").setIssuedAt().setExpirationTime("1h").encrypt(key);
  const publicTimes = [];
  const gatedTimes = [];
  const parts = { decrypt: [], labels: [], filter: [] };
  for (let i = 0; i < 600; i++) {
    const slug = metas[(i * 37) % metas.length].slug;
    // Without access: anonymous reader, unlabelled pages (what every page paid before readers existed).
    let t = performance.now();
    const a = new site.Site(release.config, metas, [], reader.anonymousReader("en"));
    a.find("guide", slug, "en");
    a.navigation("en");
    const tPublic = performance.now() - t;
    // With access: session decrypt (first sight of a cookie; later requests hit the isolate's cache), labels
    // (memoised per release and policy), the canRead filter and the same lookups.
    t = performance.now();
    const { payload } = await jwtDecrypt(cookie, key, { issuer: "portico", audience: "1" });
    const t1 = performance.now();
    const r = reader.signedInReader({ readerId: payload.rid, audiences: payload.aud_, variables: payload.vars, method: payload.m }, "en");
    const labelled = labels.labelPages(metas, policy, release.config.navigation, 1);
    const t2 = performance.now();
    const b = new site.Site(release.config, labelled, [], r);
    const t3 = performance.now();
    b.find("guide", slug, "en");
    b.navigation("en");
    const tGated = performance.now() - t;
    if (i >= 100) {
      publicTimes.push(tPublic);
      gatedTimes.push(tGated);
      parts.decrypt.push(t1 - t);
      parts.labels.push(t2 - t1);
      parts.filter.push(t3 - t2);
    }
  }
  const added = parts.decrypt.map((d, i) => d + parts.labels[i] + parts.filter[i]);
  const addedCached = parts.labels.map((l, i) => l + parts.filter[i]);
  return { publicTimes, gatedTimes, added, addedCached, parts, pages: metas.length };
}

async function timed(fn) {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function getOk(url, cookie) {
  const res = await fetch(url, { redirect: "manual", headers: cookie ? { cookie } : {} });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
}

const cookieOf = (res) => (res.headers.get("set-cookie") ?? "").split(";")[0];

export async function main() {
  const files = generateBundle(GUIDES);
  const local = await inProcess(files);
  console.log(`readers: access checks on a page, in process (${local.pages} guides, warm, session decrypt + labels + canRead filter + navigation):`);
  console.log(`  ${line("without access (anonymous, public)", local.publicTimes)}`);
  console.log(`  ${line("with access (signed in, gated sections)", local.gatedTimes)}`);
  console.log(`  access steps alone: ${line("session decrypt (jose, dir+A256GCM)", local.parts.decrypt)}`);
  console.log(`                      ${line("labels (memoised)", local.parts.labels)}`);
  console.log(`                      ${line("Site: canRead filter of every page", local.parts.filter)}`);
  console.log(`  ${line("added by access, a cookie's first request", local.added)}`);
  console.log(`  ${line("added by access, later requests (opened cookie cached per isolate)", local.addedCached)}   (goal p95 < 1 ms)`);

  const server = await startDevServer();
  try {
    const base = server.baseUrl;
    const zip = zipFiles(files);
    const slugs = { open: "bench-open", gated: "bench-gated" };
    const tokens = {};
    for (const slug of Object.values(slugs)) {
      tokens[slug] = await createPortal(base, server.adminToken, slug);
      const up = await uploadContent(base, tokens[slug], zip, "?allowBrokenLinks=true");
      if (up.status !== 201) throw new Error(`upload: ${up.status}`);
    }
    const access = { methods: ["password", "magic-link", "jwt"], password: PASSWORD, passwordAudiences: ["partners"], jwt: { secret: JWT_SECRET },
      magicLink: { allowedDomains: ["bench.test"] }, sections: [{ prefix: "/guides/g05", audiences: ["partners"] }] };
    const patch = await fetch(`${base}/v1/portal`, { method: "PATCH", headers: { authorization: `Bearer ${tokens[slugs.gated]}`, "content-type": "application/json" }, body: JSON.stringify({ access }) });
    if (patch.status !== 200) throw new Error(`access: ${patch.status} ${await patch.text()}`);
    const P = `${base}/p/${slugs.gated}`;
    const target = `/p/${slugs.gated}/guides/g0500`;
    const form = (fields) => ({ method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", origin: base }, body: new URLSearchParams(fields).toString() });

    const password = [];
    const magic = [];
    const jwt = [];
    let cookie = "";
    for (let i = 0; i < SIGNINS; i++) {
      password.push(await timed(async () => {
        const res = await fetch(`${P}/auth/password`, form({ password: PASSWORD, return: target }));
        if (res.status !== 303) throw new Error(`password: ${res.status}`);
        cookie = cookieOf(res);
        await getOk(base + res.headers.get("location"), cookie);
      }));
      const token = await new SignJWT({ sub: `r${i}`, groups: ["partners"] }).setProtectedHeader({ alg: "HS256" }).setExpirationTime("5m").setJti(`bench-${i}-${Date.now()}`).sign(new TextEncoder().encode(JWT_SECRET));
      jwt.push(await timed(async () => {
        const res = await fetch(`${P}/auth/jwt?token=${token}&return=${encodeURIComponent(target)}`, { redirect: "manual" });
        if (res.status !== 303) throw new Error(`jwt: ${res.status}`);
        await getOk(base + res.headers.get("location"), cookieOf(res));
      }));
      if (i < 5) {
        magic.push(await timed(async () => {
          const ask = await fetch(`${P}/auth/magic-link`, form({ email: `r${i}@bench.test`, return: target }));
          if (ask.status !== 200) throw new Error(`magic link: ${ask.status}`);
          await ask.arrayBuffer();
          // The reader's side of the mailbox: the dev outbox page (wrangler dev runs on 127.0.0.1).
          const outbox = await (await fetch(`${P}/auth/outbox`)).text();
          const link = /http:\/\/\S+\/auth\/magic-link\/verify\?token=[A-Za-z0-9_-]+/.exec(outbox)[0];
          const res = await fetch(link, { redirect: "manual" });
          if (res.status !== 303) throw new Error(`verify: ${res.status}`);
          await getOk(base + res.headers.get("location"), cookieOf(res));
        }));
      }
    }
    console.log(`\n  sign-in to page over HTTP (wrangler dev; the sign-in request, then the gated page with the new cookie):`);
    console.log(`    ${line("password (PBKDF2-SHA256, 100,000 iterations)", password)}`);
    console.log(`    ${line("magic link (ask, read the outbox, open the link)", magic)}`);
    console.log(`    ${line("JWT hand-off (HS256)", jwt)}`);

    const open = [];
    const gated = [];
    const page = (slug) => `${base}/p/${slug}/guides/g0100`;
    for (let i = 0; i < 20; i++) {
      await getOk(page(slugs.open));
      await getOk(page(slugs.gated), cookie);
    }
    for (let i = 0; i < REQUESTS; i++) {
      open.push(await timed(() => getOk(page(slugs.open))));
      gated.push(await timed(() => getOk(page(slugs.gated), cookie)));
    }
    console.log(`\n  the same guide page over HTTP (${REQUESTS} each, interleaved; the gated one signed in: one more D1 query, session decrypt, labels):`);
    console.log(`    ${line("portal without access settings", open)}`);
    console.log(`    ${line("gated portal, signed in", gated)}`);
    console.log(`    difference of medians ${ms(pct(gated, 50) - pct(open, 50))}, of p95 ${ms(pct(gated, 95) - pct(open, 95))}`);
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
