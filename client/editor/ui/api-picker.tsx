/** @module Choosing which API to edit, or naming a new one. */
import { useState } from "preact/hooks";
import type { ApiSummary } from "../api-client";

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

export function ApiPicker({ portal, apis, onSignOut }: { portal: string; apis: ApiSummary[]; onSignOut: () => void }) {
  const [slug, setSlug] = useState("");
  const base = `/p/${encodeURIComponent(portal)}/editor/`;
  return (
    <div class="ed-panel">
      <h1>Edit an API</h1>
      {apis.length === 0 ? (
        <p>This portal has no APIs yet.</p>
      ) : (
        <ul class="ed-api-list">
          {apis.map((a) => (
            <li key={a.slug}>
              <a href={base + encodeURIComponent(a.slug)}>{a.title ?? a.slug}</a> <span class="ed-muted">{a.slug}{a.liveVersion ? ` · live ${a.liveVersion}` : ""}</span>
            </li>
          ))}
        </ul>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (SLUG.test(slug)) location.assign(base + slug);
        }}
      >
        <label>
          New API (slug)
          <input value={slug} pattern="[a-z0-9][a-z0-9-]{0,62}" placeholder="payments" onInput={(e) => setSlug(e.currentTarget.value)} />
        </label>
        <button type="submit">Start</button>
      </form>
      <p>
        <button type="button" class="ed-link" onClick={onSignOut}>Sign out</button>
      </p>
    </div>
  );
}
