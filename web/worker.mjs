// The module worker that runs Python. It loads Pyodide from this site, loads the
// pywall wheel (hash-checked through the site's pyodide-lock.json), and answers
// {id, type, payload} requests with `progress`, `result` or `error {code, message}`.
// Requests that arrive while Python is still loading wait their turn.

const here = (path) => new URL(path, import.meta.url).href;
const post = (type, payload, id = null) => self.postMessage({ id, type, payload });
const announce = (stage, fraction) => post("progress", { stage, fraction });

// The interpreter's memory right after start-up, made by build.py (see
// make_snapshot.mjs); null when it is missing.
async function fetchSnapshot() {
  try {
    const response = await fetch(here("./pyodide/python-snapshot.bin"));
    return response.ok ? new Uint8Array(await response.arrayBuffer()) : null;
  } catch {
    return null;
  }
}

async function startPython(options, snapshot) {
  const { loadPyodide } = await import("./pyodide/pyodide.mjs");
  const bytes = await snapshot;
  if (bytes) {
    try {
      return { pyodide: await loadPyodide({ ...options, _loadSnapshot: bytes }), snapshot: true };
    } catch (err) {
      console.warn("pywall: the start-up snapshot did not load; starting Python normally", err);
    }
  }
  return { pyodide: await loadPyodide(options), snapshot: false };
}

let python = null; // {pyodide}: its file system holds the archives being read

async function init() {
  const started = performance.now();
  const times = {};
  const lap = (name) => { times[name] = Math.round(performance.now() - started); };
  announce("runtime", 0.05);
  const { pyodide, snapshot } = python = await startPython({
    indexURL: here("./pyodide/"),
    stdout: (line) => console.log("[python]", line),
    stderr: (line) => console.warn("[python]", line),
  }, fetchSnapshot());
  lap("runtime");
  announce("package", 0.75);
  const problems = [];
  // loadPackage does not reject when a package fails: collect its errors instead.
  await pyodide.loadPackage("pywall", {
    checkIntegrity: true,
    messageCallback: () => {},
    errorCallback: (message) => problems.push(message),
  });
  if (problems.length || !pyodide.loadedPackages.pywall) {
    throw new Error(`pywall did not load: ${problems.join("; ") || "unknown reason"}`);
  }
  lap("package");
  announce("glue", 0.9);
  const response = await fetch(here("./worker_py.py"));
  if (!response.ok) throw new Error(`worker_py.py: HTTP ${response.status}`);
  pyodide.FS.writeFile("/home/pyodide/pywall_worker.py", await response.text());
  const glue = pyodide.pyimport("pywall_worker");
  const info = JSON.parse(glue.info());
  lap("glue");
  info.times = times; // start-up phases in ms, for benchmarks/bench_web.py
  info.snapshot = snapshot;
  post("ready", info);
  return glue;
}

const ready = init().catch((err) => {
  console.error(err);
  post("fatal", { code: "load_failed", message: String(err && err.message ? err.message : err) });
  throw err;
});
ready.catch(() => {});

// A JavaScript exception here is a bug in this file or in Pyodide (pywall.api answers
// every request, bad ones included, with a reply): say so in one line.
function internalError(err) {
  const text = String(err && err.message ? err.message : err);
  console.error(text);
  const lines = text.trim().split("\n");
  return { code: "internal", message: `pywall could not finish: ${lines[lines.length - 1]}` };
}

class ReplyError extends Error {
  constructor({ code, message }) {
    super(message);
    this.code = code;
  }
}

// pywall.api replies `{"error": {...}}` (compact JSON, so it starts with these bytes)
// or the result object: the one path every request takes.
const ERROR_PREFIX = '{"error":';

// No bytes: no third argument (a JS null would reach Python as JsNull, not None).
function call(glue, type, payload = {}, data = null) {
  const json = JSON.stringify(payload);
  return data == null ? glue.handle(type, json) : glue.handle(type, json, data);
}

// An error reply has the one key `error`; the audit's "no game" answer also says which
// games it left out ({error, games}), and goes to the page as a result.
function parsed(text) {
  const reply = JSON.parse(text);
  if (reply && reply.error && Object.keys(reply).length === 1) throw new ReplyError(reply.error);
  return reply;
}

