/**
 * @module A portal's lint configuration: a Spectral-compatible ruleset (the `lint:` section of portico.yaml),
 * parsed and validated here and applied by the engine (lint-document.ts, session.ts) the same way for uploads and
 * the editor. What Spectral's `.spectral.yaml` means, for the rules Portico runs:
 * - `extends: spectral:oas` (or `[spectral:oas]`, `[[spectral:oas, recommended | all | off]]`): the base.
 *   `recommended` keeps each rule's default; `all` enables every rule (off-by-default ones as warnings); `off`
 *   disables every rule not listed. No other ruleset can be extended: Portico fetches nothing and runs only
 *   the spectral:oas rules (and its own `pattern-not-checked`).
 * - `rules: {<id>: off | hint | info | warn | error}` (also Spectral's `true`/`false`, `-1`..`3`): severities.
 * - `overrides: [{files: [glob, "glob#/json/pointer/glob"], rules}]`: severities for some files or parts of a
 *   definition; a pointer glob covers the nodes below it too; later overrides win.
 * @see https://docs.stoplight.io/docs/spectral/e5b9616d6d50c-rulesets (rulesets, extends, overrides)
 */

import { RULES, RULES_BY_ID } from "./registry";
import type { JsonPath, LintProblem, LintRuleset, RuleSetting } from "./types";
import { testPattern } from "./util/linear-pattern";

// The shape lives with the engine's other public shapes (types.ts, which the rules import); the engine's options
// name it, so defining it here made types.ts import this module, and through the registry every rule.
export type { LintRuleset } from "./types";

/** One thing wrong with a ruleset: where (`lint.rules.foo`) and what. */
export interface RulesetProblem {
  at: string;
  message: string;
}

/** Bounds on a ruleset (portal owners write it, but it is still input): entries, globs and their length. */
export const RULESET_LIMITS = { maxOverrides: 100, maxFilesPerOverride: 50, maxGlobLength: 500 } as const;

const SEVERITY_WORDS: Record<string, RuleSetting> = { off: "off", hint: "hint", info: "info", information: "info", warn: "warning", warning: "warning", error: "error" };
const SEVERITY_NUMBERS: Record<string, RuleSetting> = { "-1": "off", "0": "error", "1": "warning", "2": "info", "3": "hint" };
const RULE_WORDS = "off, hint, info, warn or error";

/** Parses a ruleset (the `lint:` value of portico.yaml, or a `.spectral.yaml` read as data). */
export function parseRuleset(value: unknown, at = "lint"): { ok: true; ruleset: LintRuleset } | { ok: false; problems: RulesetProblem[] } {
  const problems: RulesetProblem[] = [];
  const ruleset: LintRuleset = { extends: "recommended", rules: {}, overrides: [] };
  if (!isPlainObject(value)) return { ok: false, problems: [{ at, message: "must be a mapping with `extends`, `rules` and/or `overrides`" }] };
  for (const key of Object.keys(value)) {
    if (!["extends", "rules", "overrides"].includes(key)) problems.push({ at: `${at}.${key}`, message: "is not a ruleset field Portico reads (extends, rules, overrides)" });
  }
  if (value.extends !== undefined) {
    const base = parseExtends(value.extends);
    if (typeof base === "string") ruleset.extends = base;
    else problems.push({ at: `${at}.extends`, message: base.message });
  }
  if (value.rules !== undefined) ruleset.rules = parseRules(value.rules, `${at}.rules`, problems);
  if (value.overrides !== undefined) {
    if (!Array.isArray(value.overrides) || value.overrides.length > RULESET_LIMITS.maxOverrides) {
      problems.push({ at: `${at}.overrides`, message: `must be a list of at most ${RULESET_LIMITS.maxOverrides} \`{files, rules}\`` });
    } else {
      value.overrides.forEach((o, i) => {
        const where = `${at}.overrides[${i}]`;
        if (!isPlainObject(o) || !Array.isArray(o.files) || o.files.length === 0 || o.files.length > RULESET_LIMITS.maxFilesPerOverride) {
          problems.push({ at: where, message: `must be \`{files: [glob, …], rules: {…}}\` with 1 to ${RULESET_LIMITS.maxFilesPerOverride} globs` });
          return;
        }
        const extra = Object.keys(o).filter((k) => k !== "files" && k !== "rules");
        if (extra.length) problems.push({ at: where, message: `${extra.join(", ")}: only \`files\` and \`rules\` are read in an override` });
        const files: string[] = [];
        o.files.forEach((f, j) => {
          if (typeof f !== "string" || f.length === 0 || f.length > RULESET_LIMITS.maxGlobLength) problems.push({ at: `${where}.files[${j}]`, message: `must be a glob of 1 to ${RULESET_LIMITS.maxGlobLength} characters` });
          else files.push(f);
        });
        ruleset.overrides.push({ files, rules: parseRules(o.rules ?? {}, `${where}.rules`, problems) });
      });
    }
  }
  return problems.length ? { ok: false, problems } : { ok: true, ruleset };
}

function parseExtends(value: unknown): LintRuleset["extends"] | { message: string } {
  const wrong = { message: "Portico runs the spectral:oas rules: `extends` must be `spectral:oas`, or `[[spectral:oas, recommended | all | off]]`" };
  const entries = Array.isArray(value) ? value : [value];
  if (entries.length !== 1) return wrong;
  const entry = entries[0];
  if (entry === "spectral:oas") return "recommended";
  if (Array.isArray(entry) && entry.length === 2 && entry[0] === "spectral:oas" && (entry[1] === "recommended" || entry[1] === "all" || entry[1] === "off")) return entry[1];
  return wrong;
}

