/** @module Tabs that switch without script: radio inputs + labels + panels, styled by `:checked` (see portico.css `.tabs`). */
import type { ComponentChildren } from "preact";
import type { RenderContext } from "./context";

/** One tab. */
export interface Tab {
  label: ComponentChildren;
  content: ComponentChildren;
}

/** Radio tabs (arrow keys move between them); a single tab renders its content alone. */
export function Tabs({ tabs, ctx, label, class: cls }: { tabs: Tab[]; ctx: RenderContext; label: string; class?: string }) {
  if (tabs.length === 0) return null;
  if (tabs.length === 1) return <>{tabs[0].content}</>;
  const name = ctx.uid("t");
  return (
    <div class={cls ? `tabs ${cls}` : "tabs"} role="radiogroup" aria-label={label}>
      {tabs.map((t, i) => (
        <>
          <input type="radio" class="vi" name={name} id={`${name}-${i}`} checked={i === 0} />
          <label for={`${name}-${i}`}>{t.label}</label>
          <div class="vp">{t.content}</div>
        </>
      ))}
    </div>
  );
}
