/**
 * @module The API editor's page shell (server-rendered): a root element carrying the portal and API slugs, the
 * portal's design tokens (/tokens.css, then the brand's `<style>`, admitted by the CSP's hash), the editor's
 * stylesheet and its first module script (no other inline script or style: the CSP forbids them). That script
 * (client/entries/editor-early.ts) requests the definition, paints its first part, then loads the editor
 * bundle named in `data-script` (preloaded here); everything else happens in client/entries/editor.ts.
 */
import { renderToString } from "preact-render-to-string";
import type { LintRuleset } from "../openapi/lint/ruleset";
import { ASSETS } from "./urls";

export interface EditorPageProps {
  portal: { slug: string; name: string };
  /** The API slug from the URL, if any (the editor then opens its live definition). */
  api?: string;
  /** The CSP nonce CodeMirror puts on the `<style>` elements it mounts (client/editor/cm-setup.ts). */
  styleNonce?: string;
  /** The portal's lint ruleset (portico.yaml `lint:`), for the lint worker: JSON in `data-lint-ruleset`. */
  lintRuleset?: LintRuleset;
  /** The portal's brand as design tokens (routes/shell-chrome.ts themeStyle); the route admits it by hash. */
  themeStyle?: string;
}

/** Asset URLs of the editor bundle (scripts/build-client.mjs). */
export const EDITOR_ASSETS = { early: "/assets/editor-early.js", script: "/assets/editor.js", worker: "/assets/lint-worker.js", tokens: "/tokens.css", css: "/editor.css" } as const;

function EditorPage({ portal, api, styleNonce, lintRuleset, themeStyle }: EditorPageProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta name="robots" content="noindex" />
        <link rel="icon" href="data:," />
        <title>{`${api ? `${api} · ` : ""}Editor · ${portal.name}`}</title>
        {/* The portal's tokens, its brand over them, the editor's rules; the reader's theme choice before first paint. */}
        <link rel="stylesheet" href={EDITOR_ASSETS.tokens} />
        {themeStyle && <style dangerouslySetInnerHTML={{ __html: themeStyle }} />}
        <link rel="stylesheet" href={EDITOR_ASSETS.css} />
        <script src={ASSETS.themeInit} />
        <link rel="modulepreload" href={EDITOR_ASSETS.early} />
        <link rel="modulepreload" href={EDITOR_ASSETS.script} />
      </head>
      <body>
        <div id="editor-root" data-portal={portal.slug} data-api={api ?? ""} data-script={EDITOR_ASSETS.script} data-worker={EDITOR_ASSETS.worker} data-style-nonce={styleNonce} data-lint-ruleset={lintRuleset ? JSON.stringify(lintRuleset) : undefined}>
          <p class="ed-status">Loading the editor…</p>
          <noscript>The API editor needs JavaScript.</noscript>
        </div>
        <script type="module" src={EDITOR_ASSETS.early} />
      </body>
    </html>
  );
}

/** The full HTML document of the editor page. */
export function renderEditorPage(props: EditorPageProps): string {
  return "<!doctype html>\n" + renderToString(<EditorPage {...props} />);
}
