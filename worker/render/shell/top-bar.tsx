/**
 * @module The shell's banner, identical on every reader page: logo and name linking home, the menu button (phones),
 * the portal's tabs and the brand's navigation links, search, Ask AI (the assistant panel), locale, Authorize,
 * sign in / out, theme.
 */
import AskAi from "../../../client/assistant/ask-panel";
import SearchBox from "../../../client/islands/search-box";
import ThemeToggle from "../../../client/islands/theme-toggle";
import { Authorize } from "../components/authorize";
import { Island } from "../components/island";
import type { ShellChrome } from "./types";

/** `SIDEBAR_ID`: the id of the sidebar the menu button controls. */
export const SIDEBAR_ID = "side";
/** `TOP_MORE_ID`: the id of the banner's tabs and controls, folded into the menu on phones. */
export const TOP_MORE_ID = "top-more";

/**
 * The banner; `tab` is the key of the current tab (`path:/glossary` for a page a brand navigation link names by its
 * portal path), `menu` whether the page has a sidebar. On phones it is one row
 * (logo and name, Menu button): the tabs and controls fold into the menu with the sidebar (client/behaviors/menu.ts).
 */
export function ShellTopBar({ chrome: ch, tab, menu, query }: { chrome: ShellChrome; tab?: string; menu: boolean; query?: string }) {
  // Only a portal in several languages ranks results in the page's language first.
  const multilingual = (ch.localeLinks?.length ?? 0) > 1;
  const links = ch.links ?? [];
  return (
    <header class="top">
      <a class="brand" href={`${ch.basePath}/`}>
        {/* With a dark logo, the theme hides one of the two: lazy loading skips the hidden one's request. */}
        {ch.logo && <img class={ch.logo.dark ? "logo logo-l" : "logo"} src={ch.logo.light} alt="" {...(ch.logo.dark ? { loading: "lazy" as const } : {})} />}
        {ch.logo?.dark && <img class="logo logo-d" src={ch.logo.dark} alt="" loading="lazy" />}
        <span class="brand-name">{ch.name}</span>
      </a>
      <button type="button" class="menu-btn needs-js" aria-expanded="false" aria-controls={menu ? `${TOP_MORE_ID} ${SIDEBAR_ID}` : TOP_MORE_ID}>
        <span aria-hidden="true">☰</span> Menu
      </button>
      <div class="top-more" id={TOP_MORE_ID}>
        {ch.tabs.length + links.length > 0 && (
          <nav class="tabs-nav" aria-label="Sections">
            <ul>
              {ch.tabs.map((t) => <li><a href={t.href} aria-current={t.key === tab ? "true" : undefined}>{t.title}</a></li>)}
              {links.map((l) => <li><a href={l.href} aria-current={tab?.startsWith("path:") && l.href === ch.basePath + tab.slice(5) ? "true" : undefined}>{l.title}</a></li>)}
            </ul>
          </nav>
        )}
        <span class="grow" />
        {ch.search && <Island name="search-box" component={SearchBox} props={{ base: ch.basePath, ...(multilingual ? { locale: ch.locale } : {}), ...(query ? { query } : {}) }} />}
        {ch.localeLinks && ch.localeLinks.length > 1 && (
          <nav class="locales" aria-label="Language">
            {ch.localeLinks.map((l) => <a href={l.href} hrefLang={l.locale} lang={l.locale} aria-current={l.current ? "true" : undefined}>{l.locale.toUpperCase()}</a>)}
          </nav>
        )}
        {ch.authorize && <Authorize state={ch.authorize} />}
        {ch.account && ("signOutAction" in ch.account ? (
          <form class="account" method="post" action={ch.account.signOutAction}>
            <span class="who">{ch.account.signedInAs}</span> <button type="submit">Sign out</button>
          </form>
        ) : <a class="account" href={ch.account.signInHref}>Sign in</a>)}
        <Island name="theme-toggle" component={ThemeToggle} props={{}} />
      </div>
      {/* Ask AI (issue 28) sits outside the folded controls: on phones it stays one tap away beside Menu, and its
          dialog is never inside a hidden box; on desktop it ends the one-row banner. */}
      {ch.search && ch.assistant !== false && <Island name="ask-ai" component={AskAi} props={{ base: ch.basePath }} />}
    </header>
  );
}
