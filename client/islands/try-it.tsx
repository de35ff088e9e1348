/**
 * @module Island `try-it`: the Try-it panel of an operation. The server renders it closed (a button, so pages stay
 * light and hydration is cheap); opening it loads the panel's code (./try-it/panel.tsx) and the operation's spec.
 * After an OAuth authorization the panel that sent the reader away reopens by itself.
 */
import type { ComponentType } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { REOPEN_KEY } from "./try-it/oauth-keys";
import type { PanelProps } from "./try-it/panel";
import type { TryItProps } from "./types";

export default function TryIt(props: TryItProps) {
  const [open, setOpen] = useState(false);
  const [reopened, setReopened] = useState(false);
  const [Panel, setPanel] = useState<ComponentType<PanelProps> | undefined>(undefined);
  const [failed, setFailed] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  /** The reader opened or closed the panel (not the OAuth reopening): focus goes into it, then back to the button. */
  const byReader = useRef(false);
  const returnFocus = useRef(false);

  const show = (fromReader = false) => {
    byReader.current = fromReader;
    setOpen(true);
    setFailed(false);
    if (!Panel) import("./try-it/panel").then((m) => setPanel(() => m.default), () => setFailed(true));
  };
  useEffect(() => {
    let mark: string | null = null;
    try { mark = sessionStorage.getItem(REOPEN_KEY); } catch { /* storage off: stays closed */ }
    if (mark === props.spec) {
      try { sessionStorage.removeItem(REOPEN_KEY); } catch { /* already read */ }
      setReopened(true);
      show();
    }
  }, []);

  // Right after the DOM changes (not a frame later): keys pressed meanwhile must not land on <body>.
  useLayoutEffect(() => {
    if (!open && returnFocus.current) {
      returnFocus.current = false;
      opener.current?.focus();
    }
  }, [open]);
  const close = () => {
    returnFocus.current = true;
    setOpen(false);
  };

  if (open && Panel) return <Panel {...props} reopened={reopened} focusOnLoad={byReader.current} onClose={close} />;
  if (open) {
    return (
      <div class="try" role="group" aria-label="Try it">
        <p class={failed ? "try-err" : "fa"} role={failed ? "alert" : undefined}>{failed ? "Could not load the request form. Reload the page to try again." : "Loading…"}</p>
      </div>
    );
  }
  return (
    <div class="try needs-js" role="group" aria-label="Try it">
      <button type="button" class="try-open" ref={opener} onClick={() => show(true)}>Try it</button>
      <span class="fa"> Send this request from your browser, through the portal.</span>
    </div>
  );
}
