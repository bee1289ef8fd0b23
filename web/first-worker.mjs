// The page's first Python worker, started when this module is first imported.
// index.html loads it on its own (async), ahead of app.js, whose ~45 modules take a
// few hundred milliseconds to arrive: Python's start-up (the runtime and the snapshot
// fetched and unpacked, the interpreter restored) runs meanwhile. The pool (pool.mjs)
// takes the worker once, with the events it sent before anyone listened.

import { startWorker } from "./rpc.mjs";

const worker = startWorker(0);
const missed = [];
const keep = (event) => missed.push(event);
worker.addEventListener("message", keep);
worker.addEventListener("error", keep);
let taken = false;

// The first worker (null after the first call): its events so far are sent again to the
// listeners `attach` adds, in the order they came.
export function takeFirstWorker(attach) {
  if (taken) return null;
  taken = true;
  worker.removeEventListener("message", keep);
  worker.removeEventListener("error", keep);
  attach(worker);
  for (const event of missed) {
    worker.dispatchEvent(event.type === "message" ? new MessageEvent("message", { data: event.data })
      : new ErrorEvent("error", { message: event.message }));
  }
  return worker;
}
