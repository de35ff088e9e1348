/**
 * @module Island `search-box`: the top bar's search. Without script it is a GET form to `/p/{portal}/search`
 * (Enter submits; the results page is server-rendered). With script, results appear as the reader types
 * (`search.json`, the previous request aborted), arrow keys move through them, Enter opens the chosen one,
 * Escape closes the list (keeping the text); Ctrl/Cmd-K opens the quick switcher (a modal dialog with the same results)
 * from anywhere, and closing it gives focus back to what had it.
 * No inline styles: the page's CSP allows only same-origin stylesheets. Each typing session reports its final
 * query and the result opened (analytics/beacon.ts SearchSession), never a keystroke.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { SearchSession } from "../analytics/beacon";
import type { SearchBoxProps } from "./types";

/** One result as `search.json` answers it (the fields the list shows). */
export interface Hit {
  kind: string;
  title: string;
  url: string;
  section: string | null;
  snippet: string;
  api: string | null;
  method: string | null;
  path: string | null;
}

const KIND_LABEL: Record<string, string> = { operation: "Endpoint", guide: "Guide", step: "Steps", changelog: "Changelog", glossary: "Glossary" };

/** Snippet HTML from the server: escaped text with `<mark>`; anything else that looks like a tag is escaped again. */
export function safeSnippet(html: string): string {
  return html.replace(/<(?!\/?mark>)/g, "&lt;");
}

/** `text` split into runs, those starting a word the query has (case-insensitive prefix) marked. */
export function highlight(text: string, query: string): { text: string; mark: boolean }[] {
  const words = query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0).slice(0, 16);
  if (words.length === 0) return [{ text, mark: false }];
  const out: { text: string; mark: boolean }[] = [];
  const re = /[\p{L}\p{N}]+/gu;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const lower = m[0].toLowerCase();
    const w = words.find((q) => lower.startsWith(q));
    if (!w) continue;
    if (m.index > last) out.push({ text: text.slice(last, m.index), mark: false });
    out.push({ text: m[0].slice(0, w.length), mark: true });
    last = m.index + w.length;
  }
  if (last < text.length) out.push({ text: text.slice(last), mark: false });
  return out;
}

/** Results of `q` from `search.json`, fetched as it changes (debounced; stale answers dropped). */
function useResults(base: string, q: string, limit: number, locale?: string): { hits: Hit[]; total: number; done: boolean; queryId?: string; answered?: string } {
  const [state, setState] = useState<{ hits: Hit[]; total: number; done: boolean; queryId?: string; answered?: string }>({ hits: [], total: 0, done: true });
  useEffect(() => {
    if (!q.trim()) {
      setState({ hits: [], total: 0, done: true });
      return;
    }
    const abort = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const res = await fetch(`${base}/search.json?q=${encodeURIComponent(q)}&limit=${limit}${locale ? `&prefer=${encodeURIComponent(locale)}` : ""}`, { signal: abort.signal, headers: { accept: "application/json" } });
        if (!res.ok) return setState({ hits: [], total: 0, done: true });
        const body = (await res.json()) as { total: number; results: Hit[]; queryId?: string };
        setState({ hits: body.results, total: body.total, done: true, queryId: body.queryId, answered: q });
      } catch {
        // aborted by the next keystroke, or offline: the list keeps what it had
      }
    }, 60);
    setState((s) => ({ ...s, done: false }));
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [base, q, limit, locale]);
  return state;
}

