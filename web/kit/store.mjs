// The page's state in one store: each slice below is shared by the parts of the page
// that draw it, and each part subscribes to the slices it draws instead of being called
// by whoever changed them. Pure (no DOM): tests/js/store.test.mjs runs it under node.
//
// get(key) reads a slice; set(key, value) replaces it, update(key, changes) makes a new
// object of its fields with `changes` over them (a slice is frozen: never written in
// place); either marks the slice changed only when a value differs. subscribe(keys,
// redraw) calls redraw(changedKeys) once for all the changes to the keys it watches
// made in one task (in a microtask), so that a batch of answers arriving together is
// drawn once, not once per answer; flush() draws what changed now (a person's action,
// drawn before the event returns).

// The page's slices and their starting values.
const PAGE = {
  language: "en", // i18n.mjs: the code of the page's language
  status: { // session.mjs: Python's start-up, as the status line shows it
    ready: false,
    info: null, // versions, from the worker's ready
    stage: "status.loading",
    fraction: 0, // of the start-up's download
    error: null,
    errorCode: null, // the worker's code for it: old_browser and corrupt are worded there
    errorFile: null, // corrupt: the runtime file that came as another file
    waiting: 0, // requests sent before Python was ready
  },
  pool: { started: 0, ready: 0, busy: 0 }, // session.mjs: the workers' counts (pool.counts())
  batch: { // batch.mjs: every file given to the page, in order (files.mjs, archives.mjs)
    entries: [],
    started: null, // performance.now() of the batch's first request
    finished: null, // ... and of its latest answer
    workers: [], // the pool's workers that verified its logs
  },
  table: { page: 0, problemsOnly: false }, // batch.mjs: the summary table a person turns and filters
};

// Passes of redraws that change the store again before it gives up (a redraw that
// always changes what it watches would otherwise never end).
const MAX_PASSES = 50;

const frozen = (value) => (value && typeof value === "object" && !Array.isArray(value) && !(value instanceof Set)
  ? Object.freeze({ ...value }) : value);

export function createStore(initial, schedule = queueMicrotask) {
  const state = {};
  for (const [key, value] of Object.entries(initial)) state[key] = frozen(value);
  const dirty = new Set();
  const subscribers = new Set();
  let queued = false;
  let flushing = false;

  const known = (key) => {
    if (!Object.hasOwn(state, key)) throw new Error(`store: no slice named ${key}`);
    return key;
  };

  function changed(key) {
    dirty.add(key);
    if (queued) return;
    queued = true;
    schedule(flush);
  }

  function get(key) {
    return state[known(key)];
  }

  function set(key, value) {
    if (Object.is(state[known(key)], value)) return;
    state[key] = frozen(value);
    changed(key);
  }

  function update(key, changes) {
    const old = state[known(key)];
    if (!Object.keys(changes).some((name) => !Object.is(old[name], changes[name]))) return;
    state[key] = Object.freeze({ ...old, ...changes });
    changed(key);
  }

  // A slice's value at start-up, before anything is drawn: no redraw.
  function init(key, value) {
    state[known(key)] = frozen(value);
  }

  // redraw(changed: Set of the watched keys that changed); returns the unsubscribe.
  function subscribe(keys, redraw) {
    const entry = { keys: new Set(keys.map(known)), redraw };
    subscribers.add(entry);
    return () => subscribers.delete(entry);
  }

  function flush() {
    if (flushing) return; // a redraw's own changes are drawn by the pass after it
    flushing = true;
    try {
      for (let pass = 0; dirty.size; pass++) {
        if (pass === MAX_PASSES) throw new Error(`store: redraws keep changing ${[...dirty].join(", ")}`);
        const keys = new Set(dirty);
        dirty.clear();
        for (const entry of [...subscribers]) {
          if (!subscribers.has(entry)) continue; // unsubscribed by an earlier redraw of this pass
          const hit = new Set([...entry.keys].filter((key) => keys.has(key)));
          if (hit.size) entry.redraw(hit);
        }
      }
    } finally {
      flushing = false;
      queued = false;
      dirty.clear();
    }
  }

  return { get, set, update, init, subscribe, flush };
}

export const store = createStore(PAGE);
export const { get, set, update, init, subscribe, flush } = store;
