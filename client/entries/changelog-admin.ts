/**
 * The changelog review page (worker/render/changelog-admin-page.tsx): signs in with the portal token (sessionStorage,
 * the editor's key), then for every API lists its drafts (`GET /v1/apis/{api}/changelog/drafts`, which writes the
 * missing ones) beside the diff they were written from (`GET /v1/apis/{api}/changes`), with title and body editable
 * and Save / Approve / Discard. Every text is set with textContent or value: nothing from the server is parsed as HTML.
 */
import { add, draftFields, el, show } from "../admin/dom";
import { storedToken, storeToken } from "../editor/api-client";

const root = document.querySelector<HTMLElement>("main[data-portal]")!;
const portal = root.dataset.portal ?? "";
const list = document.getElementById("drafts")!;
const form = document.getElementById("signin") as HTMLFormElement;

async function call(path: string, init: RequestInit = {}): Promise<any> {
  const res = await fetch(`/v1/apis${path}`, { ...init, headers: { authorization: `Bearer ${storedToken(portal)}`, "content-type": "application/json" } });
  const body: any = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(body?.error?.message ?? `${res.status} ${res.statusText}`);
  return body;
}

function draftCard(api: string, d: any): HTMLElement {
  const card = el("section", undefined, "blk draft");
  add(card, el("h3", `${d.from} → ${d.to} · ${d.type} · ${d.status}`));
  const { title, body } = draftFields(d, 10, "Body (Markdown)");
  const editable = d.status === "draft";
  title.disabled = body.disabled = !editable;
  const status = el("p", "", "note");
  const act = (label: string, run: () => Promise<unknown>) => {
    const b = el("button", label);
    b.type = "button";
    b.disabled = !editable;
    b.addEventListener("click", () => run().then(() => load()).catch((e) => (status.textContent = String(e.message ?? e))));
    return b;
  };
  add(card, title, body,
    act("Save", () => call(`/${encodeURIComponent(api)}/changelog/drafts/${d.id}`, { method: "PATCH", body: JSON.stringify({ title: title.value, body: body.value }) })),
    act("Approve", () => call(`/${encodeURIComponent(api)}/changelog/drafts/${d.id}/approve`, { method: "POST" })),
    act("Discard", () => call(`/${encodeURIComponent(api)}/changelog/drafts/${d.id}/discard`, { method: "POST" })),
    status);
  const diff = el("details");
  add(diff, el("summary", "The diff this draft was written from"));
  call(`/${encodeURIComponent(api)}/changes?from=${encodeURIComponent(d.from)}&to=${encodeURIComponent(d.to)}`)
    .then((r) => {
      const ul = el("ul", undefined, "changelist");
      for (const c of r.changes) {
        const li = el("li");
        add(li, el("span", c.level, `lvl lvl-${String(c.level).toLowerCase()}`), ` ${c.operation ? `${c.operation.method} ${c.operation.path}: ` : ""}${c.message} `, el("code", c.id, "rule"));
        add(ul, li);
      }
      add(diff, ul);
    })
    .catch((e) => add(diff, el("p", String(e.message ?? e))));
  add(card, diff);
  return card;
}

async function load(): Promise<void> {
  if (!storedToken(portal)) return;
  form.hidden = true;
  show(list, el("p", "Loading…"));
  try {
    const { apis } = await call("");
    const sections: HTMLElement[] = [];
    for (const a of apis) {
      const section = el("section");
      add(section, el("h2", a.title));
      if (a.versions.length < 2) add(section, el("p", "One published version: nothing to compare yet."));
      else {
        const { drafts } = await call(`/${encodeURIComponent(a.slug)}/changelog/drafts`);
        if (!drafts.length) add(section, el("p", "No drafts."));
        for (const d of drafts) add(section, draftCard(a.slug, d));
      }
      sections.push(section);
    }
    show(list, ...sections);
  } catch (e) {
    show(list, el("p", `Could not load the drafts: ${(e as Error).message}`));
    form.hidden = false;
  }
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const value = new FormData(form).get("token");
  // Storage disabled: this load still works with what was typed.
  if (typeof value === "string" && value) storeToken(portal, value);
  void load();
});

void load();
