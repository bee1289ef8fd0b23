// Firefox for the engine tests (tests/engines/drivers.py), over WebDriver BiDi with
// puppeteer-core (pinned in web/package.json). One browser, one page; commands come as
// JSON lines on stdin, answers go as JSON lines on stdout:
//   {"op": "goto", "url"}                 -> {"ok": null}
//   {"op": "run", "body", "args"}         -> {"ok": value} (an async function's body)
//   {"op": "click", "selector"}           -> {"ok": null} (a person's click: it may open a window)
//   {"op": "last_page"}                   -> {"ok": count} (commands go to the newest page)
//   {"op": "close"}
// Any failure is {"error": message}.
//
//   node bidi_bridge.mjs FIREFOX_PATH [PREFS_JSON]   (preferences, e.g. a proxy)

import { createInterface } from "node:readline";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const web = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "web");
const puppeteer = createRequire(path.join(web, "package.json"))("puppeteer-core");

const browser = await puppeteer.launch({
  browser: "firefox",
  executablePath: process.argv[2],
  headless: true,
  protocol: "webDriverBiDi",
  extraPrefsFirefox: JSON.parse(process.argv[3] || "{}"),
});
let page = await browser.newPage();
const send = (answer) => process.stdout.write(JSON.stringify(answer) + "\n");
const ops = {
  async goto({ url }) {
    await page.goto(url, { waitUntil: "load", timeout: 120_000 });
    return null;
  },
  async run({ body, args }) {
    return page.evaluate(`(async (...args) => { ${body} })(...${JSON.stringify(args || [])})`);
  },
  async click({ selector }) {
    await page.click(selector);
    return null;
  },
  async last_page() {
    const pages = await browser.pages();
    page = pages[pages.length - 1];
    return pages.length;
  },
  async close() {
    await browser.close();
    process.exit(0);
  },
};
send({ ok: "ready" });
for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line);
  try {
    send({ ok: (await ops[command.op](command)) ?? null });
  } catch (err) {
    send({ error: String(err && err.message ? err.message : err) });
  }
}
await browser.close();
