/**
 * @module The contract between the engine and a rule: what a rule declares, the visitors it returns and the
 * contexts those visitors receive. A rule never walks the document itself and never throws a finding.
 */

import type { JsonPath, OasVersion, RuleSetting } from "./types";

/** A path segment as the walker hands it out. */
export type Segment = string | number;

/**
 * Facts about where the walker stands, derived from the node's *logical* path: the path in Spectral's resolved
 * document, which continues through `$ref`s (a schema reached from `content` is "under content").
 */
export const WalkFlag = {
  /** Strictly below a key named `content`. */
  Content: 1 << 0,
  /** Strictly below a key named `headers`. */
  Headers: 1 << 1,
  /** Strictly below a key named `parameters`. */
  Parameters: 1 << 2,
  /** Strictly below a key named `responses`. */
  Responses: 1 << 3,
  /** Strictly below a key named `definitions`. */
  Definitions: 1 << 4,
  /** Strictly below `$.components.schemas`. */
  ComponentSchemas: 1 << 5,
  /** Strictly below `$.paths[*][*]` (inside an operation or a path item's fields). */
  PathsOperation: 1 << 6,
  /** Inside a request body (`$.paths[*][*].requestBody`, `$.components.requestBodies`). */
  MediaRequest: 1 << 7,
  /** Inside a response (`$.paths[*][*].responses`, `$.components.responses`, 2.0 `$.responses`). */
  MediaResponse: 1 << 8,
} as const;

export type WalkFlag = (typeof WalkFlag)[keyof typeof WalkFlag];

/**
 * Key names a node rule may compare `keyAt` results with. Above the subtree being walked (past a `$ref`), the
 * walker only remembers whether an ancestor key is one of these (others read as `*`), so that a component
 * reached from many places is walked once per distinct context, not once per place.
 */
export const RELEVANT_KEYS: ReadonlySet<string> = new Set(["properties", "examples", "content", "parameters", "headers", "components"]);

/** What a node rule's visitor receives with each object of the walk. */
export interface NodeContext {
  readonly version: OasVersion;
  /** The document root. A session gives every edited version a new root, so it can key per-version caches. */
  readonly root: Record<string, unknown>;
  /** Source path of the node (a live view: copy it to keep it). Through a `$ref`, the path of the target. */
  readonly path: readonly Segment[];
  /** Depth of the node in the logical document (root = 0). Compare only with small numbers (≤ 7). */
  readonly depth: number;
  /** Key of the node (`up` = 0) or of an ancestor in the logical path; compare only with {@link RELEVANT_KEYS}. */
  keyAt(up: number): Segment | undefined;
  has(flag: WalkFlag): boolean;
  /** Follows local `$ref`s (chains included) as Spectral's resolver would; unresolvable refs come back as is. */
  resolve(value: unknown): unknown;
  /** {@link resolve}, plus the source path of what was reached (`path` itself when there was no `$ref`). */
  resolveAt(value: unknown, path: readonly Segment[]): { value: unknown; path: readonly Segment[] };
  /**
   * A cache private to this rule that lives as long as the lint session (one run for `lintDocument`). Key it by
   * subtree identity and revalidate anything that depends on `$ref` targets.
   */
  readonly store: WeakMap<object, unknown>;
  /** Reports at the node, or at `at` (segments relative to the node). */
  report(message: string, at?: readonly Segment[]): void;
  /** Reports at an absolute source path. */
  reportAt(message: string, path: readonly Segment[]): void;
  /**
   * Charges `units` of work the rule is about to do beyond visiting the node (elements compared, values scanned)
   * to the run's work budget; throws BudgetExceeded once it is spent, so call it before the loop, not after.
   */
  spend(units: number): void;
}

/** A node rule: called for every object of the walk (arrays are walked through, scalars are read from objects). */
export interface NodeVisitor {
  /** Only objects with at least one of these own keys interest the rule (the walker skips the others). */
  keys?: readonly string[];
  object(node: Record<string, unknown>, ctx: NodeContext): void;
}

