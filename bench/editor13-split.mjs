import { readFileSync } from "node:fs";
import { chromium } from "playwright-core";
import { startEditorHarness } from "./editor-harness.mjs";
const text = JSON.stringify(JSON.parse(readFileSync(new URL("../../shared/corpus/apis-guru-npm/api/digitalocean.com.json", import.meta.url), "utf8")), null, 2);
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
for (const view of ["visual", "split"]) {
const harness = await startEditorHarness({ definition: text });
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
await page.addInitScript(([t, v]) => { sessionStorage.setItem("portico:token:bench", t); localStorage.setItem("portico:editor:view", v); }, [harness.token, view]);
await page.goto(harness.editorUrl);
await page.waitForSelector(".ed-nav-item", { timeout: 300000 });
console.log(view, await page.evaluate(() => ({ rows: document.querySelectorAll(".ed-nav-row").length, hs: [".ed-app", ".ed-main", ".ed-visual", ".ed-visual-inner", ".ed-nav-col", ".ed-nav", ".ed-nav-scroll", ".ed-form"].map((s) => s + ":" + document.querySelector(s)?.clientHeight) })));
await page.close(); await harness.close();
}
await browser.close();
