/**
 * @module Budgets: the limits every recursive or generative step of the core runs within. A definition is hostile
 * input (`minLength: 1e308`, 500 schemas each referencing 20 others, `^(a+)+$` with a crafted example), and these
 * steps run in the publisher and on reader pages, where one stalled call stalls the isolate. Each step that
 * reaches a budget stops there and says so with a visible note (see {@link BUDGET_NOTES}); none fails.
 * The numbers are generous for real definitions: of the corpus's operation pages (../shared/corpus, first 15 of each
 * definition: 3,813 pages) one shows a note (`minItems: 111`), and none of GitHub's 1,223.
 */

/**
 * The diff engine (openapi/diff): schema nodes compared per diff and changes kept. GitHub's REST description old vs
 * new visits well under a million pairs (shared schemas are compared once and their changes reused per operation);
 * a dense hostile graph stops here with a `diff-budget-reached` note instead of running for minutes.
 */
export const DIFF_BUDGET = {
  /** Schema node pairs compared plus changes copied from a nested schema to its parent (each $ref hop and allOf part counts). */
  maxVisits: 2_000_000,
  /** Changes kept; later ones are dropped and the result says so. */
  maxChanges: 50_000,
  /** allOf parts merged per schema. */
  maxAllOfParts: 200,
  /** $ref hops followed from one reference. */
  maxRefHops: 32,
  /** Nested schema pairs (properties, items, variants) compared below one body, parameter or response. */
  maxDepth: 64,
} as const;

/** Generated examples (schema-view/example.ts, used by pages, media examples and code samples). */
export const EXAMPLE_BUDGET = {
  /**
   * Longest generated string (characters), whatever `minLength` says: `minLength` up to this is met exactly, a longer
   * one marks the example truncated. Real definitions ask for up to 128 (AWS); 256 leaves room.
   */
  maxStringLength: 256,
  /** Most items of a generated array, whatever `minItems` says; a larger `minItems` marks the example truncated. */
  maxItems: 3,
  /** Schema nodes visited per example (a "same as above" node is followed, so a dense graph is cut here). */
  maxNodes: 5_000,
  /** Nesting of generated values (as deep as views go: open-banking schemas nest past 12). */
  maxDepth: 24,
  /** Approximate JSON size of one generated example (characters). */
  maxChars: 64_000,
} as const;

/**
 * HTML weight of an operation page (render/components/defer.ts): past this many estimated bytes of schema rows, a
 * collapsed schema body is not inlined but loads on expand from its fragment URL. GitHub's largest pages (large
 * oneOf payloads) were 153 KB; this keeps every one of its 1,223 pages under 60 KB with the page's other parts.
 */
export const PAGE_WEIGHT = {
  /** Estimated bytes of schema rows inlined on one page (or one fragment) before bodies defer. */
  inlineSchemaBytes: 12_000,
  /** Estimated bytes of one schema row before its description (name, type, badges, markup). */
  rowBytes: 200,
  /**
   * Characters of examples (request and response, as pretty-printed) inlined in a page's examples column. Past it,
   * an example longer than {@link PAGE_WEIGHT.examplePreviewChars} twice over shows its first lines and loads whole
   * from its fragment URL. GitHub's heaviest pages carry one 16 KB response example or two of 8 KB.
   */
  inlineExampleChars: 8_000,
  /** Lines of a deferred example shown as its preview (at most {@link PAGE_WEIGHT.examplePreviewChars} characters). */
  examplePreviewLines: 24,
  /** Characters of a deferred example's preview, whatever its lines. */
  examplePreviewChars: 1_200,
} as const;

/** Schema views (schema-view/build-view.ts): what one page shows of a schema graph. */
export const VIEW_BUDGET = {
  /** Nodes of one tree (one media type's schema, one parameter). */
  maxNodesPerTree: 3_000,
  /**
   * Nodes of all trees of one page together (every parameter, body, response and header of an operation). GitHub's
   * REST description needs at most ~830 rows on any of its 1,223 operation pages.
   */
  maxNodesPerPage: 3_000,
  /**
   * Nodes of the whole single-page layout (every operation's trees together; each operation also keeps its own
   * page budget). GitHub's REST description shows ~137,000 rows on its single page.
   */
  maxNodesPerSinglePage: 250_000,
  /** Nesting of a tree; deeper nodes are shown as "schema shown to depth N". */
  maxDepth: 24,
} as const;

/** allOf merging (schema-view/merge-all-of.ts). */
export const MERGE_BUDGET = {
  /** allOf parts merged into one schema (through nested allOf and `$ref`s); later parts are left out. */
  maxParts: 200,
} as const;

