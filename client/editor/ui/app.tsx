/** @module The editor app: sign-in with the portal token, choosing an API, loading its live definition. */
import type { LintRuleset } from "../../../worker/openapi/lint/ruleset";
import { useEffect, useRef, useState } from "preact/hooks";
import { ApiCallError, ApiClient, storedToken, storeToken } from "../api-client";
import type { ApiSummary, DefinitionStream } from "../api-client";
import { FIRST_CHARS } from "../early";
import type { EarlyDefinition } from "../early";
import { ApiPicker } from "./api-picker";
import { EditorShell } from "./editor-shell";
import { SignIn } from "./sign-in";

export interface AppProps {
  portal: string;
  api?: string;
  workerUrl: string;
  /** The portal's lint ruleset (portico.yaml `lint:`), applied by the lint worker as uploads apply it. */
  lintRuleset?: LintRuleset;
  /** The definition request (and early Source view) the page's first script began, if it matches `api`. */
  early?: EarlyDefinition;
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

type Phase =
  | { kind: "signin"; error?: string }
  | { kind: "pick"; apis: ApiSummary[] }
  | { kind: "loading" }
  | { kind: "editing"; text: string; rest?: DefinitionStream["rest"]; fresh: boolean; scroll?: EarlyDefinition["scroll"] }
  | { kind: "failed"; message: string };

/** The editing phase for a loaded definition stream (undefined: no live version, the template). */
function editing(stream: DefinitionStream | undefined, scroll?: EarlyDefinition["scroll"]): Phase {
  return stream ? { kind: "editing", text: stream.first, rest: stream.rest, fresh: false, scroll } : { kind: "editing", text: NEW_API_TEMPLATE, fresh: true };
}

/** A 401 answer (an `ApiCallError`, possibly from the early script's own copy of the class). */
function unauthorized(e: unknown): boolean {
  return (e instanceof ApiCallError || (e instanceof Error && "status" in e)) && (e as ApiCallError).status === 401;
}

export function App({ portal, api, workerUrl, lintRuleset, early }: AppProps) {
  const [token, setToken] = useState(storedToken(portal));
  // The early request, usable once and only for the token it was made with.
  const pending = useRef(early && early.api === api ? early : undefined);
  // Its first part already arrived: the editor opens on it in this very render (it replaces the early view).
  const [phase, setPhase] = useState<Phase>(() => (!token ? { kind: "signin" } : pending.current?.token === token && pending.current.settled ? editing(pending.current.settled.value, pending.current.scroll) : { kind: "loading" }));

  const signOut = (error?: string) => {
    storeToken(portal, undefined);
    setToken(undefined);
    setPhase({ kind: "signin", error });
  };

  useEffect(() => {
    if (!token) return;
    const client = new ApiClient(token);
    let cancelled = false;
    const early = pending.current?.token === token ? pending.current : undefined;
    pending.current = undefined;
    const load = async () => {
      if (!api) return setPhase({ kind: "pick", apis: await client.listApis() });
      // Already editing on the early request's first part (an effect runs after that frame): read the rest now.
      if (early?.settled) return early.beginRest();
      // The definition streams in: the Source view shows its first part while the rest arrives.
      const stream = await (early ? early.stream : client.streamDefinition(api, FIRST_CHARS));
      if (cancelled) return;
      setPhase(editing(stream));
      // The early request reads the rest once asked (after the next frame, which shows the first part).
      early?.beginRest();
    };
    load().catch((e: unknown) => {
      if (cancelled) return;
      if (unauthorized(e)) signOut("That token was not accepted for this portal.");
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
      return <EditorShell portal={portal} api={api!} token={token!} initialText={phase.text} rest={phase.rest} initialScroll={phase.scroll} fresh={phase.fresh} workerUrl={workerUrl} lintRuleset={lintRuleset} onSignOut={() => signOut()} />;
  }
}
