/**
 * The writers' analytics pages (worker/render/analytics-admin-page.tsx). Signs in with the portal token
 * (sessionStorage, the editor's key). Analytics: the range picker loads `GET /v1/analytics/dashboard.html` (the
 * report with its charts, rendered and escaped by the server) and offers the CSV exports. Backlog: lists the
 * groups of no-hit queries (`GET /v1/analytics/backlog`), drafts a guide for one, and edits, discards, downloads
 * or opens each draft as a pull request in the portal's content repository (Git sync), then links that request. Backlog texts are set with textContent or value: nothing from readers is parsed as HTML here.
 */
import { add, draftFields, el, show } from "../admin/dom";
import { storedToken, storeToken } from "../editor/api-client";

const root = document.querySelector<HTMLElement>("main[data-portal]")!;
const portal = root.dataset.portal ?? "";
const view = root.dataset.view;
const signin = document.getElementById("signin") as HTMLFormElement;
const DAY_MS = 86_400_000;

async function call(path: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(`/v1/analytics${path}`, { ...init, headers: { authorization: `Bearer ${storedToken(portal)}`, ...(init.body ? { "content-type": "application/json" } : {}) } });
  if (!res.ok) {
    const body: any = await res.json().catch(() => ({}));
    if (res.status === 401) storeToken(portal, undefined);
    throw new Error(body?.error?.message ?? `${res.status} ${res.statusText}`);
  }
  return res;
}

/** Saves a response as a file (the exports need the bearer token, so they cannot be plain links). */
async function download(path: string, name: string): Promise<void> {
  const blob = await (await call(path)).blob();
  const a = el("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function startAnalytics(): void {
  const form = document.getElementById("range") as HTMLFormElement;
  const report = document.getElementById("report")!;
  const params = new URLSearchParams(location.search);
  const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement;
  field("to").value = params.get("to") ?? day(Date.now());
  field("from").value = params.get("from") ?? day(Date.now() - 29 * DAY_MS);
  field("kind").value = params.get("kind") === "assistant" ? "assistant" : "search";
  field("audience").value = params.get("audience") === "public" ? "public" : "all";
  form.hidden = false;
  const query = () => new URLSearchParams({ from: field("from").value, to: field("to").value, kind: field("kind").value, audience: field("audience").value });
  const load = async () => {
    const q = query();
    history.replaceState(null, "", `?${q}`);
    report.setAttribute("aria-busy", "true");
    try {
      // Server-rendered by preact (every text escaped): the charts are SVG drawn there.
      report.innerHTML = await (await call(`/dashboard.html?${q}`)).text();
    } catch (e) {
      show(report, el("p", String((e as Error).message), "note bad"));
    } finally {
      report.removeAttribute("aria-busy");
    }
  };
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    void load();
  });
  for (const b of form.querySelectorAll<HTMLButtonElement>("button[data-days]")) {
    b.addEventListener("click", () => {
      const to = Date.parse(`${field("to").value}T00:00:00Z`) || Date.now();
      field("from").value = day(to - (Number(b.dataset.days) - 1) * DAY_MS);
      void load();
    });
  }
  for (const table of ["queries", "pages"]) {
    const a = document.getElementById(`csv-${table}`) as HTMLAnchorElement;
    a.hidden = false;
    a.addEventListener("click", (e) => {
      e.preventDefault();
      const q = query();
      void download(`/export.csv?table=${table}&${q}`, `${portal}-${table}-${q.get("from")}-${q.get("to")}.csv`).catch((err) => alert(err.message));
    });
  }
  void load();
}

