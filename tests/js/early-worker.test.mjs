// node --test: a page's first worker, started early (web/workers/early.mjs, rpc.mjs's
// startEarly) and taken over by the page's modules: the events it sent before the page
// connected are handed on, in order; it is handed over once; other workers are new ones.
import { test } from "node:test";
import assert from "node:assert/strict";

const made = [];
globalThis.Worker = class extends EventTarget {
  constructor(url, options) {
    super();
    this.url = String(url);
    this.options = options;
    this.posted = [];
    made.push(this);
  }
  postMessage(message) {
    this.posted.push(message);
  }
  send(data) {
    this.dispatchEvent(Object.assign(new Event("message"), { data }));
  }
};

const { connect, startEarly, startWorker } = await import("../../web/workers/rpc.mjs");

test("the early worker's events before connect reach the page in order, then it is a worker like any", async () => {
  startEarly();
  startEarly(); // once a page
  assert.equal(made.length, 1);
  const early = made[0];
  assert.match(early.url, /workers\/worker\.mjs$/);
  assert.deepEqual(early.options, { type: "module", name: "pywall" });
  early.send({ id: null, type: "progress", payload: { stage: "runtime" } });
  early.send({ id: null, type: "ready", payload: { python: "3" } });
  early.dispatchEvent(Object.assign(new Event("error"), { message: "late" }));

  const worker = startWorker(0);
  assert.equal(worker, early);
  const events = [];
  const rpc = connect(worker, { onEvent: (type, payload) => events.push([type, payload]) });
  assert.deepEqual(events, [
    ["progress", { stage: "runtime" }],
    ["ready", { python: "3" }],
    ["fatal", { code: "worker_failed", message: "late" }],
  ]);
  const answer = rpc.request("info", {});
  const { id } = early.posted[0];
  early.send({ id, type: "result", payload: { ok: 1 } });
  assert.deepEqual(await answer, { ok: 1 });
  early.send({ id: null, type: "progress", payload: { stage: "later" } });
  assert.deepEqual(events.at(-1), ["progress", { stage: "later" }]);
  assert.equal(events.length, 4); // the holding listener is gone: nothing twice
});

test("the early worker is handed over once; the others and a second first one are new", () => {
  const before = made.length;
  const first = startWorker(0);
  const second = startWorker(1);
  assert.equal(made.length, before + 2);
  assert.deepEqual([first.options.name, second.options.name], ["pywall", "pywall-1"]);
});

test("once the page has its first worker, a late early.mjs starts none", () => {
  const before = made.length;
  startEarly();
  assert.equal(made.length, before);
});