/** The list of results, one option each: kind and API badges, title with matches marked, section, snippet. */
function ResultList({ id, hits, active, query, onPick }: { id: string; hits: Hit[]; active: number; query: string; onPick: (i: number) => void }) {
  return (
    <ul class="sr-list" id={id} role="listbox" aria-label="Search results">
      {hits.map((h, i) => (
        <li id={`${id}-${i}`} role="option" aria-selected={i === active ? "true" : "false"} class={i === active ? "sr-opt sr-on" : "sr-opt"}
          onMouseDown={(e) => e.preventDefault()} onClick={() => onPick(i)}>
          <a href={h.url} tabIndex={-1}>
            <span class="sr-head">
              <span class={`sr-badge sr-${h.kind}`}>{KIND_LABEL[h.kind] ?? h.kind}</span>
              {h.api && <span class="sr-badge sr-api">{h.api}</span>}
              {h.method && <span class="sr-method">{h.method}</span>}
              <span class="sr-title">{highlight(h.title, query).map((r) => (r.mark ? <mark>{r.text}</mark> : r.text))}</span>
            </span>
            {(h.section || h.path) && <span class="sr-section">{h.section ?? ""}{h.section && h.path ? " · " : ""}{h.path ?? ""}</span>}
            {h.snippet && <span class="sr-snippet" dangerouslySetInnerHTML={{ __html: safeSnippet(h.snippet) }} />}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** The typing session of one box (or the switcher): told every answer, ended when the reader leaves. */
function useSession(base: string, answer: { total: number; queryId?: string; answered?: string }): SearchSession {
  const session = useRef<SearchSession | undefined>(undefined);
  if (!session.current) session.current = new SearchSession(base);
  useEffect(() => {
    if (answer.queryId && answer.answered !== undefined) session.current!.answered({ queryId: answer.queryId, q: answer.answered, results: answer.total });
  }, [answer.queryId]);
  useEffect(() => {
    const end = () => session.current!.end();
    addEventListener("pagehide", end);
    return () => removeEventListener("pagehide", end);
  }, []);
  return session.current;
}

/** Keyboard handling shared by the box and the switcher; returns the key handler. */
function useListKeys(hits: Hit[], active: number, setActive: (i: number) => void, onEscape: () => boolean, open: (i: number) => void) {
  return (e: KeyboardEvent) => {
    if (e.key === "ArrowDown" && hits.length) {
      e.preventDefault();
      setActive(Math.min(active + 1, hits.length - 1));
    } else if (e.key === "ArrowUp" && hits.length) {
      e.preventDefault();
      setActive(Math.max(active - 1, -1));
    } else if (e.key === "Enter" && active >= 0 && hits[active]) {
      e.preventDefault();
      open(active);
    } else if (e.key === "Escape") {
      // Consumed (an open list closed): the browser must not also clear the search field's text.
      if (onEscape()) e.preventDefault();
    }
  };
}

/** The quick switcher: a modal dialog with its own input, opened by Ctrl/Cmd-K. */
function QuickSwitcher({ base, locale, open, onClose }: { base: string; locale?: string; open: boolean; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const [q, setQ] = useState("");
  const [active, setActive] = useState(0);
  const results = useResults(base, q, 10, locale);
  const { hits } = results;
  const session = useSession(base, results);
  const pick = (i: number) => {
    session.clicked(i + 1, hits[i].url);
    location.assign(hits[i].url);
  };
  useEffect(() => setActive(0), [hits]);
  useEffect(() => {
    if (!open) session.end();
  }, [open]);
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) {
      d.showModal();
      input.current?.focus();
      input.current?.select();
    } else if (!open && d.open) d.close();
  }, [open]);
  const onKey = useListKeys(hits, active, setActive, () => {
    onClose();
    return true;
  }, pick);
  return (
    <dialog ref={dialog} class="qs" aria-label="Jump to a page, endpoint or section" onClose={onClose} onClick={(e) => e.target === dialog.current && onClose()}>
      <input ref={input} class="qs-input" type="search" value={q} placeholder="Jump to a page, endpoint or section…" aria-label="Jump to"
        list={undefined} role="combobox" aria-expanded={hits.length > 0 ? "true" : "false"} aria-controls="qs-list" aria-activedescendant={active >= 0 && hits[active] ? `qs-list-${active}` : undefined}
        onInput={(e) => setQ((e.target as HTMLInputElement).value)} onKeyDown={onKey} />
      <ResultList id="qs-list" hits={hits} active={active} query={q} onPick={pick} />
      <p class="qs-hint"><kbd>↑</kbd> <kbd>↓</kbd> to move, <kbd>Enter</kbd> to open, <kbd>Esc</kbd> to close</p>
    </dialog>
  );
}

/** The top bar's search box (a GET form without script) and, once hydrated, the Ctrl/Cmd-K quick switcher. */
export default function SearchBox({ base, query, locale }: SearchBoxProps) {
  const [q, setQ] = useState(query ?? "");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [switcher, setSwitcher] = useState(false);
  /** What had focus when Ctrl/Cmd-K opened the switcher: it gets focus back when the switcher closes. */
  const returnTo = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (switcher || !returnTo.current) return;
    returnTo.current.focus();
    returnTo.current = null;
  }, [switcher]);
  const results = useResults(base, open ? q : "", 8, locale);
  const { hits, total, done } = results;
  const session = useSession(base, results);
  const pick = (i: number) => {
    session.clicked(i + 1, hits[i].url);
    location.assign(hits[i].url);
  };
  useEffect(() => setActive(-1), [hits]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "k") {
        e.preventDefault();
        if (document.activeElement instanceof HTMLElement && !document.activeElement.closest("dialog.qs")) returnTo.current = document.activeElement;
        setSwitcher(true);
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  const onKey = useListKeys(hits, active, setActive, () => {
    const wasShown = open && q.trim() !== "";
    setOpen(false);
    return wasShown;
  }, pick);
  const showList = open && q.trim() !== "";
  return (
    <>
    <form class="sb" role="search" action={`${base}/search`} method="get" onSubmit={(e) => {
      if (active >= 0) e.preventDefault();
      // The results page counts the query itself.
      else session.handedToServer();
    }}>
      <input class="sb-input" type="search" name="q" value={q} placeholder="Search docs… (Ctrl K)" aria-label="Search the documentation" autoComplete="off"
        list={undefined} role="combobox" aria-autocomplete="list" aria-expanded={showList && hits.length > 0 ? "true" : "false"} aria-controls="sb-list"
        aria-activedescendant={active >= 0 ? `sb-list-${active}` : undefined}
        onInput={(e) => {
          setQ((e.target as HTMLInputElement).value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)} onBlur={() => {
          setOpen(false);
          session.end();
        }} onKeyDown={onKey} />
      {showList && (
        <div class="sb-pop">
          {hits.length > 0 ? <ResultList id="sb-list" hits={hits} active={active} query={q} onPick={pick} />
            : done && <p class="sb-empty">No results for “{q}”.</p>}
          {total > hits.length && <a class="sb-all" href={`${base}/search?q=${encodeURIComponent(q)}`} onMouseDown={(e) => e.preventDefault()}>All {total} results</a>}
        </div>
      )}
    </form>
    {switcher && <QuickSwitcher base={base} locale={locale} open={switcher} onClose={() => setSwitcher(false)} />}
    </>
  );
}
