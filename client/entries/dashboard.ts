/**
 * The dashboard's portal pages (worker/render/dashboard-portal.tsx) improved by script. Each `form[data-form]` works
 * without it (a post to `/app/.../forms/{id}`, answered by the page again); with it, the form's fields are checked
 * and built by the same code as on the server (worker/workspace/dashboard-forms.ts) and the call is sent straight to
 * the service API with the writer's session cookie and `Portico-Portal: <portal>` (the portal of `main`). What is
 * wrong is shown next to its field (the API's `error.details.field`), else in the form's status line; a success
 * loads the page the no-script post lands on (`?saved={id}`), so it shows what the server now holds. Text from the server is set as textContent, never parsed
 * as HTML.
 */
import { buildForm, inputFor, inputId, isPortalForm, PORTAL_FORMS, type FieldSource, type PortalFormId, type PortalFormSpec } from "../../worker/workspace/dashboard-forms";
import { el } from "../admin/dom";

const portal = document.querySelector<HTMLElement>("main[data-portal]")?.dataset.portal ?? "";

/** Shows `message` next to input `name` of form `id` (creating the message element once), or clears it. */
function fieldMessage(form: HTMLFormElement, id: PortalFormId, name: string, message: string | null): boolean {
  const input = document.getElementById(inputId(id, name)) ?? (form.elements.namedItem(name) instanceof HTMLElement ? (form.elements.namedItem(name) as HTMLElement) : null);
  if (!input) return false;
  const noteId = `${inputId(id, name)}-error`;
  let note = document.getElementById(noteId);
  if (!message) {
    note?.remove();
    input.removeAttribute("aria-invalid");
    input.closest(".field")?.classList.remove("invalid");
    return true;
  }
  if (!note) {
    note = el("small", "", "notice-error");
    note.id = noteId;
    note.setAttribute("role", "alert");
    // In a fieldset the message closes it; after an input it follows the input (and its hint).
    if (input.tagName === "FIELDSET") input.appendChild(note);
    else (input.parentElement?.lastElementChild ?? input).insertAdjacentElement("afterend", note);
  }
  note.textContent = message;
  input.setAttribute("aria-invalid", "true");
  input.closest(".field")?.classList.add("invalid");
  const described = new Set((input.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean));
  described.add(noteId);
  input.setAttribute("aria-describedby", [...described].join(" "));
  return true;
}

async function send(form: HTMLFormElement, id: PortalFormId): Promise<void> {
  const spec: PortalFormSpec = PORTAL_FORMS[id];
  const status = form.querySelector<HTMLElement>(".form-status");
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
  if (spec.confirm && !window.confirm(spec.confirm)) return;
  form.querySelector(".form-error")?.remove();
  for (const name of new Set([...Object.values(spec.fields), ...Array.from(form.elements).map((e) => e.getAttribute("name") ?? "")])) if (name) fieldMessage(form, id, name, null);
  const data = new FormData(form);
  const source: FieldSource = { get: (n) => String(data.get(n) ?? ""), getAll: (n) => data.getAll(n).map(String) };
  const built = buildForm(id, source);
  if (!built.ok) {
    for (const [name, message] of Object.entries(built.errors)) if (!fieldMessage(form, id, name, message) && status) status.textContent = message;
    if (status && !status.textContent) status.textContent = "Not saved: see the fields marked.";
    return;
  }
  if (button) button.disabled = true;
  if (status) status.textContent = "Saving…";
  try {
    const headers: Record<string, string> = { "portico-portal": portal };
    const init: RequestInit = { method: spec.method, headers, credentials: "same-origin" };
    if (built.raw) {
      headers["content-type"] = built.raw.contentType;
      init.body = built.raw.text;
    } else if (built.json !== undefined) {
      headers["content-type"] = "application/json";
      init.body = JSON.stringify(built.json);
    }
    const res = await fetch(`${spec.path}${built.query ?? ""}`, init);
    const body: any = await res.json().catch(() => ({}));
    if (res.ok) {
      if (status) status.textContent = "Saved.";
      // The page the no-script post lands on: it shows what the server now holds, "Saved." in this form.
      const next = new URL(`${window.location.pathname}?saved=${id}#form-${id}`, window.location.href).href;
      if (next === window.location.href) window.location.reload();
      else window.location.assign(next);
      return;
    }
    const message = String(body?.error?.message ?? `${res.status} ${res.statusText}`);
    const name = inputFor(id, body?.error?.details?.field);
    if (name !== "_" && fieldMessage(form, id, name, message)) {
      if (status) status.textContent = "Not saved: see the field marked.";
    } else if (status) status.textContent = message;
  } catch (error) {
    if (status) status.textContent = `Not saved: ${String((error as Error).message ?? error)}`;
  } finally {
    if (button) button.disabled = false;
  }
}

for (const form of Array.from(document.querySelectorAll<HTMLFormElement>("form[data-form]"))) {
  const id = form.dataset.form ?? "";
  if (!isPortalForm(id)) continue;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void send(form, id);
  });
}
