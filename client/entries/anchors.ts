/**
 * @module Index and single page: sends a reader who arrives with another renderer's bookmark fragment to the
 * operation or tag it meant. Reads the operation list from the page itself (links show method and path, or
 * carry them in `data-op`; `data-oid` only when the slug is not derived from the operationId), so the page
 * embeds no extra table.
 */
import { mapLegacyHash, type AnchorOperation, type AnchorTag } from "../anchors/map-hash";

function slugOf(href: string): string {
  const last = href.split("#").pop()!.split("/").pop() ?? "";
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

function collect(): { ops: AnchorOperation[]; tags: AnchorTag[] } {
  const ops: AnchorOperation[] = [];
  // Compact links (single-page sidebar) carry method and path; full links (index list) show them.
  for (const a of document.querySelectorAll<HTMLAnchorElement>("a[data-op]")) {
    const [method, ...rest] = (a.dataset.op ?? "").split(" ");
    ops.push({ slug: a.dataset.slug ?? "", href: a.getAttribute("href") ?? "", operationId: a.dataset.oid ?? a.dataset.slug, method, path: rest.join(" ") });
  }
  for (const a of document.querySelectorAll<HTMLAnchorElement>("a.opl")) {
    const href = a.getAttribute("href") ?? "";
    const slug = slugOf(href);
    const method = (a.querySelector(".mb")?.textContent ?? "").toLowerCase();
    ops.push({ slug, href, operationId: a.dataset.oid ?? slug, method, path: a.querySelector(".op-path")?.textContent ?? "" });
  }
  const tags: AnchorTag[] = [];
  for (const el of document.querySelectorAll<HTMLElement>("[data-tag]")) tags.push({ name: el.dataset.tag ?? "", href: `#${el.id}` });
  return { ops, tags };
}

function follow(): void {
  if (!location.hash || document.getElementById(decodeURIComponent(location.hash.slice(1)))) return;
  const { ops, tags } = collect();
  const target = mapLegacyHash(location.hash, ops, tags);
  if (!target) return;
  if (target.startsWith("#")) {
    history.replaceState(null, "", target);
    document.getElementById(decodeURIComponent(target.slice(1)))?.scrollIntoView();
  } else location.replace(target);
}

follow();
addEventListener("hashchange", follow);
