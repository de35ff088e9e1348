// Lint parity: runs Spectral's CLI (spectral:oas, every rule enabled) and Portico's engine on 50 definitions
// of ../shared/corpus and prints, per rule, how many findings each reports and how many agree (same rule, same
// line). Agreement = matched / (Spectral + Portico − matched). Prints figures; asserts nothing.
// Usage: node bench/lint-parity.mjs [--verbose rule-id] [--json out.json]
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadLint, pickCorpus, ROOT } from "./lint-load.mjs";
import { parse as parseYaml } from "yaml";

const args = process.argv.slice(2);
const verbose = args.includes("--verbose") ? args[args.indexOf("--verbose") + 1] : undefined;
const jsonOut = args.includes("--json") ? args[args.indexOf("--json") + 1] : undefined;
// --count N: more (or fewer) files than the reported 50, for hunting differences.
const count = args.includes("--count") ? Number(args[args.indexOf("--count") + 1]) : 50;

export async function main() {
  const files = pickCorpus(count);
  const lint = await loadLint();
  const rules = Object.fromEntries(lint.RULES.map((r) => [r.id, r.severity === "off" ? "warning" : r.severity]));

  const dir = mkdtempSync(join(tmpdir(), "portico-parity-"));
  const ruleset = join(dir, ".spectral.yaml");
  writeFileSync(ruleset, 'extends: [["spectral:oas", "all"]]\n');
  const spectral = join(ROOT, "node_modules/.bin/spectral");
  const t0 = performance.now();
  let out;
  try {
    out = execFileSync(process.execPath, [spectral, "lint", "-r", ruleset, "-f", "json", "--quiet", ...files.map((f) => f.abs)], { maxBuffer: 1 << 28, encoding: "utf8" });
  } catch (e) {
    out = e.stdout; // exit code 1 when errors are found
  }
  const spectralMs = performance.now() - t0;
  const spectralResults = JSON.parse(out);

  const key = (file, rule) => `${file}\u0000${rule}`;
  const theirs = new Map();
  const other = new Map();
  for (const r of spectralResults) {
    const file = files.find((f) => f.abs === r.source);
    if (!file) continue;
    if (!lint.RULES_BY_ID.has(r.code)) other.set(r.code, (other.get(r.code) ?? 0) + 1);
    push(theirs, key(file.path, r.code), { line: r.range.start.line + 1, message: r.message, path: r.path.join("/"), segments: r.path.map(String) });
  }
  const ours = new Map();
  let oursMs = 0;
  for (const file of files) {
    const text = readFileSync(file.abs, "utf8");
    const t = performance.now();
    const result = lint.lintDocument(text, { rules });
    oursMs += performance.now() - t;
    for (const p of result.problems) push(ours, key(file.path, p.rule), { line: p.line, message: p.message, path: p.path.join("/"), segments: p.path.map(String) });
  }

  const perRule = new Map();
  const keys = new Set([...theirs.keys(), ...ours.keys()]);
  const diffs = [];
  const explainedBy = new Map();
  const docs = new Map();
  const dataOf = (file) => {
    if (!docs.has(file)) {
      const f = files.find((x) => x.path === file);
      const text = readFileSync(f.abs, "utf8");
      let data = null;
      try {
        data = /^\s*[{[]/.test(text) ? JSON.parse(text) : parseYaml(text, { merge: true });
      } catch {
        // an unparsable corpus file: no data-based explanation
      }
      docs.set(file, { family: f.family, lines: text.split("\n").length, data });
    }
    return docs.get(file);
  };
  for (const k of keys) {
    const [file, rule] = k.split("\u0000");
    const a = theirs.get(k) ?? [];
    const b = ours.get(k) ?? [];
    // Same line is agreement; pair findings with the same path first so that the leftovers are the real outliers.
    const left = [...b];
    let matched = 0;
    const pending = [];
    for (const x of a) {
      const i = left.findIndex((y) => y.line === x.line && y.path === x.path);
      if (i >= 0) {
        matched++;
        left.splice(i, 1);
      } else pending.push(x);
    }
    const missing = [];
    for (const x of pending) {
      const i = left.findIndex((y) => y.line === x.line);
      if (i >= 0) {
        matched++;
        left.splice(i, 1);
      } else missing.push(x);
    }
    const s = perRule.get(rule) ?? { spectral: 0, portico: 0, matched: 0, explained: 0 };
    s.spectral += a.length;
    s.portico += b.length;
    s.matched += matched;
    for (const [side, list] of [["spectral", missing], ["portico", left]]) {
      for (const x of list) {
        const why = explain(side, rule, x, dataOf(file), side === "spectral" ? a : b);
        if (!why) continue;
        s.explained++;
        explainedBy.set(why, (explainedBy.get(why) ?? 0) + 1);
      }
    }
    perRule.set(rule, s);
    if (verbose === rule || verbose === "all") diffs.push({ file, rule, onlySpectral: missing, onlyPortico: left });
  }

  console.log(`Lint parity on ${files.length} corpus definitions (${countOf(files, "2.0")} × 2.0, ${countOf(files, "3.0")} × 3.0, ${countOf(files, "3.1")} × 3.1, ${countOf(files, "3.2")} × 3.2)`);
  console.log(`Spectral CLI ${(spectralMs / 1000).toFixed(1)} s for all files (one process); Portico ${(oursMs / 1000).toFixed(2)} s`);
  console.log("");
  console.log(pad("rule", 40), pad("spectral", 9), pad("portico", 8), pad("same", 6), pad("agreement", 18), "differences explained in docs/lint.md");
  const rows = [];
  for (const r of lint.RULES) {
    const s = perRule.get(r.id) ?? { spectral: 0, portico: 0, matched: 0, explained: 0 };
    const union = s.spectral + s.portico - s.matched;
    const agreement = union === 0 ? null : s.matched / union;
    const unexplained = union === 0 ? null : (s.matched + s.explained) / union;
    rows.push({ rule: r.id, ...s, agreement });
    console.log(
      pad(r.id, 40),
      pad(s.spectral, 9),
      pad(s.portico, 8),
      pad(s.matched, 6),
      pad(agreement === null ? "n/a (none found)" : `${(agreement * 100).toFixed(1)} %`, 18),
      s.explained ? `${s.explained} (agreement otherwise ${(unexplained * 100).toFixed(1)} %)` : "",
    );
  }
  // Agreement is over the rules both sides have: Portico's own rules (pattern-not-checked) cannot agree with
  // Spectral by construction; they are listed, like Spectral's findings outside spectral:oas, not counted.
  // invalid-ref is Spectral's too (its resolver reports it, outside the ruleset).
  const { oas } = await import("@stoplight/spectral-rulesets");
  const spectralHas = (rule) => rule in oas.rules || rule === "invalid-ref";
  const shared = rows.filter((r) => spectralHas(r.rule));
  const own = rows.filter((r) => !spectralHas(r.rule) && r.portico > 0);
  const total = shared.reduce((t, r) => ({ spectral: t.spectral + r.spectral, portico: t.portico + r.portico, matched: t.matched + r.matched }), { spectral: 0, portico: 0, matched: 0 });
  console.log(pad("all spectral:oas rules", 40), pad(total.spectral, 9), pad(total.portico, 8), pad(total.matched, 6), `${((total.matched / (total.spectral + total.portico - total.matched)) * 100).toFixed(1)} %`);
  if (own.length) console.log(`Portico's own rules (not in spectral:oas, not counted): ${own.map((r) => `${r.rule} × ${r.portico}`).join(", ")}`);
  if (other.size) console.log(`Spectral findings outside spectral:oas: ${[...other].map(([c, n]) => `${c} × ${n}`).join(", ")}`);
  if (explainedBy.size) console.log(`Explained differences: ${[...explainedBy].map(([c, n]) => `${c} × ${n}`).join(", ")}`);
  for (const d of diffs) {
    if (!d.onlySpectral.length && !d.onlyPortico.length) continue;
    console.log(`\n${d.rule} in ${d.file}`);
    for (const x of d.onlySpectral) console.log(`  only Spectral  line ${x.line}  ${x.path}  ${x.message}`);
    for (const x of d.onlyPortico) console.log(`  only Portico   line ${x.line}  ${x.path}  ${x.message}`);
  }
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ files: files.map((f) => f.path), rows }, null, 2));
}

