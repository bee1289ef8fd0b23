// node --test: the page's store (web/kit/store.mjs): slices read and changed, redraws called
// once a task for the keys they watch, unsubscribing, a person's action drawn at once.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createStore, store } from "../../web/kit/store.mjs";

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

function counting(s, keys) {
  const calls = [];
  const stop = s.subscribe(keys, (changed) => calls.push([...changed].sort()));
  return { calls, stop };
}

test("get reads a slice, set replaces it, update makes a new frozen object over the old fields", () => {
  const s = createStore({ language: "en", status: { ready: false, waiting: 0 } });
  assert.equal(s.get("language"), "en");
  s.set("language", "ja");
  assert.equal(s.get("language"), "ja");
  const before = s.get("status");
  s.update("status", { waiting: 2 });
  assert.deepEqual(s.get("status"), { ready: false, waiting: 2 });
  assert.deepEqual(before, { ready: false, waiting: 0 }, "the old object is not written");
  assert.ok(Object.isFrozen(s.get("status")));
  assert.throws(() => { "use strict"; s.get("status").waiting = 3; }, TypeError);
});

test("a name that is no slice is an error, not a new slice", () => {
  const s = createStore({ language: "en" });
  assert.throws(() => s.get("langauge"), /no slice named langauge/);
  assert.throws(() => s.set("langauge", "ja"), /no slice named/);
  assert.throws(() => s.update("batch", {}), /no slice named/);
  assert.throws(() => s.subscribe(["language", "batch"], () => {}), /no slice named batch/);
});

test("several updates in one task redraw a subscriber once, with the keys that changed", async () => {
  const s = createStore({ language: "en", batch: { done: 0 }, status: { ready: false } });
  const { calls } = counting(s, ["batch", "status"]);
  for (let n = 1; n <= 50; n++) s.update("batch", { done: n });
  s.update("status", { ready: true });
  assert.deepEqual(calls, [], "not drawn before the task ends");
  await tick();
  assert.deepEqual(calls, [["batch", "status"]]);
  assert.equal(s.get("batch").done, 50);
  s.update("batch", { done: 51 });
  await tick();
  assert.deepEqual(calls, [["batch", "status"], ["batch"]], "a later task draws again");
});

test("a redraw only for the keys it watches", async () => {
  const s = createStore({ language: "en", batch: { done: 0 }, status: { ready: false } });
  const language = counting(s, ["language"]);
  const batch = counting(s, ["batch"]);
  s.update("batch", { done: 1 });
  await tick();
  assert.deepEqual(language.calls, []);
  assert.deepEqual(batch.calls, [["batch"]]);
  s.set("language", "zh");
  await tick();
  assert.deepEqual(language.calls, [["language"]]);
  assert.deepEqual(batch.calls, [["batch"]]);
});

test("setting a value a slice already holds redraws nothing", async () => {
  const s = createStore({ language: "en", status: { ready: false, waiting: 0 } });
  const { calls } = counting(s, ["language", "status"]);
  s.set("language", "en");
  s.update("status", { ready: false });
  s.update("status", {});
  await tick();
  assert.deepEqual(calls, []);
});

test("an unsubscribed redraw is not called, the others still are", async () => {
  const s = createStore({ language: "en" });
  const a = counting(s, ["language"]);
  const b = counting(s, ["language"]);
  a.stop();
  s.set("language", "ja");
  await tick();
  assert.deepEqual(a.calls, []);
  assert.deepEqual(b.calls, [["language"]]);
});

test("a redraw unsubscribing another in the same pass stops it being called", async () => {
  const s = createStore({ language: "en" });
  let second = null;
  s.subscribe(["language"], () => second.stop());
  second = counting(s, ["language"]);
  s.set("language", "ja");
  await tick();
  assert.deepEqual(second.calls, []);
});

test("flush draws at once, and the task's end does not draw the same change again", async () => {
  const s = createStore({ table: { page: 0 } });
  const { calls } = counting(s, ["table"]);
  s.update("table", { page: 1 });
  s.flush();
  assert.deepEqual(calls, [["table"]]);
  await tick();
  assert.deepEqual(calls, [["table"]]);
});

test("redraws are called in the order they subscribed", async () => {
  const s = createStore({ language: "en" });
  const order = [];
  s.subscribe(["language"], () => order.push("first"));
  s.subscribe(["language"], () => order.push("second"));
  s.set("language", "ja");
  await tick();
  assert.deepEqual(order, ["first", "second"]);
});

test("a change a redraw makes is drawn in a next pass of the same flush; an endless one is an error", async () => {
  const s = createStore({ table: { page: 5 }, batch: { rows: 3 } });
  const { calls } = counting(s, ["table"]);
  // the table clamps its page to the rows there are (batch.mjs's showPage)
  s.subscribe(["batch"], () => s.update("table", { page: Math.min(s.get("table").page, s.get("batch").rows - 1) }));
  s.update("batch", { rows: 2 });
  s.flush();
  assert.equal(s.get("table").page, 1);
  assert.deepEqual(calls, [["table"]]);
  const loop = createStore({ n: { v: 0 } });
  loop.subscribe(["n"], () => loop.update("n", { v: loop.get("n").v + 1 }));
  loop.update("n", { v: 1 });
  assert.throws(() => loop.flush(), /redraws keep changing n/);
  await tick();
});

test("init gives a slice its starting value without a redraw", async () => {
  const s = createStore({ language: "en" });
  const { calls } = counting(s, ["language"]);
  s.init("language", "ja");
  await tick();
  assert.equal(s.get("language"), "ja");
  assert.deepEqual(calls, []);
});

test("the page's store holds the slices the page shares", () => {
  for (const key of ["language", "status", "pool", "batch", "table"]) assert.ok(store.get(key) !== undefined, key);
  assert.equal(store.get("language"), "en");
  assert.equal(store.get("status").ready, false);
  assert.deepEqual(store.get("batch").entries, []);
});
