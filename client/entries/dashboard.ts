/**
 * The dashboard's portal pages (worker/render/dashboard-portal.tsx): each `form[data-api="METHOD /v1/path"]` is sent
 * to the service API with the writer's session cookie and `Portico-Portal: <portal>` (the portal of `main`), its
 * JSON body built from the fields by its `data-build` (none: no body). The answer's message is shown in the form's
 * status line, or next to the field it names (`error.details.field`); a success reloads the page so it shows what
 * the server now holds. Text from the server is set as textContent, never parsed as HTML.
 */
import { el } from "../admin/dom";

const portal = document.querySelector<HTMLElement>("main[data-portal]")?.dataset.portal ?? "";

/** Comma- or space-separated values, trimmed, empty ones dropped. */
function list(value: FormDataEntryValue | null): string[] {
  return String(value ?? "").split(/[\s,]+/).map((v) => v.trim()).filter(Boolean);
}

/** How each form's fields become the JSON body its API call takes. */
const BUILDERS: Record<string, (data: FormData) => unknown> = {
  access: (data) => {
    const access: Record<string, unknown> = { default: data.get("default"), methods: data.getAll("methods") };
    const password = String(data.get("password") ?? "");
    if (password) access.password = password;
    const domains = list(data.get("allowedDomains"));
    if (domains.length) access.magicLink = { allowedDomains: domains };
    return { access };
  },
  brand: (data) => {
    const brand: Record<string, unknown> = { name: String(data.get("name") ?? "").trim() || null, themeDefault: data.get("themeDefault") };
    const primary = String(data.get("primary") ?? "").trim();
    brand.colors = primary ? { primary } : null;
    return { brand };
  },
  domain: (data) => ({ hostname: String(data.get("hostname") ?? "").trim() }),
};

/** Shows `message` next to the field `name` (creating the message element once), or clears it. */
function fieldMessage(form: HTMLFormElement, name: string, message: string | null): boolean {
  const input = form.elements.namedItem(name);
  if (!(input instanceof HTMLElement)) return false;
  const id = `${input.id || name}-error`;
  let note = document.getElementById(id);
  if (!message) {
    note?.remove();
    input.removeAttribute("aria-invalid");
    return true;
  }
  if (!note) {
    note = el("small", "", "notice-error");
    note.id = id;
    note.setAttribute("role", "alert");
    input.insertAdjacentElement("afterend", note);
  }
  note.textContent = message;
  input.setAttribute("aria-invalid", "true");
  input.setAttribute("aria-describedby", id);
  return true;
}

async function send(form: HTMLFormElement): Promise<void> {
  const [method, path] = (form.dataset.api ?? "").split(" ");
  const status = form.querySelector<HTMLElement>(".form-status");
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
  if (!method || !path) return;
  if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) return;
  const build = form.dataset.build ? BUILDERS[form.dataset.build] : undefined;
  for (const input of Array.from(form.elements)) if (input instanceof HTMLElement && input.getAttribute("name")) fieldMessage(form, input.getAttribute("name")!, null);
  if (button) button.disabled = true;
  if (status) status.textContent = "Saving…";
  try {
    const headers: Record<string, string> = { "portico-portal": portal };
    const init: RequestInit = { method, headers, credentials: "same-origin" };
    if (build) {
      headers["content-type"] = "application/json";
      init.body = JSON.stringify(build(new FormData(form)));
    }
    const res = await fetch(path, init);
    const body: any = await res.json().catch(() => ({}));
    if (res.ok) {
      if (status) status.textContent = "Saved.";
      window.location.reload();
      return;
    }
    const message = String(body?.error?.message ?? `${res.status} ${res.statusText}`);
    const field = body?.error?.details?.field;
    if (!(typeof field === "string" && fieldMessage(form, field, message)) && status) status.textContent = message;
    else if (status) status.textContent = "";
  } catch (error) {
    if (status) status.textContent = `Not saved: ${String((error as Error).message ?? error)}`;
  } finally {
    if (button) button.disabled = false;
  }
}

for (const form of Array.from(document.querySelectorAll<HTMLFormElement>("form[data-api]"))) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void send(form);
  });
}