function startBacklog(): void {
  const box = document.getElementById("backlog")!;
  const draftCard = (d: any): HTMLElement => {
    const card = el("section", undefined, "blk draft");
    card.dataset.draft = d.id;
    const { title, body } = draftFields(d, 18, "Draft (Markdown)");
    const status = el("p", `Drafted ${d.createdAt.slice(0, 10)}, last edited ${d.updatedAt.slice(0, 16).replace("T", " ")}`, "note");
    const act = (label: string, run: () => Promise<unknown>) => {
      const b = el("button", label);
      b.type = "button";
      b.addEventListener("click", () => {
        run().catch((e) => (status.textContent = String((e as Error).message)));
      });
      return b;
    };
    const actions = el("p", undefined, "actions");
    // The pull request (GitLab: merge request) the draft was opened as: a link to the review, the draft kept as is.
    const review = el("p", undefined, "note pr");
    const showReview = (pr: any) => {
      if (!pr) return;
      const link = el("a", pr.url);
      // Only web addresses become links (the address comes from the Git provider's answer).
      if (/^https?:\/\//i.test(pr.url)) link.href = pr.url;
      link.rel = "noopener noreferrer";
      link.target = "_blank";
      show(review, `Open for review as #${pr.number} (${pr.path}): `, link);
      openPr.hidden = true;
    };
    const openPr = act("Open pull request", async () => {
      openPr.disabled = true;
      status.textContent = "Opening the pull request…";
      try {
        // The text as shown is what goes to the repository: saved first.
        await call(`/backlog/drafts/${d.id}`, { method: "PATCH", body: JSON.stringify({ title: title.value, body: body.value }) });
        const opened: any = await (await call(`/backlog/drafts/${d.id}/pull-request`, { method: "POST" })).json();
        showReview(opened.pullRequest);
        status.textContent = "Pull request opened: the page goes live once a person merges it.";
      } finally {
        openPr.disabled = false;
      }
    });
    openPr.dataset.action = "pull-request";
    add(actions,
      act("Save", async () => {
        const saved: any = await (await call(`/backlog/drafts/${d.id}`, { method: "PATCH", body: JSON.stringify({ title: title.value, body: body.value }) })).json();
        status.textContent = `Saved ${saved.updatedAt.slice(0, 16).replace("T", " ")}`;
      }),
      " ",
      act("Download Markdown", () => download(`/backlog/drafts/${d.id}/download`, `${title.value.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "draft"}.md`)),
      " ",
      act("Discard", async () => {
        await call(`/backlog/drafts/${d.id}/discard`, { method: "POST" });
        await render();
      }),
      " ",
      openPr,
    );
    showReview(d.pullRequest);
    add(card, title, body, actions, review, status);
    return card;
  };
  const render = async () => {
    const data: any = await (await call("/backlog")).json();
    const list = el("ol", undefined, "an-backlog");
    for (const g of data.groups) {
      const li = el("li");
      li.dataset.group = g.id;
      const head = el("p");
      add(head, el("strong", g.label), ` · ${g.count} no-hit ${g.count === 1 ? "query" : "queries"} · last ${g.lastSeen} · ${g.kinds.join(", ")}`);
      if (g.gated) add(head, " ", el("span", "gated", "gated"));
      const variants = el("p", `Asked as: ${g.queries.map((q: any) => `“${q.q}” (${q.count})`).join(", ")}`, "note");
      const b = el("button", g.draftId ? "Redraft" : "Draft a guide");
      b.type = "button";
      b.addEventListener("click", async () => {
        b.disabled = true;
        try {
          await call(`/backlog/${g.id}/draft`, { method: "POST" });
          await render();
          document.querySelector<HTMLElement>(`[data-draft] input`)?.focus();
        } catch (e) {
          variants.textContent = String((e as Error).message);
          b.disabled = false;
        }
      });
      add(li, head, variants, b);
      add(list, li);
    }
    const drafts = el("section", undefined, "an-drafts");
    add(drafts, el("h2", "Drafts"));
    if (data.drafts.length === 0) add(drafts, el("p", "No drafts yet.", "note"));
    for (const d of data.drafts) add(drafts, draftCard(await (await call(`/backlog/drafts/${d.id}`)).json()));
    show(box, el("h2", "No-hit queries by meaning"), data.groups.length ? list : el("p", "Nothing: every query found something.", "note"), drafts);
  };
  render().catch((e) => show(box, el("p", String((e as Error).message), "note bad")));
}

function start(): void {
  signin.hidden = true;
  if (view === "backlog") startBacklog();
  else startAnalytics();
}

signin.addEventListener("submit", (e) => {
  e.preventDefault();
  const value = (signin.elements.namedItem("token") as HTMLInputElement).value.trim();
  if (!value) return;
  // Storage refused: the token lives for this page only.
  storeToken(portal, value);
  start();
});
if (storedToken(portal)) start();
export {};