/** What a document rule's hooks receive. */
export interface DocumentContext {
  readonly version: OasVersion;
  readonly root: Record<string, unknown>;
  /** Source path of the node the hook was called for. */
  readonly path: readonly Segment[];
  /** The key under which the node sits (the HTTP method for an operation, the path for a path item). */
  readonly key: Segment | undefined;
  resolve(value: unknown): unknown;
  resolveAt(value: unknown, path: readonly Segment[]): { value: unknown; path: readonly Segment[] };
  /** As {@link NodeContext.store}. */
  readonly store: WeakMap<object, unknown>;
  /** Every local `$ref` written in the document (as written: `#/components/schemas/Pet`). */
  referencedPointers(): ReadonlySet<string>;
  /** Reports at the current node, or at an absolute source path. */
  report(message: string, path?: readonly Segment[]): void;
}

type Hook<T> = (node: T, ctx: DocumentContext) => void;
type Obj = Record<string, unknown>;

/**
 * Typed hooks of a document rule, called on the OpenAPI skeleton (the node kinds Spectral's `spectral:oas`
 * aliases name), through `$ref`s. `Root.leave` runs last: cross-node rules report there.
 */
export interface DocumentVisitor {
  Root?: { enter?: Hook<Obj>; leave?: Hook<Obj> };
  /** `$.paths[*]`. */
  PathItem?: Hook<Obj>;
  /** `get put post delete options head patch trace` of a path item (and 3.2 `query`). */
  Operation?: Hook<Obj>;
  /** `$.paths[*].parameters[*]`, operation parameters and `$.components.parameters[*]`. */
  Parameter?: Hook<unknown>;
  /** `$.security[*]` and operation `security[*]`. */
  SecurityRequirement?: Hook<unknown>;
  /** Operation responses; 2.0 `$.responses[*]`; 3.x `$.components.responses[*]`. */
  Response?: Hook<Obj>;
  /** 3.x `$.components.links[*]` and response `links[*]`. */
  Link?: Hook<Obj>;
  /** 3.x `$.servers[*]`, path item and operation `servers[*]`, link `server`. */
  Server?: Hook<unknown>;
}

interface RuleBase {
  /** Spectral rule id (`operation-operationId`). */
  id: string;
  /** Default severity; `off` for rules Spectral's ruleset does not recommend. */
  severity: RuleSetting;
  /** A different default for some versions (where Spectral's default would flag valid documents). */
  severityFor?: Partial<Record<OasVersion, RuleSetting>>;
  /** One line, as Spectral's `description`. */
  description: string;
  /** OpenAPI versions the rule applies to. */
  formats: readonly OasVersion[];
}

/**
 * A rule checking objects one at a time. Results may depend only on the object's subtree, its walk context and
 * what `resolve` returned: the engine caches them per subtree.
 */
export interface NodeRule extends RuleBase {
  scope: "node";
  /** false: sees the source as written (`$ref` objects, never their targets). Default true. */
  resolved?: boolean;
  create(): NodeVisitor;
}

/** A rule over the OpenAPI skeleton; re-run on every lint, so it may keep state in its closure. */
export interface DocumentRule extends RuleBase {
  scope: "document";
  /**
   * true: what the hooks other than `Root` report inside a path item depends only on that path item (its key,
   * its subtree, what `ctx.resolve` reaches from it), the OpenAPI version, and the document's tags and security
   * schemes (`tags`, `components.securitySchemes`, 2.0 `securityDefinitions`), never on other path items. The
   * skeleton walk then keeps those problems per path item between a session's runs and skips the rule's hooks in
   * path items that did not change (walk/skeleton.ts). `Root` hooks run every time.
   */
  unit?: boolean;
  create(): DocumentVisitor;
}

export type LintRule = NodeRule | DocumentRule;

/** Where a rule's documentation lives (Spectral's reference for the rule, until Portico's docs page ships). */
export function ruleDocsUrl(id: string): string {
  return `https://docs.stoplight.io/docs/spectral/4dec24461f3af-open-api-rules#${id}`;
}

/** A finding before it is located: engine-internal. */
export interface RawProblem {
  rule: number;
  message: string;
  path: JsonPath;
}
