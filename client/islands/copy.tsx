/** @module Island `copy`: a button that copies a code block's text. */
import { useState } from "preact/hooks";
import { copyText } from "./copy-text";
import type { CopyProps } from "./types";

/** Copy button; hidden until scripts run (`.needs-js`). */
export default function CopyButton({ target, label = "Copy" }: CopyProps) {
  const [state, setState] = useState<"idle" | "done" | "failed">("idle");
  const onClick = async () => {
    const el = document.getElementById(target);
    const ok = el ? await copyText(el.textContent ?? "") : false;
    setState(ok ? "done" : "failed");
    setTimeout(() => setState("idle"), 1500);
  };
  return (
    <button type="button" class="cp needs-js" onClick={onClick} aria-live="polite">
      {state === "done" ? "Copied" : state === "failed" ? "Copy failed" : label}
    </button>
  );
}
