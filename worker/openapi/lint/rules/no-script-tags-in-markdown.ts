/** @module no-script-tags-in-markdown: no `description` or `title`, anywhere, contains a `<script` tag. */

import { ALL_VERSIONS, defineNodeRule } from "../define";

const MESSAGE = 'Markdown descriptions must not have "<script>" tags.';

export const noScriptTagsInMarkdown = defineNodeRule({
  id: "no-script-tags-in-markdown",
  scope: "node",
  severity: "warning",
  description: MESSAGE,
  formats: ALL_VERSIONS,
  create: () => ({
    keys: ["description", "title"],
    object(node, ctx) {
      if (typeof node.description === "string" && node.description.includes("<script")) ctx.report(MESSAGE, ["description"]);
      if (typeof node.title === "string" && node.title.includes("<script")) ctx.report(MESSAGE, ["title"]);
    },
  }),
});
