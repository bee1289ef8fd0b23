// node --test: the phrases issue 44 found wrong, in en, ja and zh: plurals of one
// ("Digest of 1 round: 1 states none.", "1 log per second"), p-values as relations
// ("p < 1e-6", never "p = < 1e-6"), a flagged verdict in plain words before any figure,
// one game headlined as too few, why games were not counted, and Riichi City's steps.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setLanguage, t, tableKeys, tn } from "../../web/words/i18n.mjs";
import "../../web/words/audit-i18n.mjs";
import "../../web/words/panels-i18n.mjs";
import "../../web/words/reading-i18n.mjs";
import "../../web/words/report-i18n.mjs";
import "../../web/words/records-i18n.mjs";
import { rateText } from "../../web/words/batch-i18n.mjs";
import { pIs } from "../../web/audit/audit-draws.mjs";

const LANGS = ["en", "ja", "zh"];

function inEach(check) {
  try {
    for (const lang of LANGS) {
      setLanguage(lang);
      check(lang);
    }
  } finally {
    setLanguage("en");
  }
}

test("a wall commitment's summary counts one round as one", () => {
  setLanguage("en");
  assert.equal(tn("stated.summary", 1, { counts: tn("stated.count.none", 1) }), "Digest of 1 round: 1 states none.");
  const counts = [tn("stated.count.match", 8), tn("stated.count.mismatch", 1)].join(", ");
  assert.equal(tn("stated.summary", 9, { counts }), "Digests of 9 rounds: 8 match, 1 does not match.");
  assert.equal(tn("stated.count.match", 1), "1 matches");
  assert.equal(tn("stated.count.unchecked", 1), "1 cannot be checked");
  const want = { ja: ["1 局のダイジェスト: 記載なし 1。"], zh: ["1 局的摘要：未给出 1。"] };
  inEach((lang) => {
    if (lang === "en") return;
    assert.deepEqual([tn("stated.summary", 1, { counts: tn("stated.count.none", 1) })], want[lang]);
  });
});

test("a rate of one log is one log per second; a slow rate keeps its tenth", () => {
  setLanguage("en");
  assert.equal(rateText(1), "1 log per second");
  assert.equal(rateText(1.04), "1 log per second");
  assert.equal(rateText(0.44), "0.4 logs per second");
  assert.equal(rateText(2.5), "2.5 logs per second");
  assert.equal(rateText(1234.4), "1,234 logs per second");
  inEach((lang) => {
    if (lang !== "en") assert.match(rateText(1), /^(毎秒 1 件|每秒 1 份)$/);
  });
});

test("a p-value reads as a relation: p < 1e-6, never p = < 1e-6", () => {
  assert.equal(pIs(1e-9), "p < 1e-6");
  assert.equal(pIs(0.0123456), "p = 0.0123");
  inEach((lang) => {
    for (const key of tableKeys(lang)) {
      const text = t(key);
      assert.ok(!text.includes("p = {p}"), `${lang} ${key}: "p = " before a p written with its relation`);
      assert.ok(!text.includes("p = <"), `${lang} ${key}`);
    }
    // every line that carries a p-value gets it with its relation
    for (const key of ["audit.read.mean", "audit.read.chi", "audit.read.dora", "walls.test"]) {
      const text = t(key, { p: pIs(1e-9), z: "+5.00", chi: "99", dof: "3", mean: "1", fair: "2", obs: "3", exp: "4",
        direction: "", chance: "", name: "x" });
      assert.ok(text.includes("p < 1e-6") && !text.includes("= p"), `${lang} ${key}: ${text}`);
    }
  });
});

test("a flagged verdict is plain words, with no figure before them", () => {
  inEach((lang) => {
    const flagged = t("audit.flagged");
    assert.ok(!/[{}]|p-value|p 値|p 值|\d/.test(flagged), `${lang}: ${flagged}`);
    assert.equal(flagged.toLowerCase(), t("audit.copy.bad").toLowerCase());
  });
});

test("one game is headlined as too few to tell, in words, first", () => {
  const starts = { en: "Too few games to tell", ja: "対局が少なすぎて判定できません", zh: "对局太少，无法判断" };
  inEach((lang) => {
    assert.ok(t("audit.tooFew").startsWith(starts[lang]), `${lang}: ${t("audit.tooFew")}`);
  });
});

test("the games not counted are said with why", () => {
  const why = () => [tn("leftOut.duplicate", 78), tn("leftOut.conflict", 1)].join(t("leftOut.sep"));
  const want = {
    en: "Not counted: 78 repeats, 1 game with conflicting copies.",
    ja: "数えていないもの：重複 78 件、コピーが食い違う対局 1 局。",
    zh: "未计入：",
  };
  inEach((lang) => {
    const text = t("audit.leftOutWhy", { why: why() });
    if (lang === "zh") assert.ok(text.startsWith(want.zh) && text.includes("78") && text.includes("1"), text);
    else assert.equal(text, want[lang]);
  });
});

test("Riichi City's steps are steps a player can follow, or say honestly what is missing", () => {
  const honest = { en: "Not yet possible without a tool", ja: "今はツールなしではできません", zh: "目前没有工具就无法做到" };
  inEach((lang) => {
    const step1 = t("records.riichicity.step1", { repo: "github.com/0num4/paifu-playground" });
    assert.ok(step1.startsWith(honest[lang]), `${lang}: ${step1}`);
    assert.ok(step1.includes("get-record-from-player.py") && step1.includes("github.com/0num4/paifu-playground"));
    for (const n of [1, 2, 3]) {
      const step = t(`records.riichicity.step${n}`);
      assert.ok(!/record API answers|記録 API が返すとおり|记录 API 返回的原样/.test(step), `${lang} step${n}: ${step}`);
    }
  });
});
