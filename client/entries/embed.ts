/**
 * @module The embeddable widgets (`/p/{portal}/embed.js`, issue 31): `<portico-search>` (a search box with results
 * as you type) and `<portico-ask>` (a floating "Ask AI" button and panel), custom elements in an open Shadow DOM,
 * styled only through CSS custom properties (`--portico-accent`, `--portico-font`, `--portico-bg`, `--portico-fg`,
 * `--portico-muted`, `--portico-radius`; dark by `prefers-color-scheme` or `theme="dark"`). They call the portal's
 * Docs API with the public key of the script's `data-key` (or the element's `key`); the API's base is the
 * script's own URL, so one file serves every portal and custom hostname. `mode="iframe"` renders the same widget in
 * a frame on the portal's origin instead (sites whose CSP forbids connecting elsewhere). Nothing global is touched
 * beyond the two element names; no page CSS reaches inside and none leaks out.
 */
import { answerHtml, type CitedSource } from "../assistant/markdown";

interface Config {
  /** `…/p/{portal}` (or a custom hostname's origin), no trailing slash. */
  base: string;
  key: string | undefined;
}

const script = document.currentScript as HTMLScriptElement | null;
const SCRIPT_SRC = script?.src ?? "";
const SCRIPT_KEY = script?.dataset.key;

function config(el: HTMLElement): Config {
  const src = el.getAttribute("src") ?? SCRIPT_SRC;
  const base = src ? new URL(".", src).href.replace(/\/$/, "") : "";
  return { base, key: el.getAttribute("key") ?? SCRIPT_KEY ?? undefined };
}

class ApiProblem extends Error {}

async function call<T>(cfg: Config, path: string, init: RequestInit = {}): Promise<T> {
  if (!cfg.key) throw new ApiProblem("This widget has no key: add data-key=\"pk_…\" to its script tag.");
  let res: Response;
  try {
    res = await fetch(`${cfg.base}/api/v1${path}`, { ...init, credentials: "omit", headers: { ...(init.headers ?? {}), authorization: `Bearer ${cfg.key}` } });
  } catch {
    // A refused preflight (origin not listed) surfaces as a network error: no response is readable.
    throw new ApiProblem("The docs could not be reached from this site (is its origin listed on the key?).");
  }
  const body = (await res.json().catch(() => ({}))) as T & { error?: { message?: string } };
  if (!res.ok) throw new ApiProblem(body.error?.message ? `The docs refused: ${body.error.message}.` : `The docs answered ${res.status}.`);
  return body;
}

const CSS = `
:host{all:initial;display:block;--a:var(--portico-accent,#2563eb);--at:var(--a);--bg:var(--portico-bg,#fff);--fg:var(--portico-fg,#111827);--mu:var(--portico-muted,#4b5563);--r:var(--portico-radius,8px);
font:15px/1.5 var(--portico-font,system-ui,-apple-system,"Segoe UI",sans-serif);color:var(--fg)}
@media (prefers-color-scheme:dark){:host(:not([theme=light])){--bg:var(--portico-bg,#111827);--fg:var(--portico-fg,#f3f4f6);--mu:var(--portico-muted,#9ca3af);--at:color-mix(in srgb,var(--a) 45%,#fff)}}
:host([theme=dark]){--bg:var(--portico-bg,#111827);--fg:var(--portico-fg,#f3f4f6);--mu:var(--portico-muted,#9ca3af);--at:color-mix(in srgb,var(--a) 45%,#fff)}
*{box-sizing:border-box}
.box{position:relative;background:var(--bg);color:var(--fg);font-size:15px;line-height:1.5}
input,textarea{width:100%;font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--mu);border-radius:var(--r);padding:8px 10px}
input:focus-visible,textarea:focus-visible,button:focus-visible,a:focus-visible{outline:2px solid var(--a);outline-offset:2px}
ul{list-style:none;margin:6px 0 0;padding:0;border-radius:var(--r)}
li a{display:block;padding:8px 10px;border-radius:var(--r);color:var(--fg);text-decoration:none}
li a[aria-selected=true],li a:hover{background:color-mix(in srgb,var(--a) 10%,transparent)}
.t{font-weight:600;color:var(--at)}.k{font-size:12px;color:var(--mu);margin-left:6px}.s{display:block;font-size:13px;color:var(--mu)}
mark{background:color-mix(in srgb,var(--a) 12%,transparent);color:var(--fg);font-weight:600}
.err{color:#b91c1c;padding:6px 0}
button{font:inherit;cursor:pointer;border:0;border-radius:var(--r);background:var(--a);color:#fff;padding:8px 14px}
.fab{position:fixed;right:20px;bottom:20px;box-shadow:0 4px 14px rgba(0,0,0,.25);z-index:2147483000}
.panel{position:fixed;right:20px;bottom:72px;width:min(420px,calc(100vw - 40px));max-height:min(70vh,640px);overflow:auto;border:1px solid var(--mu);border-radius:var(--r);padding:14px;box-shadow:0 8px 30px rgba(0,0,0,.3);z-index:2147483000}
.panel[hidden]{display:none}
.row{display:flex;gap:8px;margin-top:8px}.row button.x{background:transparent;color:var(--fg);border:1px solid var(--mu)}
.ans{margin-top:10px}.ans pre{overflow:auto;background:color-mix(in srgb,var(--fg) 8%,transparent);padding:8px;border-radius:var(--r)}
.ans a,.ans li a{color:var(--at)}h2{font-size:16px;margin:0 0 8px}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
iframe{border:0;width:100%;height:100%;min-height:var(--portico-frame-height,420px);color-scheme:normal}`;

