/**
 * @module Code steps behaviour (no framework; client/entries/content.ts starts it): the step in view (or clicked,
 * or named by the URL fragment) highlights its line ranges in the sample; a language switch shows one language
 * of the sample at a time. Without script the page shows every language and the first step's lines.
 */
type Ranges = Record<string, [number, number][]>;

function linesOf(step: HTMLElement): Ranges {
  try {
    return JSON.parse(step.dataset.lines ?? "{}") as Ranges;
  } catch {
    return {};
  }
}

function activate(root: HTMLElement, step: HTMLElement): void {
  for (const s of root.querySelectorAll<HTMLElement>(".step")) s.toggleAttribute("aria-current", s === step);
  for (const s of root.querySelectorAll<HTMLElement>(".step[aria-current]")) s.setAttribute("aria-current", "step");
  const ranges = linesOf(step);
  for (const fig of root.querySelectorAll<HTMLElement>(".sample-lang")) {
    const own = ranges[fig.dataset.lang ?? ""] ?? ranges["*"] ?? [];
    let first: HTMLElement | undefined;
    for (const ln of fig.querySelectorAll<HTMLElement>(".ln")) {
      const n = Number(ln.dataset.n);
      const on = own.some(([a, b]) => n >= a && n <= b);
      ln.classList.toggle("hl", on);
      if (on && !first) first = ln;
    }
    if (first && !fig.hidden) {
      const pre = fig.querySelector("pre");
      if (pre) pre.scrollTop = Math.max(0, first.offsetTop - pre.clientHeight / 3);
    }
  }
}

function languageSwitch(root: HTMLElement): void {
  const figs = [...root.querySelectorAll<HTMLElement>(".sample-lang")];
  if (figs.length < 2) return;
  const bar = document.createElement("div");
  bar.className = "sample-tabs";
  bar.setAttribute("role", "group");
  bar.setAttribute("aria-label", "Language");
  const show = (lang: string) => {
    for (const f of figs) f.hidden = f.dataset.lang !== lang;
    for (const b of bar.querySelectorAll("button")) b.setAttribute("aria-pressed", String(b.dataset.lang === lang));
  };
  for (const f of figs) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.lang = f.dataset.lang ?? "";
    b.textContent = f.querySelector("figcaption")?.textContent ?? f.dataset.lang ?? "";
    b.addEventListener("click", () => show(b.dataset.lang!));
    bar.appendChild(b);
  }
  const sample = root.querySelector(".sample");
  sample?.insertBefore(bar, sample.firstChild);
  show(figs[0].dataset.lang ?? "");
}

/** Starts every code steps block of the page. */
export function installCodeSteps(): void {
  for (const root of document.querySelectorAll<HTMLElement>("[data-steps]")) start(root);
}

function start(root: HTMLElement): void {
  languageSwitch(root);
  const steps = [...root.querySelectorAll<HTMLElement>(".step")];
  // A step the reader chose (click, link) stays chosen while the jump to it scrolls other steps past the band.
  let pinnedUntil = 0;
  const choose = (step: HTMLElement) => {
    pinnedUntil = performance.now() + 1000;
    activate(root, step);
  };
  for (const step of steps) step.addEventListener("click", () => choose(step));
  const fromHash = steps.find((s) => `#${s.id}` === location.hash);
  if (fromHash) choose(fromHash);
  window.addEventListener("hashchange", () => {
    const s = steps.find((x) => `#${x.id}` === location.hash);
    if (s) choose(s);
  });
  // The step crossing the upper third of the viewport is the one being read.
  const observer = new IntersectionObserver((entries) => {
    if (performance.now() < pinnedUntil) return;
    const visible = entries.filter((e) => e.isIntersecting).map((e) => e.target as HTMLElement);
    if (visible[0]) activate(root, visible[0]);
  }, { rootMargin: "-30% 0px -60% 0px" });
  for (const step of steps) observer.observe(step);
}
