/** @module Island `theme-toggle`: light/dark switch that sticks (localStorage), defaulting to `prefers-color-scheme`. */
import { useEffect, useState } from "preact/hooks";
import { STORAGE_KEYS } from "./types";

type Theme = "light" | "dark";

function current(): Theme {
  const set = document.documentElement.dataset.theme;
  if (set === "light" || set === "dark") return set;
  return window.matchMedia?.("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

/** A button that flips the theme; the head script applies the stored choice before first paint. */
export default function ThemeToggle() {
  const [theme, setTheme] = useState<Theme | undefined>(undefined);
  useEffect(() => setTheme(current()), []);
  const flip = () => {
    const next: Theme = current() === "dark" ? "light" : "dark";
    document.documentElement.dataset.theme = next;
    try {
      localStorage.setItem(STORAGE_KEYS.theme, next);
    } catch {
      // storage may be disabled; the choice then lasts for this page only
    }
    setTheme(next);
  };
  return (
    // A toggle's name stays the same (its state is aria-pressed). A compact icon button so the desktop banner is
    // one row: the name is the visually hidden text (nothing visible to mismatch, WCAG 2.5.3), shown as a tooltip,
    // and written out again in the phone menu (portico.css).
    <button type="button" class="tt tt-icon needs-js" onClick={flip} aria-pressed={theme === "dark" ? "true" : "false"} title="Dark mode">
      <span aria-hidden="true">◐</span><span class="vh">Dark mode</span>
    </button>
  );
}
