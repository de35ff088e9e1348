/** @module What every Visual form reads: the session to write through, the model, problems by field pointer. */
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { EditorProblem, VisualModel } from "../protocol";
import type { EditorSession } from "../session";

export interface FormContextValue {
  session: EditorSession;
  model: VisualModel;
  /** Problems keyed by the field they belong to (see problemFieldPointer). */
  problemsByField: Map<string, EditorProblem[]>;
  /** Opens another outline entry (a `$ref` link, a new operation). */
  navigate: (pointer: string) => void;
  /** Split view: focusing a field moves the Source cursor to it. */
  followInSource: boolean;
  /** The pointer of the problem last selected: collapsed parts of a form open to show it. */
  revealPointer?: string;
}

export const FormContext = createContext<FormContextValue | null>(null);

export function useForm(): FormContextValue {
  const ctx = useContext(FormContext);
  if (!ctx) throw new Error("Visual form rendered outside FormContext");
  return ctx;
}
