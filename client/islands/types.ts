/** @module Props of every island: the one contract between the server (which serialises them) and the browser. */
import type { SampleInput } from "../../worker/openapi/samples/types";

/** `code-samples`: one operation's request in every language, with server choice and copy. */
export interface CodeSamplesProps {
  input: SampleInput;
  /** Operation slug, for element ids. */
  id: string;
}

/** `switcher`: a menu of links (APIs or versions). */
export interface SwitcherProps {
  label: string;
  current: string;
  items: { label: string; href: string; current: boolean; note?: string }[];
  /** Carry the reader's `#fragment` (the operation on a single page) over to the chosen link. */
  keepHash: boolean;
}

/** `copy`: copies the text of the element with id `target`. */
export interface CopyProps {
  target: string;
  label?: string;
}

/** `search-box`: the top bar's search (a GET form without script) and the Ctrl/Cmd-K quick switcher. */
export interface SearchBoxProps {
  /** The portal's base path (`/p/acme`): the form goes to `{base}/search`, results come from `{base}/search.json`. */
  base: string;
  /** The query already asked (the results page fills the box with it). */
  query?: string;
  /** The page's locale: results in it rank first among equals (`prefer=`). */
  locale?: string;
}

/** `theme-toggle` takes no props. */
export type ThemeToggleProps = Record<string, never>;

/** Island names, mapped to their props. */
export interface IslandProps {
  "code-samples": CodeSamplesProps;
  switcher: SwitcherProps;
  copy: CopyProps;
  "theme-toggle": ThemeToggleProps;
  "search-box": SearchBoxProps;
}

/** Name of a registered island. */
export type IslandName = keyof IslandProps;

/** localStorage keys the islands and the head script share. */
export const STORAGE_KEYS = { theme: "portico-theme", language: "portico-sample-language" } as const;