// A reply kept as text for the page to parse (copying a string between threads is
// cheap; cloning the parsed reports, walls and all, was not).
function unparsed(text) {
  if (text.startsWith(ERROR_PREFIX)) parsed(text);
  return text;
}

async function bytesOf(payload) {
  if (payload.file) return new Uint8Array(await payload.file.arrayBuffer());
  if (payload.bytes) return new Uint8Array(payload.bytes);
  if (payload.text != null) return new TextEncoder().encode(payload.text);
  return null;
}

// How each request reaches Python: which fields go as JSON, which as bytes, and
// whether the reply is parsed here. Anything else goes through as it came.
const requests = {
  // A chosen or dropped file is sniffed first, in the same turn: an archive (zip,
  // SQLite) is answered {"archive": kind} for the page to start an archive run.
  async verify(glue, { file, bytes, text, ...payload }) {
    if (file) {
      const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
      const { kind } = parsed(call(glue, "sniff", {}, head));
      if (kind !== "record") return JSON.stringify({ archive: kind });
    }
    return unparsed(call(glue, "verify", payload, await bytesOf({ file, bytes, text })));
  },
  async sniff(glue, { file, bytes, ...payload }) {
    const head = file ? new Uint8Array(await file.slice(0, 16).arrayBuffer()) : await bytesOf({ bytes });
    return parsed(call(glue, "sniff", payload, head));
  },
  async info(glue) {
    return JSON.parse(glue.info());
  },
  // One game of an archive again, with its walls ({name: the archive's, file, index}).
  archive_game: archiveGame,
};

function plain(glue, type, payload) {
  return parsed(call(glue, type, payload));
}

// --- archives: zip files and phoenix-logs databases, a chunk at a time ---------------
// The chosen File is mounted read-only (WORKERFS: Python reads it lazily through
// FileReaderSync, so a 1 GB database is never copied into memory); where WORKERFS
// is missing its bytes are written to /tmp instead. Either goes when the run is closed.
// Each chunk of games is its own turn in the queue, so other requests (a dropped
// log, a panel) are answered between chunks, and a cancel is seen at the next one.
// Opening one game later mounts the File again and checks that game once more
// (the page keeps the File, a reference to the disk, not its bytes).

let uploads = 0;
const runs = new Map(); // run name -> {cancelled, finished, placed}
const CHUNK_MS = 250; // aim per chunk: progress several times a second
const CHUNK_MIN = 10;
const CHUNK_MAX = 200;

// WORKERFS reads the File with one FileReaderSync call per read, and SQLite
// reads a 4 KiB page at a time: most of the page's time went there. Small reads
// are served from a window of READ_AHEAD bytes read at once (one window per
// file, so memory stays flat); larger reads go straight to the File.
const READ_AHEAD = 1 << 20;

function readAhead(node) {
  const ops = node.stream_ops;
  let window = { start: 0, bytes: new Uint8Array(0) };
  const read = (stream, buffer, offset, length, position) => {
    if (length >= READ_AHEAD || position >= node.size) return ops.read(stream, buffer, offset, length, position);
    const end = Math.min(position + length, node.size);
    if (position < window.start || end > window.start + window.bytes.length) {
      const blob = node.contents.slice(position, Math.min(node.size, position + READ_AHEAD));
      window = { start: position, bytes: new Uint8Array(new FileReaderSync().readAsArrayBuffer(blob)) };
    }
    buffer.set(window.bytes.subarray(position - window.start, end - window.start), offset);
    return end - position;
  };
  node.stream_ops = { ...ops, read };
}

async function placeFile(file) {
  const FS = python.pyodide.FS;
  const dir = `/uploads/${++uploads}`;
  FS.mkdirTree(dir);
  if (FS.filesystems.WORKERFS && typeof FileReaderSync !== "undefined") {
    FS.mount(FS.filesystems.WORKERFS, { blobs: [{ name: "archive", data: file }] }, dir);
    readAhead(FS.lookupPath(`${dir}/archive`).node);
    return { path: `${dir}/archive`, release: () => { FS.unmount(dir); FS.rmdir(dir); } };
  }
  FS.writeFile(`${dir}/archive`, new Uint8Array(await file.arrayBuffer()));
  return { path: `${dir}/archive`, release: () => { FS.unlink(`${dir}/archive`); FS.rmdir(dir); } };
}