function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Record<string, string> = {}, ...kids: (Node | string)[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) k === "text" ? (el.textContent = v) : el.setAttribute(k, v);
  for (const kid of kids) el.appendChild(typeof kid === "string" ? document.createTextNode(kid) : kid);
  return el;
}

/** The server's snippet (escaped text with `<mark>`) as nodes: only text and `<mark>` elements, nothing parsed as HTML. */
function snippetNodes(snippet: string): Node[] {
  const decode = (s: string) => {
    const t = document.createElement("textarea");
    t.innerHTML = s;
    return t.value;
  };
  return snippet.split(/(<mark>[^<]*<\/mark>)/).map((part) => (part.startsWith("<mark>") ? h("mark", { text: decode(part.slice(6, -7)) }) : document.createTextNode(decode(part.replace(/<[^>]*>/g, "")))));
}

let uid = 0;

abstract class Widget extends HTMLElement {
  protected root!: ShadowRoot;
  protected cfg!: Config;
  connectedCallback(): void {
    if (this.root) return;
    this.root = this.attachShadow({ mode: "open" });
    // A constructed stylesheet where supported: it needs no `style-src` allowance from the host page's CSP.
    if ("adoptedStyleSheets" in this.root && typeof CSSStyleSheet.prototype.replaceSync === "function") {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(CSS);
      this.root.adoptedStyleSheets = [sheet];
    } else this.root.append(h("style", { text: CSS }));
    this.cfg = config(this);
    if (this.getAttribute("mode") === "iframe") {
      const src = `${this.cfg.base}/embed/frame?widget=${this.kind}&key=${encodeURIComponent(this.cfg.key ?? "")}`;
      this.root.append(h("iframe", { src, title: this.kind === "search" ? "Search the docs" : "Ask the docs", loading: "lazy" }));
      return;
    }
    this.render();
  }
  protected abstract kind: "search" | "ask";
  protected abstract render(): void;
}

interface SearchHit { title: string; url: string; kind: string; snippet: string; section?: string | null }

class PorticoSearch extends Widget {
  protected kind = "search" as const;
  private active = -1;
  private seq = 0;
  protected render(): void {
    const id = `ps${++uid}`;
    const input = h("input", { type: "search", role: "combobox", "aria-expanded": "false", "aria-controls": `${id}-l`, "aria-autocomplete": "list", autocomplete: "off", placeholder: this.getAttribute("placeholder") ?? "Search the docs", "aria-label": this.getAttribute("label") ?? "Search the docs" });
    const list = h("ul", { id: `${id}-l`, role: "listbox", "aria-label": "Results" });
    const status = h("div", { class: "sr", role: "status", "aria-live": "polite" });
    const error = h("div", { class: "err", role: "alert" });
    this.root.append(h("div", { class: "box", part: "box" }, input, list, status, error));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const items = () => [...list.querySelectorAll<HTMLElement>("[role=option]")];
    const select = (i: number) => {
      const all = items();
      this.active = all.length ? (i + all.length) % all.length : -1;
      all.forEach((o, n) => o.setAttribute("aria-selected", String(n === this.active)));
      const cur = all[this.active];
      if (cur) input.setAttribute("aria-activedescendant", cur.id);
      else input.removeAttribute("aria-activedescendant");
      cur?.scrollIntoView({ block: "nearest" });
    };
    const run = async (q: string) => {
      const mine = ++this.seq;
      error.textContent = "";
      if (!q.trim()) {
        list.replaceChildren();
        input.setAttribute("aria-expanded", "false");
        return;
      }
      try {
        const found = await call<{ total: number; results: SearchHit[] }>(this.cfg, `/search?q=${encodeURIComponent(q)}&limit=${Number(this.getAttribute("limit")) || 8}`);
        if (mine !== this.seq) return;
        // The link is the option (an option holding a link would nest interactive content).
        list.replaceChildren(...found.results.map((r, n) => h("li", { role: "none" },
          h("a", { href: r.url, tabindex: "-1", role: "option", id: `${id}-${n}`, "aria-selected": "false" }, h("span", { class: "t", text: r.title }), h("span", { class: "k", text: r.kind }), h("span", { class: "s" }, ...snippetNodes(r.snippet))))));
        input.setAttribute("aria-expanded", String(found.results.length > 0));
        status.textContent = found.results.length ? `${found.results.length} results` : "No results";
        this.active = -1;
        this.dispatchEvent(new CustomEvent("portico-results", { detail: { query: q, total: found.total } }));
      } catch (e) {
        if (mine !== this.seq) return;
        list.replaceChildren();
        error.textContent = e instanceof ApiProblem ? e.message : "Search failed.";
      }
    };
    input.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(() => void run(input.value), 150);
    });
    input.addEventListener("keydown", (e) => {
      if (e.key === "ArrowDown") { e.preventDefault(); select(this.active + 1); }
      else if (e.key === "ArrowUp") { e.preventDefault(); select(this.active - 1); }
      else if (e.key === "Enter" && this.active >= 0) { e.preventDefault(); items()[this.active]?.click(); }
      else if (e.key === "Escape") { input.value = ""; void run(""); }
    });
  }
}

