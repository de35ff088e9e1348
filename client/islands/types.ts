/** @module Props of every island: the one contract between the server (which serialises them) and the browser. */
import type { SampleInput } from "../../worker/openapi/samples/types";

/** `code-samples`: one operation's request in every language, with server choice and copy. */
export interface CodeSamplesProps {
  input: SampleInput;
  /** Operation slug, for element ids. */
  id: string;
  /**
   * Page weight: `input.body.text` is left out of the props because the server-rendered cURL code holds it exactly
   * (worker/openapi/samples/body-in-code.ts); the island reads it back from that code before its first render.
   */
  bodyInCode?: true;
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

/**
 * `try-it`: the Try-it panel of one operation. Only URLs: the operation's spec (worker/openapi/samples/try-spec.ts)
 * loads when the reader opens the panel, so a page's weight barely changes.
 */
export interface TryItProps {
  /** `…/{operation}/try.json`: the panel's spec. */
  spec: string;
  /** The portal's base path (`/p/acme`): the proxy is `{base}/playground/send`, OAuth under `{base}/playground/oauth/`. */
  base: string;
  /** The code samples island's id on this page, which shows the request the panel sent. */
  samples: string;
}

/** `ask-ai`: the top bar's "Ask AI" button and the assistant panel (client/assistant/ask-panel.tsx). */
export interface AskAiProps {
  /** The portal's base path: questions go to `{base}/assistant/ask`. */
  base: string;
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
  "try-it": TryItProps;
  "ask-ai": AskAiProps;
}

/** Name of a registered island. */
export type IslandName = keyof IslandProps;

/** localStorage keys the islands and the head script share. */
export const STORAGE_KEYS = { theme: "portico-theme", language: "portico-sample-language", tryHistory: "portico-try-history" } as const;

/**
 * The window event the Try-it panel dispatches after a send: the code samples island whose `id` matches shows
 * `har` (the exact request sent) until the reader goes back to the example.
 */
export const TRY_SENT_EVENT = "portico:try-sent";
