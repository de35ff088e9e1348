/** @module Lazy island registry: name → module loader. The reviver imports only what a page uses. */
import type { ComponentType } from "preact";
import type { IslandName } from "./types";

/** Loaders by island name; each module's default export is the component. */
export const ISLANDS: Record<IslandName, () => Promise<{ default: ComponentType<any> }>> = {
  "code-samples": () => import("./code-samples"),
  switcher: () => import("./switcher"),
  copy: () => import("./copy"),
  "theme-toggle": () => import("./theme-toggle"),
  "search-box": () => import("./search-box"),
  "try-it": () => import("./try-it"),
  "ask-ai": () => import("../assistant/ask-panel"),
};