function parseRules(value: unknown, at: string, problems: RulesetProblem[]): Record<string, RuleSetting> {
  const out: Record<string, RuleSetting> = {};
  if (!isPlainObject(value)) {
    problems.push({ at, message: `must map rule names to ${RULE_WORDS}` });
    return out;
  }
  for (const [id, raw] of Object.entries(value)) {
    const rule = RULES_BY_ID.get(id);
    if (!rule) {
      problems.push({ at: `${at}.${id}`, message: `unknown rule "${id}" (Portico runs the spectral:oas rules; custom rules are not supported)` });
      continue;
    }
    let setting: RuleSetting | undefined;
    if (typeof raw === "string") setting = SEVERITY_WORDS[raw];
    else if (typeof raw === "number") setting = SEVERITY_NUMBERS[String(raw)];
    else if (raw === true) setting = rule.severity === "off" ? "warning" : rule.severity;
    else if (raw === false) setting = "off";
    if (setting === undefined) {
      const custom = isPlainObject(raw) ? " (a rule definition with given/then is a custom rule, which Portico does not run)" : "";
      problems.push({ at: `${at}.${id}`, message: `must be ${RULE_WORDS}${custom}` });
      continue;
    }
    out[id] = setting;
  }
  return out;
}

/** The base severity of every rule under `ruleset` (before overrides): what the engine plans with. */
export function baseSettings(ruleset: LintRuleset): Record<string, RuleSetting> {
  const out: Record<string, RuleSetting> = {};
  for (const rule of RULES) {
    if (ruleset.extends === "off") out[rule.id] = "off";
    else if (ruleset.extends === "all") out[rule.id] = rule.severity === "off" ? "warning" : rule.severity;
  }
  return { ...out, ...ruleset.rules };
}

/** An override compiled for one file: does it cover a problem's path, and what it sets. */
interface BoundOverride {
  pointers: (string | true)[];
  rules: Record<string, RuleSetting>;
}

/**
 * The engine's settings for one file under `ruleset`: the rules to plan (a rule that is off but enabled by an
 * override runs, and its problems outside the override are dropped) and a function placing each problem's
 * final severity (undefined: dropped). `file` is the root file's path in an archive; for a single uploaded
 * file (undefined) every file glob matches.
 */
export function bindRuleset(ruleset: LintRuleset, file?: string): { plan: Record<string, RuleSetting>; settle: (p: LintProblem) => LintProblem | undefined } {
  const base = baseSettings(ruleset);
  const overrides: BoundOverride[] = [];
  for (const o of ruleset.overrides) {
    const pointers: (string | true)[] = [];
    for (const glob of o.files) {
      const hash = glob.indexOf("#");
      const filePart = hash === -1 ? glob : glob.slice(0, hash);
      if (file !== undefined && filePart !== "" && !globMatches(filePart, file, false)) continue;
      pointers.push(hash === -1 ? true : glob.slice(hash + 1));
    }
    if (pointers.length) overrides.push({ pointers, rules: o.rules });
  }
  const plan = { ...base };
  // Rules off at the base but enabled by an override run, and answer only where an override enables them.
  const onlyInOverrides = new Set<string>();
  for (const o of overrides) {
    for (const [id, setting] of Object.entries(o.rules)) {
      if (setting !== "off" && (plan[id] ?? RULES_BY_ID.get(id)?.severity) === "off") {
        plan[id] = setting;
        onlyInOverrides.add(id);
      }
    }
  }
  if (overrides.length === 0) return { plan, settle: (p) => p };
  return {
    plan,
    settle(problem) {
      let setting: RuleSetting | undefined;
      let pointer: string | undefined;
      for (const o of overrides) {
        const s = o.rules[problem.rule];
        if (s === undefined) continue;
        pointer ??= toPointer(problem.path);
        if (o.pointers.some((p) => p === true || globMatches(p, pointer as string, true))) setting = s;
      }
      // No override covers it: as planned (Portico's own kinds, parser or invalid-ref, have no entry either).
      if (setting === undefined) return onlyInOverrides.has(problem.rule) ? undefined : problem;
      if (setting === "off") return undefined;
      return setting === problem.severity ? problem : { ...problem, severity: setting };
    },
  };
}

/** `a/b~c` → `/a~1b~0c`, RFC 6901. */
function toPointer(path: JsonPath): string {
  return path.map((s) => "/" + String(s).replace(/~/g, "~0").replace(/\//g, "~1")).join("");
}

/**
 * Whether `glob` (`**` any characters, `*` any but `/`, `?` one but `/`) matches `input`; with `descendants`,
 * also any input below a match (`/paths/~1pets` covers `/paths/~1pets/get`). Matched on the linear-time engine:
 * the glob is a portal owner's text.
 */
function globMatches(glob: string, input: string, descendants: boolean): boolean {
  let source = "^";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*" && glob[i + 1] === "*") {
      source += ".*";
      i++;
    } else if (c === "*") source += "[^/]*";
    else if (c === "?") source += "[^/]";
    else source += c.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
  }
  source += descendants ? "(?:/.*)?$" : "$";
  return testPattern(source, input) === true;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
