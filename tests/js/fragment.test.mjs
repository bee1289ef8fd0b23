// node --test: the URL fragment's seed (web/kit/fragment.mjs), read and written.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fragmentFor, looksLikeSeed, parseFragment } from "../../web/kit/fragment.mjs";

const SEED = "mt19937ar-sha512-n288-base64,lFhR9aq+/b0=";

test("a fragment written for a seed reads back as that seed, round and player count", () => {
  for (const [round, players] of [[1, 4], [7, 4], [12, 3]]) {
    assert.deepEqual(parseFragment(fragmentFor(SEED, round, players)), { seed: SEED, round, players });
  }
});

test("base64's + arriving as a space is read as +", () => {
  assert.equal(parseFragment("#tenhou=abc def&round=2").seed, "abc+def");
});

test("defaults, clamps and bad parts: round 1..64, players 3 or 4, a broken escape is skipped", () => {
  assert.deepEqual(parseFragment(""), { seed: null, round: 1, players: 4 });
  assert.deepEqual(parseFragment(null), { seed: null, round: 1, players: 4 });
  assert.equal(parseFragment("#round=0").round, 1);
  assert.equal(parseFragment("#round=9999").round, 64);
  assert.equal(parseFragment("#round=abc").round, 1);
  assert.equal(parseFragment("#players=5").players, 4);
  assert.equal(parseFragment("#tenhou=%E0%A4%A&round=3").seed, null);
  assert.equal(parseFragment("#tenhou=%E0%A4%A&round=3").round, 3);
  assert.equal(parseFragment("#noequals&tenhou=x").seed, "x");
});

test("a seed looks like a seed; a log, a link or short text does not", () => {
  assert.ok(looksLikeSeed(SEED + "A".repeat(40)));
  assert.ok(looksLikeSeed("mt19937ar," + "0123abcd,".repeat(7) + "0123abcd"));
  assert.ok(!looksLikeSeed("<mjloggm ver=\"2.3\"><SHUFFLE seed=\"x\"/>"));
  assert.ok(!looksLikeSeed("https://tenhou.net/0/?log=2022"));
  assert.ok(!looksLikeSeed("short"));
});
