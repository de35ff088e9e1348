/** @module oas3_2-no-deprecated-xml-attribute: 3.2 replaces `xml.attribute: true` with `xml.nodeType: attribute`. */

import { defineNodeRule } from "../define";
import { isObject } from "../util/is-object";

const MESSAGE = '"xml.attribute" is deprecated in OAS 3.2; use "xml.nodeType: attribute" instead.';

export const oas32NoDeprecatedXmlAttribute = defineNodeRule({
  id: "oas3_2-no-deprecated-xml-attribute",
  scope: "node",
  severity: "warning",
  description: MESSAGE,
  formats: ["3.2"],
  create: () => ({
    keys: ["xml"],
    object(node, ctx) {
      const xml = ctx.resolve(node.xml);
      if (isObject(xml) && xml.attribute === true) ctx.report(MESSAGE, ["xml"]);
    },
  }),
});
