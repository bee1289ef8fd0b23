// node --test: translatePage (web/words/i18n.mjs) writes only what changes: the page's
// HTML is already in English, and rewriting every text at start-up laid the page out again.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setLanguage, t, translatePage } from "../../web/words/i18n.mjs";

// A node with data-i18n (or a label or title key) that counts the writes it is given.
function fakeNode(dataset, text, label, title) {
  const node = { dataset, writes: 0, attributes: { "aria-label": label } };
  let content = text;
  let tip = title;
  Object.defineProperty(node, "textContent", { get: () => content, set: (v) => { content = v; node.writes++; } });
  Object.defineProperty(node, "title", { get: () => tip, set: (v) => { tip = v; node.writes++; } });
  node.getAttribute = (name) => node.attributes[name] ?? null;
  node.setAttribute = (name, value) => { node.attributes[name] = value; node.writes++; };
  return node;
}

function fakePage(nodes) {
  globalThis.document = { documentElement: {} };
  const select = { "[data-i18n]": "i18n", "[data-i18n-label]": "i18nLabel", "[data-i18n-title]": "i18nTitle" };
  return { querySelectorAll: (selector) => nodes.filter((n) => select[selector] in n.dataset) };
}

test("a text, label or title already in the page's language is not written again; another is", () => {
  setLanguage("en");
  const same = [
    fakeNode({ i18n: "title" }, t("title")),
    fakeNode({ i18nLabel: "language" }, "", t("language")),
    fakeNode({ i18nTitle: "tagline" }, "", null, t("tagline")),
  ];
  const stale = fakeNode({ i18n: "tagline" }, "old words");
  translatePage(fakePage([...same, stale]));
  assert.deepEqual(same.map((n) => n.writes), [0, 0, 0]);
  assert.equal(stale.writes, 1);
  assert.equal(stale.textContent, t("tagline"));
  setLanguage("ja");
  translatePage(fakePage(same));
  assert.deepEqual(same.map((n) => n.writes), [1, 1, 1]);
  assert.equal(same[0].textContent, t("title"));
  setLanguage("en");
});
