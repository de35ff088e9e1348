/** @module What `portico lint` (scripts/portico.mjs) bundles: the one-off lint and the ruleset parser. */
export { lintDocument } from "./lint-document";
export { parseRuleset } from "./ruleset";
