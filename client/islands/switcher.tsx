/** @module Island `switcher`: API or version menu; plain links without script, keeps the `#operation` with it. */
import type { SwitcherProps } from "./types";

/** A disclosure menu of links. With scripts on, the current fragment rides along when `keepHash`. */
export default function Switcher({ label, current, items, keepHash }: SwitcherProps) {
  const onClick = (e: MouseEvent) => {
    if (!keepHash || typeof location === "undefined" || !location.hash) return;
    const a = (e.target as HTMLElement).closest("a");
    if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    location.assign(a.href.split("#")[0] + location.hash);
  };
  return (
    <details class="sw">
      <summary><span class="fl">{label}:</span> {current}</summary>
      <ul onClick={onClick}>
        {items.map((i) => (
          <li><a href={i.href} aria-current={i.current ? "page" : undefined}>{i.label}{i.note ? <small> {i.note}</small> : null}</a></li>
        ))}
      </ul>
    </details>
  );
}
