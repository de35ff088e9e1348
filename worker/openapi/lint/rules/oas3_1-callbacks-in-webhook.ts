/** @module oas3_1-callbacks-in-webhook: webhook operations do not define callbacks. */

import { defineDocumentRule, OAS3_1_UP } from "../define";
import { isObject } from "../util/is-object";

const MESSAGE = "Callbacks should not be defined in a webhook.";

export const oas31CallbacksInWebhook = defineDocumentRule({
  id: "oas3_1-callbacks-in-webhook",
  scope: "document",
  severity: "warning",
  description: MESSAGE,
  formats: OAS3_1_UP,
  create: () => ({
    Root: {
      enter(root, ctx) {
        const webhooks = ctx.resolveAt(root.webhooks, ["webhooks"]);
        if (!isObject(webhooks.value)) return;
        for (const name of Object.keys(webhooks.value)) {
          const webhook = ctx.resolveAt(webhooks.value[name], [...webhooks.path, name]);
          if (!isObject(webhook.value)) continue;
          for (const field of Object.keys(webhook.value)) {
            const inner = ctx.resolveAt(webhook.value[field], [...webhook.path, field]);
            if (isObject(inner.value) && inner.value.callbacks !== undefined) ctx.report(MESSAGE, [...inner.path, "callbacks"]);
          }
        }
      },
    },
  }),
});