interface Answer { answered: boolean; answer: string; threadId: string; sources: CitedSource[]; results?: CitedSource[] }

class PorticoAsk extends Widget {
  protected kind = "ask" as const;
  private thread: string | undefined;
  protected render(): void {
    const id = `pa${++uid}`;
    const inline = this.hasAttribute("inline");
    const fab = h("button", { class: "fab", type: "button", "aria-expanded": "false", "aria-controls": `${id}-p`, part: "button" }, this.getAttribute("label") ?? "Ask AI");
    const q = h("textarea", { rows: "2", "aria-label": "Your question", placeholder: "Ask a question about the docs" });
    const send = h("button", { type: "submit" }, "Ask");
    const close = h("button", { type: "button", class: "x" }, "Close");
    const out = h("div", { class: "ans", "aria-live": "polite" });
    const form = h("form", {}, q, h("div", { class: "row" }, send, ...(inline ? [] : [close])));
    const panel = h("div", { class: inline ? "box" : "box panel", id: `${id}-p`, role: inline ? "region" : "dialog", "aria-label": "Ask the docs", part: "panel" }, h("h2", { text: this.getAttribute("heading") ?? "Ask the docs" }), form, out);
    if (!inline) panel.hidden = true;
    this.root.append(...(inline ? [panel] : [fab, panel]));
    const open = (on: boolean) => {
      panel.hidden = !on;
      fab.setAttribute("aria-expanded", String(on));
      if (on) q.focus();
      else fab.focus();
    };
    fab.addEventListener("click", () => open(panel.hidden === true));
    close.addEventListener("click", () => open(false));
    panel.addEventListener("keydown", (e) => { if (e.key === "Escape" && !inline) open(false); });
    q.addEventListener("keydown", (e) => { if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); form.requestSubmit(); } });
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const question = q.value.trim();
      if (!question) return;
      send.disabled = true;
      out.replaceChildren(h("p", { text: "Thinking…" }));
      try {
        const a = await call<Answer>(this.cfg, "/ask", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ question, ...(this.thread ? { threadId: this.thread } : {}) }) });
        this.thread = a.threadId;
        const origin = new URL(this.cfg.base).origin;
        const abs = (s: CitedSource) => ({ ...s, url: new URL(s.url, origin).href });
        const sources = a.sources.map(abs);
        // answerHtml escapes every character of the answer; its only tags are its own.
        const html = h("div");
        html.innerHTML = answerHtml(a.answer, sources, `${id}-s`);
        const list = (a.answered ? sources : (a.results ?? []).map(abs));
        out.replaceChildren(html, ...(list.length ? [h("h2", { text: a.answered ? "Sources" : "Closest pages" }), h("ol", {}, ...list.map((s, n) => h("li", { id: `${id}-s${n + 1}` }, h("a", { href: s.url, target: "_blank", rel: "noopener" }, s.title))))] : []));
        this.dispatchEvent(new CustomEvent("portico-answer", { detail: { answered: a.answered, sources: sources.length } }));
      } catch (err) {
        out.replaceChildren(h("p", { class: "err", role: "alert", text: err instanceof ApiProblem ? err.message : "Asking failed." }));
      } finally {
        send.disabled = false;
      }
    });
  }
}

if (!customElements.get("portico-search")) customElements.define("portico-search", PorticoSearch);
if (!customElements.get("portico-ask")) customElements.define("portico-ask", PorticoAsk);
