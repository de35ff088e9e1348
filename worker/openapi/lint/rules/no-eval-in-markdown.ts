/** @module no-eval-in-markdown: no `description` or `title`, anywhere, contains `eval(`. */

import { ALL_VERSIONS, defineNodeRule } from "../define";

const MESSAGE = 'Markdown descriptions must not have "eval(".';

export const noEvalInMarkdown = defineNodeRule({
  id: "no-eval-in-markdown",
  scope: "node",
  severity: "warning",
  description: MESSAGE,
  formats: ALL_VERSIONS,
  create: () => ({
    keys: ["description", "title"],
    object(node, ctx) {
      if (typeof node.description === "string" && node.description.includes("eval(")) ctx.report(MESSAGE, ["description"]);
      if (typeof node.title === "string" && node.title.includes("eval(")) ctx.report(MESSAGE, ["title"]);
    },
  }),
});
