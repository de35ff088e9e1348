/** @module The editor app: sign-in with the portal token, choosing an API, loading its live definition. */
import type { LintRuleset } from "../../../worker/openapi/lint/ruleset";
import { useEffect, useState } from "preact/hooks";
import { ApiCallError, ApiClient, storedToken, storeToken } from "../api-client";
import type { ApiSummary, DefinitionStream } from "../api-client";
import { ApiPicker } from "./api-picker";
import { EditorShell } from "./editor-shell";
import { SignIn } from "./sign-in";

export interface AppProps {
  portal: string;
  api?: string;
  workerUrl: string;
  /** The portal's lint ruleset (portico.yaml `lint:`), applied by the lint worker as uploads apply it. */
  lintRuleset?: LintRuleset;
}

/** A definition to start from when an API has no live version yet. */
export const NEW_API_TEMPLATE = `openapi: 3.1.0
info:
  title: New API
  version: 0.1.0
  description: What this API is for.
  contact:
    email: api@example.com
servers:
  - url: https://api.example.com
paths: {}
`;

/** Characters shown before the rest of a large definition has arrived (a few screens' worth). */
const FIRST_CHARS = 64 * 1024;

type Phase =
  | { kind: "signin"; error?: string }
  | { kind: "pick"; apis: ApiSummary[] }
  | { kind: "loading" }
  | { kind: "editing"; text: string; rest?: DefinitionStream["rest"]; fresh: boolean }
  | { kind: "failed"; message: string };

export function App({ portal, api, workerUrl, lintRuleset }: AppProps) {
  const [token, setToken] = useState(storedToken(portal));
  const [phase, setPhase] = useState<Phase>(token ? { kind: "loading" } : { kind: "signin" });

  const signOut = (error?: string) => {
    storeToken(portal, undefined);
    setToken(undefined);
    setPhase({ kind: "signin", error });
  };

  useEffect(() => {
    if (!token) return;
    const client = new ApiClient(token);
    let cancelled = false;
    const load = async () => {
      if (!api) return setPhase({ kind: "pick", apis: await client.listApis() });
      // The definition streams in: the Source view shows its first part while the rest arrives.
      const stream = await client.streamDefinition(api, FIRST_CHARS);
      if (cancelled) return;
      setPhase(stream ? { kind: "editing", text: stream.first, rest: stream.rest, fresh: false } : { kind: "editing", text: NEW_API_TEMPLATE, fresh: true });
    };
    load().catch((e: unknown) => {
      if (cancelled) return;
      if (e instanceof ApiCallError && e.status === 401) signOut("That token was not accepted for this portal.");
      else setPhase({ kind: "failed", message: e instanceof Error ? e.message : String(e) });
    });
    return () => {
      cancelled = true;
    };
  }, [token, api]);

  const signIn = (value: string) => {
    storeToken(portal, value);
    setToken(value);
    setPhase({ kind: "loading" });
  };

  switch (phase.kind) {
    case "signin":
      return <SignIn portal={portal} error={phase.error} onSignIn={signIn} />;
    case "loading":
      return <p class="ed-status" role="status">Loading…</p>;
    case "failed":
      return (
        <div class="ed-panel" role="alert">
          <p>The editor could not load: {phase.message}</p>
          <button type="button" onClick={() => signOut()}>Sign out</button>
        </div>
      );
    case "pick":
      return <ApiPicker portal={portal} apis={phase.apis} onSignOut={() => signOut()} />;
    case "editing":
      return <EditorShell portal={portal} api={api!} token={token!} initialText={phase.text} rest={phase.rest} fresh={phase.fresh} workerUrl={workerUrl} lintRuleset={lintRuleset} onSignOut={() => signOut()} />;
  }
}
