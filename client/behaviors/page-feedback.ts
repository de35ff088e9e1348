/**
 * @module "Was this page helpful?" at the end of every reader page (worker/render/shell/page-feedback.tsx). The
 * block is server-rendered `hidden` (it needs script to report) and shown here: Yes sends at once; No opens an
 * optional comment (at most 1,000 characters) sent with it. Answers go out as one `feedback` event (beacon.ts).
 */
import { sendEvents } from "../analytics/beacon";

/** Wires every `[data-page-feedback]` block in `doc`. */
export function installPageFeedback(doc: Document = document): void {
  for (const box of doc.querySelectorAll<HTMLElement>("[data-page-feedback]")) {
    const base = box.dataset.base ?? "";
    const form = box.querySelector<HTMLFormElement>("form.fb-comment");
    const thanks = box.querySelector<HTMLElement>(".fb-thanks");
    const ask = box.querySelector<HTMLElement>(".fb-ask");
    if (!form || !thanks || !ask) continue;
    box.hidden = false;
    const page = () => location.pathname;
    const title = () => doc.querySelector("main h1")?.textContent?.trim().slice(0, 200) || doc.title.slice(0, 200);
    const done = () => {
      ask.hidden = true;
      form.hidden = true;
      thanks.hidden = false;
      thanks.focus();
    };
    box.querySelector<HTMLButtonElement>("button[data-helpful=yes]")?.addEventListener("click", () => {
      sendEvents(base, [{ type: "feedback", url: page(), helpful: true, title: title() }]);
      done();
    });
    box.querySelector<HTMLButtonElement>("button[data-helpful=no]")?.addEventListener("click", () => {
      ask.hidden = true;
      form.hidden = false;
      form.querySelector<HTMLTextAreaElement>("textarea")?.focus();
    });
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const comment = (form.querySelector<HTMLTextAreaElement>("textarea")?.value ?? "").trim().slice(0, 1000);
      sendEvents(base, [{ type: "feedback", url: page(), helpful: false, title: title(), ...(comment ? { comment } : {}) }]);
      done();
    });
  }
}
