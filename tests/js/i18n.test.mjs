// node --test: the page's words (web/words/i18n.mjs and every *-i18n module): the three
// languages hold the same keys with the same {placeholders}, and the lookups.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  fragmentLanguage, number, pickLanguage, roundLabel, setLanguage, t, tableKeys, tn,
} from "../../web/words/i18n.mjs";
import "../../web/words/audit-i18n.mjs";
import "../../web/words/batch-i18n.mjs";
import "../../web/words/help-i18n.mjs";
import "../../web/words/game-list-i18n.mjs";
import "../../web/words/panels-i18n.mjs";
import "../../web/words/pool-i18n.mjs";
import "../../web/words/report-i18n.mjs";
import "../../web/verdict/finding-words.mjs";

// Keys whose English words come from Python, not from a table (pywall.audits.verdicts.EXPLANATION).
const ENGLISH_FROM_PYTHON = new Set(["audit.explanation"]);
const placeholders = (text) => [...String(text).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test("ja and zh hold every English key, and no key English lacks", () => {
  const en = new Set(tableKeys("en"));
  assert.ok(en.size > 300, `only ${en.size} English keys`);
  for (const lang of ["ja", "zh"]) {
    const keys = new Set(tableKeys(lang));
    // Plural forms: English has .one and .other, Japanese and Chinese only .other.
    const missing = [...en].filter((k) => !keys.has(k) && !k.endsWith(".one"));
    const extra = [...keys].filter((k) => !en.has(k) && !ENGLISH_FROM_PYTHON.has(k));
    assert.deepEqual(missing, [], `${lang} lacks these keys`);
    assert.deepEqual(extra, [], `${lang} has keys English lacks`);
  }
});

test("each translation uses the placeholders its English text uses", () => {
  for (const lang of ["ja", "zh"]) {
    const wrong = [];
    for (const key of tableKeys(lang)) {
      setLanguage("en");
      const want = placeholders(t(key));
      setLanguage(lang);
      // t() fills nothing without parameters, so the raw text's placeholders show.
      const got = placeholders(t(key));
      for (const name of got) if (!want.includes(name) && !key.endsWith(".other")) wrong.push(`${key}: {${name}}`);
    }
    setLanguage("en");
    assert.deepEqual(wrong, [], `${lang} uses placeholders English does not`);
  }
});

test("t fills parameters, keeps unknown placeholders, falls back to English, then to the key", () => {
  setLanguage("en");
  assert.equal(t("no.such.key"), "no.such.key");
  setLanguage("ja");
  assert.equal(t("no.such.key"), "no.such.key");
  setLanguage("en");
});

test("tn picks English's one and other; Japanese has only other", () => {
  const key = tableKeys("en").find((k) => k.endsWith(".one") && tableKeys("en").includes(k.replace(/one$/, "other")));
  assert.ok(key, "some key has plural forms");
  const base = key.replace(/\.one$/, "");
  setLanguage("en");
  assert.equal(tn(base, 1), t(`${base}.one`, { n: 1 }));
  assert.equal(tn(base, 2), t(`${base}.other`, { n: 2 }));
  setLanguage("ja");
  assert.equal(tn(base, 1), t(`${base}.other`, { n: 1 }));
  setLanguage("en");
});

test("the language: a stored choice, then the browser's, then English; the fragment's lang=", () => {
  assert.equal(pickLanguage("zh", ["ja-JP"]), "zh");
  assert.equal(pickLanguage("xx", ["ja-JP", "en"]), "ja");
  assert.equal(pickLanguage(null, ["fr-FR", "zh-Hans-CN"]), "zh");
  assert.equal(pickLanguage(null, ["fr"]), "en");
  assert.equal(pickLanguage(null, undefined), "en");
  assert.equal(setLanguage("xx"), "en");
  assert.equal(fragmentLanguage("#tenhou=abc&lang=ja"), "ja");
  assert.equal(fragmentLanguage("#lang=zh&round=2"), "zh");
  assert.equal(fragmentLanguage("#lang=fr"), null);
  assert.equal(fragmentLanguage("#xlang=ja"), null);
});

test("a round's label in the reader's language", () => {
  setLanguage("en");
  assert.equal(roundLabel("South 3, 2 honba"), "South 3, 2 honba");
  setLanguage("ja");
  const ja = roundLabel("South 3, 2 honba");
  assert.match(ja, /3局/);
  assert.ok(!ja.includes("South"));
  assert.equal(roundLabel("not a label"), "not a label");
  setLanguage("en");
});

test("numbers in the page's language: separators, at most or exactly so many decimals", () => {
  for (const lang of ["en", "ja", "zh"]) {
    setLanguage(lang);
    assert.equal(number(1937), "1,937", lang);
    assert.equal(number(4301.5), "4,302", `${lang}: whole by default`);
    assert.equal(number(4301.5, 1), "4,301.5", lang);
    assert.equal(number(38, 1), "38", `${lang}: at most one decimal`);
    assert.equal(number(38, 1, true), "38.0", `${lang}: exactly one decimal`);
    assert.equal(number("103630"), "103,630", `${lang}: a number given as text`);
    assert.match(tn("leftOut.duplicate", 1937), /1,937/, `${lang}: tn writes its count so`);
  }
  setLanguage("en");
});
