// node --test: a 2009-style game's note gives the dates real logs of its seed format carry
// (SOURCES.md, legacy formats; issue 43): the eight-word format named "june-2009" in the
// JSON is on real logs from September 2008 to June 2009, the "late-2009" one up to
// February 2010. The JSON's era names stay; the words never show them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setLanguage } from "../../web/words/i18n.mjs";
import { findingText } from "../../web/verdict/findings.mjs";

const note = (era, unseen = []) => ({
  code: "legacy_seed", severity: "info", round: null, message: "",
  data: { era, seen: ["deal"], unseen },
});

const DATES = {
  en: { "june-2009": "September 2008 to June 2009", "july-2009": "July 2009", "late-2009": "July 2009 to February 2010" },
  ja: { "june-2009": "2008 年 9 月〜2009 年 6 月", "july-2009": "2009 年 7 月", "late-2009": "2009 年 7 月〜2010 年 2 月" },
  zh: { "june-2009": "2008 年 9 月至 2009 年 6 月", "july-2009": "2009 年 7 月", "late-2009": "2009 年 7 月至 2010 年 2 月" },
};

test("each era's note gives the dates of real logs, never the JSON's name", () => {
  for (const [lang, eras] of Object.entries(DATES)) {
    setLanguage(lang);
    for (const [era, dates] of Object.entries(eras)) {
      for (const unseen of [[], ["ura"]]) {
        const text = findingText(note(era, unseen), { rounds: [] });
        assert.ok(text.includes(dates), `${lang} ${era}: ${text}`);
        assert.ok(!text.includes(era), `${lang} ${era}: ${text}`);
      }
    }
  }
  setLanguage("en");
  assert.match(findingText(note("june-2009"), { rounds: [] }), /^walls of September 2008 to June 2009: /);
});