/** Regular expressions from a definition (`pattern`, `patternProperties`), run only on the linear-time matcher. */
export const PATTERN_BUDGET = {
  /** Longest pattern compiled (characters); longer ones are "pattern not checked: too long". */
  maxPatternLength: 2_000,
  /** Largest compiled program (RE2 instructions); larger ones are "pattern not checked: too complex". */
  maxProgramSize: 5_000,
  /** Longest string tested (characters); longer ones are not checked (RE2 is linear: this bounds each test). */
  maxInputLength: 65_536,
  /** Object keys of one example tested against patternProperties; an example with more is not checked. */
  maxStringsPerExample: 10_000,
  /**
   * Longest stand-in for one patternProperties pattern in one example (the alternation of the keys it matches,
   * which cfworker compiles once per object it validates); an example needing a longer one is not checked.
   */
  maxStandInChars: 4_096,
  /**
   * Characters the matcher reads in one lint run (every pattern × every string it is tested on); once spent, later
   * patterns pass unchecked. re2js reads roughly 5-50 characters per microsecond, so this bounds a run to ~2 s.
   */
  maxCharsPerLint: 20_000_000,
} as const;

/** The lint walk (lint/walk/fragments.ts). */
export const LINT_BUDGET = {
  /**
   * Edges followed in one run (into a unit or a `$ref` target per walk context, walked or reused); beyond that the
   * node rules stop with a `lint-budget` warning. GitHub's REST description (13 MB) follows about 17,500, no other
   * corpus definition more than 8,000; issue 14's dense graph about 126,000. The fuzzer's dense graph with an allOf
   * chain (case seed 408491112) reaches its ~450 schemas in ~120 contexts each: ~1,056,000 edges, 1.2 s of lint (Node)
   * here instead of ~3 s for the whole walk (and, before edges were interned, 14.8 s to reach 1,000,000).
   */
  maxEdges: 250_000,
  /**
   * Work units (work-budget.ts: one per object the node rules visit, plus what rules' own loops declare, e.g.
   * duplicated-entry-in-enum's comparisons) one upload's lint may spend, late or strict; once spent the report says
   * lint was stopped. In workerd the clock stands still during synchronous code, so units are what bounds it.
   * Corpus definitions spend at most ~460,000 (GitHub's 13 MB: 237,000, 2.8 s of lint in Node). Rule loops ran at
   * ~3.3 ns per unit in workerd (a pairwise enum check's 5·10⁹ comparisons in 16.5 s): about a second of them.
   */
  maxWork: 300_000_000,
} as const;

/**
 * Lint within the upload's request (issue 12: lint must not hold the live flip). A definition up to this size is
 * linted before the answer, while its KV writes are in flight, and the answer carries the report; a larger one
 * goes live as soon as its model is written, and its PortalPublisher lints it right after answering (the answer's
 * lint says "pending" with the report's URL). `?strict=true` always lints first.
 */
export const INLINE_LINT_BUDGET = {
  /**
   * Bytes of the uploaded body (an archive's compressed size). DigitalOcean's 1.07 MB definition lints in
   * ~0.2 s, so the answer to anything up to 2 MiB waits at most about half a second for lint; GitHub's 13 MB
   * description (1-5 s of lint) goes live first.
   */
  maxBytes: 2 * 1024 * 1024,
  /**
   * Work units (as LINT_BUDGET.maxWork) a lint within the request may spend; past them the upload answers
   * "pending" and the late lint makes the report. Bytes are no measure of lint's work: a 100,000-value enum
   * (889 KB) made 5·10⁹ comparisons, 16.5 s, within the request (issue 38). Every corpus definition up to 2 MiB
   * spends under 500,000 (DigitalOcean's 1 MB: 23,000), so they are linted within the request as before.
   */
  maxWork: 20_000_000,
} as const;

/** Markdown text rendered on a page (render/markdown.ts). */
export const TEXT_BUDGET = {
  /**
   * Characters of one description rendered as Markdown; the rest is cut with a note. Rendering costs ~1.2 ms per
   * KB of HTML-heavy text, so a 2.5 MB description (the long fuzz run's slowest page, 11.5 s) stays under a
   * quarter of a second.
   */
  maxMarkdownChars: 100_000,
  /** Characters of a one-line summary rendered inline (the rest is cut with an ellipsis). */
  maxInlineChars: 2_000,
} as const;

/** The wording of the notes readers and writers see when a budget is reached. */
export const BUDGET_NOTES = {
  exampleTruncated: "example truncated",
  schemaDepth: (depth: number) => `schema shown to depth ${depth}`,
  schemaBudget: "not expanded: this page already shows as much of the schema as its budget allows",
  allOfParts: (n: number) => `only the first ${n} allOf parts are merged`,
  fieldsNotShown: (n: number) => `${n} more ${n === 1 ? "field" : "fields"} not shown`,
  patternUnsupported: "pattern not checked: not supported by the linear-time matcher",
  patternTooComplex: "pattern not checked: too complex",
  patternTooLong: "pattern not checked: too long",
  descriptionTruncated: (chars: number) => `description truncated: ${chars} more characters not shown`,
  lintStopped: (edges: number) => `lint stopped: the definition has more than ${edges} schema references to follow; later parts are not checked`,
} as const;
