// Per query kind and per target kind, from a dev-set harness dump (`--dump DIR`: one <engine>.jsonl per engine),
// for every kind the queries have (the harness's own table knows only the first dev set's five).
// Cells: success@1 / success@5 in %.   node bench/search/kinds-table.mjs DIR
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Prints the table for the dumps in `dir`. */
export function kindsTable(dir) {
  const engines = readdirSync(dir).filter((f) => f.endsWith(".jsonl")).map((f) => [f.replace(/\.jsonl$/, ""), readFileSync(join(dir, f), "utf8").trim().split("\n").map((l) => JSON.parse(l))]);
  const rows0 = engines[0]?.[1] ?? [];
  const groups = [["overall", () => true], ...[...new Set(rows0.map((r) => r.kind))].map((k) => [k, (r) => r.kind === k]), ...[...new Set(rows0.map((r) => r.targetKind))].map((k) => [`target ${k}`, (r) => r.targetKind === k])];
  const cell = (rows) => `${((100 * rows.filter((r) => r.rank === 1).length) / rows.length).toFixed(1)} / ${((100 * rows.filter((r) => r.rank && r.rank <= 5).length) / rows.length).toFixed(1)}`;
  console.log(`| engine | ${groups.map(([g, f]) => `${g} (${rows0.filter(f).length})`).join(" | ")} |`);
  console.log(`|---|${groups.map(() => "---|").join("")}`);
  for (const [name, rows] of engines) console.log(`| ${name} | ${groups.map(([, f]) => cell(rows.filter(f))).join(" | ")} |`);
}

if (import.meta.url === `file://${process.argv[1]}`) kindsTable(process.argv[2]);