// A run stays open in Python after its last chunk (its audit tally is there, for the
// page's `audit` {runs}), and so does its File's mount: both go on `archive_close`
// from the page (it dropped the archive), or at once when a run is stopped or fails.
function closeRun(glue, run) {
  const state = runs.get(run);
  runs.delete(run);
  try {
    parsed(call(glue, "archive_close", { run }));
  } catch (err) {
    console.error(err);
  }
  if (state && state.placed) state.placed.release();
  return { closed: Boolean(state) };
}

async function archiveStart(glue, payload, id) {
  const run = String(payload.run);
  if (runs.has(run)) closeRun(glue, run);
  const state = { cancelled: false, finished: false, placed: await placeFile(payload.file) };
  runs.set(run, state);
  const finish = (type, body, close) => {
    if (state.finished) return;
    state.finished = true;
    if (close) closeRun(glue, run);
    post(type, body, id);
  };
  const started = performance.now();
  let total = 1, done = 0, chunk = 50;
  const step = () => {
    if (state.cancelled) {
      finish("result", { done, total, cancelled: true, seconds: (performance.now() - started) / 1000 }, true);
      return;
    }
    const t0 = performance.now();
    const out = parsed(call(glue, "archive_next", { run, limit: chunk }));
    const took = performance.now() - t0;
    chunk = Math.max(CHUNK_MIN, Math.min(CHUNK_MAX, Math.round(chunk * CHUNK_MS / Math.max(took, 1))));
    done += out.rows.length;
    const seconds = (performance.now() - started) / 1000;
    total = Math.max(total, done);
    post("progress", { done, total, rate: seconds > 0 ? done / seconds : 0, rows: out.rows, details: out.details }, id);
    if (out.done) finish("result", { done, total, cancelled: false, seconds }, false);
    else later(guarded(step));
  };
  const failed = (err) => finish("error", err instanceof ReplyError ? { code: err.code, message: err.message }
    : internalError(err), true);
  const guarded = (fn) => () => {
    try {
      fn();
    } catch (err) {
      failed(err);
    }
  };
  try {
    total = parsed(call(glue, "archive_open", { run, label: String(payload.name), path: state.placed.path })).total;
  } catch (err) {
    failed(err);
    return;
  }
  post("progress", { done: 0, total, rate: 0, rows: [], details: [] }, id);
  later(guarded(step));
}

async function archiveGame(glue, payload) {
  const placed = await placeFile(payload.file);
  try {
    return parsed(call(glue, "archive_game", { label: String(payload.name), path: placed.path,
      index: Number(payload.index) }));
  } finally {
    placed.release();
  }
}

// Requests answered at once, outside the queue.
const immediate = {
  archive_cancel(payload) {
    const state = runs.get(String(payload.run));
    if (state && !state.finished) state.cancelled = true;
    return { cancelled: Boolean(state && !state.finished) };
  },
};

async function handle({ id, type, payload }) {
  let glue;
  try {
    glue = await ready;
  } catch (err) {
    post("error", { code: "not_ready", message: "Python could not be loaded in this browser." }, id);
    return;
  }
  if (type === "archive") {
    await archiveStart(glue, payload || {}, id).catch((err) => post("error", internalError(err), id));
    return;
  }
  try {
    const answer = type === "archive_close" ? closeRun(glue, String((payload || {}).run))
      : Object.hasOwn(requests, type) ? await requests[type](glue, payload || {})
        : plain(glue, type, payload || {});
    post("result", answer, id);
  } catch (err) {
    post("error", err instanceof ReplyError ? { code: err.code, message: err.message } : internalError(err), id);
  }
}

// One request at a time, in the order they came (an archive: one chunk at a time).
let queue = Promise.resolve();
const enqueue = (task) => { queue = queue.then(task); };
// The first task once Python is up, before any request: check a made-up game a few
// times so the browser compiles and optimises the interpreter's hot paths.
enqueue(() => ready.then((glue) => call(glue, "warm_up", { times: 3 })).catch(() => {}));
// The next chunk as a new task: messages that came meanwhile (a cancel, a request) are seen first.
const later = (task) => setTimeout(() => enqueue(task), 0);
self.addEventListener("message", (event) => {
  const { id, type, payload } = event.data || {};
  if (Object.hasOwn(immediate, type)) {
    post("result", immediate[type](payload || {}), id);
    return;
  }
  enqueue(() => handle(event.data || {}));
});
