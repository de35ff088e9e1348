/** @module Server side of islands: a marker element with the island's name and JSON props around its SSR output. */
import type { ComponentType } from "preact";
import type { IslandName, IslandProps } from "../../../client/islands/types";

/**
 * Renders `component` with `props` inside `<div data-island=name data-props=json>`; client/entries/islands.ts
 * hydrates exactly these. The wrapper uses `display: contents`, so it does not affect layout. `wire`, when given,
 * is what data-props carries instead: lighter props the island completes from the server-rendered HTML (it must
 * render the same as `props` once completed; see code-samples' `bodyInCode`).
 */
export function Island<N extends IslandName>({ name, props, wire, component: C }: { name: N; props: IslandProps[N]; wire?: IslandProps[N]; component: ComponentType<IslandProps[N]> }) {
  return (
    <div data-island={name} data-props={JSON.stringify(wire ?? props)}>
      <C {...(props as IslandProps[N] & object)} />
    </div>
  );
}
