/**
 * @module What the writers' own pages share (the changelog review, the analytics and backlog pages, the `/app`
 * dashboard): their `<head>` (not indexed, no favicon request, portico.css plus the page's own stylesheets) and the
 * portal-token sign-in form the token-holding pages' scripts read.
 */
import type { ComponentChildren } from "preact";
import { ASSETS } from "../urls";

/** The `<head>` of a writers' page: `title` as given, portico.css, then `stylesheets` in order. */
export function AdminHead({ title, stylesheets = [] }: { title: string; stylesheets?: string[] }) {
  return (
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width,initial-scale=1" />
      <meta name="robots" content="noindex" />
      <link rel="icon" href="data:," />
      <title>{title}</title>
      <link rel="stylesheet" href={ASSETS.css} />
      {stylesheets.map((href) => <link rel="stylesheet" href={href} />)}
    </head>
  );
}

/** The portal-token form (`#signin`) of the token-holding pages; their scripts keep the token in sessionStorage. */
export function TokenSignIn(): ComponentChildren {
  return (
    <form id="signin" class="signin">
      <label>Portal token <input type="password" name="token" autocomplete="off" required /></label> <button type="submit">Sign in</button>
    </form>
  );
}
