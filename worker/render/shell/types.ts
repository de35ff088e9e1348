/** @module What the reader shell is built from: one {@link ShellChrome} per request, the same on every page type. */

/** One top-bar tab: a section of the portal (Guides, an API's reference, Changelog). */
export interface ShellTab {
  /** Stable key a page names to mark its tab current (`guides`, `api:pets`, `changelog`). */
  key: string;
  title: string;
  href: string;
}

/** The reader's account control: who is signed in (and where sign-out posts), or where to sign in. */
export type ShellAccount = { signedInAs: string; signOutAction: string } | { signInHref: string };

/**
 * Everything the shell shows that is not the page's own: the portal's identity, its sections and the reader's
 * controls. Built once per request (worker/routes/shell-chrome.ts) from what this reader may read, so a tab never
 * names a section the reader cannot open. Branding (name, logo, colours, links, theme) comes from here and only here
 * (docs/branding.md).
 */
export interface ShellChrome {
  /** The portal's name as readers see it (portico.yaml `name`, else the portal's own). */
  name: string;
  /** Logo image URLs, shown before the name: `dark` (when given) replaces `light` in the dark theme. */
  logo?: { light: string; dark?: string };
  /** Favicon URL (brand `favicon`); none: the page asks for no icon. */
  favicon?: string;
  /** The brand's `navigation` links, tabs after the portal's own sections. */
  links?: { title: string; href: string }[];
  /** The brand's footer links. */
  footerLinks?: { title: string; href: string }[];
  /** The theme a reader who has not picked one sees (brand `themeDefault`); absent: the system's. */
  themeDefault?: "light" | "dark";
  /** Prefix of every reader URL of the portal, no trailing slash (`/p/acme`; `` on a custom domain). */
  basePath: string;
  tabs: ShellTab[];
  /** BCP 47 tag of the page's language (`<html lang>`). */
  locale: string;
  /** The same page in the portal's other locales (the switcher shows them when there are two or more). */
  localeLinks?: { locale: string; href: string; current: boolean }[];
  /** Whether the search box is shown (previews have none: their index is not live). */
  search: boolean;
  /** False hides Ask AI (the organisation's plan lacks the assistant, docs/workspace.md); absent: shown with search. */
  assistant?: boolean;
  authorize?: AuthorizeState;
  account?: ShellAccount;
  /**
   * The brand's colours and fonts as design tokens (content/brand.ts themeStylesheet), written as the head's one
   * `<style>`; the route admits it in the CSP by hash (routes/shell-chrome.ts allowChromeStyle, or
   * allowThemeStyle before the chrome is built).
   */
  themeStyle?: string;
  /** The brand's custom stylesheet (sanitised at publish), linked after every other. */
  customCss?: string;
}

/** One breadcrumb; the last is the current page and carries no link. */
export interface Crumb {
  title: string;
  href?: string;
}

/** One heading of an on-this-page list. */
export interface TocItem {
  id: string;
  text: string;
  level: number;
}

/** What the Authorize control shows and where its forms post (worker/routes/api-key.ts). */
export interface AuthorizeState {
  /** The reader's API key, when entered: samples carry it and the control offers Clear. */
  apiKey?: string;
  /** `POST` target that stores a key (form fields `key`, `return`). */
  action: string;
  /** `POST` target that forgets it (form field `return`). */
  clearAction: string;
  /** This page's path, where both forms come back to. */
  returnTo: string;
}