const EXAMPLE_RULES = new Set(["oas3-valid-media-example", "oas3-valid-schema-example", "oas2-valid-media-example", "oas2-valid-schema-example"]);

/** Which documented systematic difference (docs/lint.md) a finding seen by one side only falls under, if any. */
function explain(side, rule, x, doc, sameSide) {
  const path = x.segments;
  const decoded = (p) => p.map((s) => safeDecode(s)).join("/");
  if (side === "spectral" && sameSide.some((y) => y !== x && y.line === x.line && y.message === x.message && decoded(y.segments) === decoded(x.segments))) {
    return "Spectral reports one finding twice";
  }
  if (side === "portico" && doc.family === "3.2" && path[0] === "paths" && path[2] === "query") return "3.2 query operations";
  // A key failing `propertyNames` (component names, 3.2 header names): Spectral reports it at the map, twice
  // (the pattern, then "property name must be valid"), Portico once at the key (docs/lint.md, difference 11).
  if (rule === "oas3-schema" || rule === "oas2-schema") {
    const map = doc.data && path.reduce((n, k) => (n == null ? n : n[k]), doc.data);
    if (side === "portico" && /^Property name "/.test(x.message)) return "property names reported at the name";
    if (side === "spectral" && map && typeof map === "object" && /property name must be valid\.$|must match pattern/.test(x.message)) return "property names reported at the name";
  }
  if (side === "spectral" && doc.family === "3.2" && (rule === "oas3-examples-value-or-externalValue" || (rule === "oas3-valid-media-example" && /must exist$/.test(x.message)))) {
    return "3.2 dataValue/serializedValue examples";
  }
  if (side === "spectral" && EXAMPLE_RULES.has(rule) && /^no schema with key or ref|value must be \[|^strict mode|can't resolve reference|^schema is invalid/.test(x.message)) {
    return "Spectral reports schema compilation errors";
  }
  // Through some $refs (percent-encoded pointers, path-level parameters) Spectral loses the location: line 1 or
  // the enclosing `paths` object.
  if (side === "spectral" && ((x.line === 1 && doc.lines > 1 && path.length > 1) || (path.length === 1 && path[0] === "paths" && rule !== "path-params"))) {
    return "Spectral cannot map a location through a $ref";
  }
  if (side === "portico" && EXAMPLE_RULES.has(rule) && doc.data && recursiveSchemaAt(doc.data, path)) return "examples of recursive schemas";
  return undefined;
}

function safeDecode(s) {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Whether the schema governing the example at `path` reaches itself through $refs (Spectral skips those). */
function recursiveSchemaAt(data, path) {
  const get = (p) => p.reduce((n, k) => (n == null ? n : n[k]), data);
  const deref = (n) => {
    for (let i = 0; i < 20 && n && typeof n.$ref === "string" && n.$ref.startsWith("#/"); i++) {
      n = get(n.$ref.slice(2).split("/").map((s) => decodeURIComponent(s).replace(/~1/g, "/").replace(/~0/g, "~")));
    }
    return n;
  };
  for (let cut = path.length - 1; cut > 0; cut--) {
    const owner = get(path.slice(0, cut));
    if (!owner || typeof owner !== "object") continue;
    const schema = "schema" in owner && ["example", "examples"].includes(path[cut]) ? deref(owner.schema) : owner;
    if (!schema || typeof schema !== "object") continue;
    const onStack = new Set();
    const done = new Set();
    const cyclic = (node) => {
      node = deref(node);
      if (!node || typeof node !== "object") return false;
      if (onStack.has(node)) return true;
      if (done.has(node)) return false;
      onStack.add(node);
      const found = Object.entries(node).some(([k, v]) => !["example", "examples", "default", "enum"].includes(k) && cyclic(v));
      onStack.delete(node);
      done.add(node);
      return found;
    };
    return cyclic(schema);
  }
  return false;
}

function push(map, k, v) {
  const list = map.get(k);
  if (list) list.push(v);
  else map.set(k, [v]);
}
const countOf = (files, fam) => files.filter((f) => f.family === fam).length;
const pad = (v, n) => String(v).padEnd(n);

if (import.meta.url === `file://${process.argv[1]}`) await main();
