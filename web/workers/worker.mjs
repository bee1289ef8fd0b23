// The module worker that runs Python. It loads Pyodide from this site (pywall is in its
// standard library, checked by its SHA-256 as the interpreter is: runtime-files.mjs), and answers
// {id, type, payload} requests with `progress`, `result` or `error {code, message}`.
// Requests that arrive while Python is still loading wait their turn.

import { CorruptError, UnpackError, canUnpack, fetchAhead, fetchPacked, packedName, snapshotBytes, unpackedWhole } from "./runtime-files.mjs";
// runtime-files.mjs's own imports, named here so that all are fetched at once
import "../pyodide/packed.mjs";
import "./snapshot-delta.mjs";

const here = (path) => new URL(path, import.meta.url).href;
const post = (type, payload, id = null) => self.postMessage({ id, type, payload });
const announce = (stage, fraction) => post("progress", { stage, fraction });
// When each start-up step ended, in ms from the worker's time origin (ready's `phases`, with
// that `origin`: benchmarks/bench_first_visit.py lays them on the page's timeline).
const phases = { origin: performance.timeOrigin };
const phase = (name) => { phases[name] = Math.round(performance.now()); };
phase("modules"); // this module and its imports fetched and run

// Pyodide fetches the interpreter and the standard library itself, by their plain
// names: those come packed (runtime-files.mjs); any other fetch goes as it came.
const networkFetch = self.fetch.bind(self);
self.fetch = (input, init) => (packedName(input) ? fetchPacked(packedName(input)).then(compiledAhead) : networkFetch(input, init));

// The interpreter, compiled as soon as it is unpacked (while the snapshot still downloads
// and unpacks) rather than when Pyodide instantiates it: Pyodide's
// WebAssembly.instantiateStreaming(fetch(the interpreter)) is given that module. null:
// not compiled ahead (instantiateStreaming compiles it then, as without this).
let compiled = null;
const compiledAnswers = new WeakSet();
function compileAhead() {
  compiled = unpackedWhole("pyodide.asm.wasm").then((bytes) => WebAssembly.compile(bytes))
    .then((module) => { phase("compiled"); return module; }, () => null);
}
function compiledAhead(response) {
  if (compiled && response && response.headers.get("Content-Type") === "application/wasm") compiledAnswers.add(response);
  return response;
}
const instantiateStreaming = WebAssembly.instantiateStreaming;
WebAssembly.instantiateStreaming = async (source, imports) => {
  const response = await source;
  const module = compiledAnswers.has(response) ? await compiled : null;
  if (!module) return instantiateStreaming(response, imports);
  return { module, instance: await WebAssembly.instantiate(module, imports) };
};

// The interpreter's memory right after start-up, made by build.py (see
// make_snapshot.mjs); null when it is missing.
async function fetchSnapshot() {
  try {
    return await snapshotBytes();
  } catch (err) {
    console.warn("pywall: no start-up snapshot", err);
    return null;
  }
}

async function startPython(options, snapshot) {
  // Pyodide's JavaScript (1.25 MB), fetched and compiled while the snapshot downloads and
  // unpacks: loadPyodide imports the same module, then at once.
  import("../pyodide/pyodide.asm.mjs").catch(() => {}); // loadPyodide reports a failure
  const { loadPyodide } = await import("../pyodide/pyodide.mjs");
  const bytes = await snapshot;
  phase("snapshot");
  if (bytes) {
    try {
      return { pyodide: await loadPyodide({ ...options, _loadSnapshot: bytes }), snapshot: true };
    } catch (err) {
      console.warn("pywall: the start-up snapshot did not load; starting Python normally", err);
    }
  }
  return { pyodide: await loadPyodide(options), snapshot: false };
}

// The page's glue (worker_py.py), as the module pywall_worker. The snapshot holds it
// imported already (make_snapshot.mjs); without the snapshot it is fetched and imported.
async function writeGlue(pyodide) {
  const response = await fetch(here("./worker_py.py"));
  if (!response.ok) throw new Error(`worker_py.py: HTTP ${response.status}`);
  pyodide.FS.writeFile("/home/pyodide/pywall_worker.py", await response.text());
}

let python = null; // {pyodide}: its file system holds the archives being read
let logBytes = null; // the largest log Python takes, once it is up: a file to verify this size or less is read early
const SNIFF_BYTES = 16; // what Python's sniff looks at

async function init() {
  const started = performance.now();
  const times = {};
  const lap = (name) => { times[name] = Math.round(performance.now() - started); };
  announce("runtime", 0.05);
  if (!canUnpack()) throw new UnpackError("no DecompressionStream");
  // The interpreter and the standard library, fetched and checked while Pyodide's
  // JavaScript loads: a file that cannot be had fails the start here, with its reason.
  const files = fetchAhead(["pyodide.asm.wasm", "python_stdlib.zip"]);
  compileAhead();
  const loading = startPython({
    indexURL: here("../pyodide/"),
    stdout: (line) => console.log("[python]", line),
    stderr: (line) => console.warn("[python]", line),
  }, fetchSnapshot());
  files.then(() => phase("files"), () => {});
  const [, loaded] = await Promise.all([files, loading]);
  phase("python");
  const { pyodide, snapshot } = python = loaded;
  lap("runtime");
  lap("package"); // nothing to install: pywall is in the standard library (build.py page_stdlib)
  announce("glue", 0.9);
  const preloaded = pyodide.runPython("import sys; 'pywall_worker' in sys.modules");
  if (!preloaded) await writeGlue(pyodide);
  const glue = pyodide.pyimport("pywall_worker");
  const info = JSON.parse(glue.start());
  logBytes = info.limits.log_bytes;
  lap("glue");
  phase("ready");
  info.phases = phases; // modules, files (fetched and checked), compiled, snapshot, python, ready
  info.times = times; // start-up phases in ms, for benchmarks/bench_web.py
  info.snapshot = snapshot;
  info.preloaded = preloaded; // the glue and pywall came imported in the snapshot
  post("ready", info);
  return glue;
}

const ready = init().catch((err) => {
  console.error(err);
  // The page words old_browser and corrupt (naming the file) in the reader's language.
  const code = err instanceof UnpackError ? "old_browser" : err instanceof CorruptError ? "corrupt" : "load_failed";
  const file = err instanceof CorruptError ? err.file : undefined;
  post("fatal", { code, file, message: String(err && err.message ? err.message : err) });
  throw err;
});
ready.catch(() => {});

// A JavaScript exception here is a bug in this file or in Pyodide (pywall.page.api answers
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

// pywall.page.api replies `{"error": {...}}` (compact JSON, so it starts with these bytes)
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
  if (payload.read) return new Uint8Array(await payload.read);
  if (payload.file) return new Uint8Array(await payload.file.arrayBuffer());
  if (payload.bytes) return new Uint8Array(payload.bytes);
  if (payload.text != null) return new TextEncoder().encode(payload.text);
  return null;
}

// How each request reaches Python: which fields go as JSON, which as bytes, and
// whether the reply is parsed here. Anything else goes through as it came.
const requests = {
  // A chosen or dropped file is sniffed first, in the same turn: an archive (zip,
  // SQLite) is answered {"archive": kind} for the page to start an archive run. Its
  // first bytes (and a log's whole bytes) were read ahead, when the request came.
  // A reply over `reply_limit` characters (the pool's limits.replyChars) is refused here:
  // it would cost the page far more memory than its text to parse and draw.
  async verify(glue, { file, head, read, bytes, text, reply_limit: limit, ...payload }) {
    if (file) {
      const first = new Uint8Array(await (head || file.slice(0, SNIFF_BYTES).arrayBuffer()));
      const { kind } = parsed(call(glue, "sniff", {}, first));
      if (kind !== "record") return JSON.stringify({ archive: kind });
    }
    const reply = unparsed(call(glue, "verify", payload, await bytesOf({ file, read, bytes, text })));
    if (Number.isFinite(limit) && reply.length > limit) throw new ReplyError(tooLarge(reply.length, limit));
    return reply;
  },
  async sniff(glue, { file, head, bytes, ...payload }) {
    const first = file ? new Uint8Array(await (head || file.slice(0, SNIFF_BYTES).arrayBuffer()))
      : await bytesOf({ bytes });
    return parsed(call(glue, "sniff", payload, first));
  },
  async info(glue) {
    return JSON.parse(glue.info());
  },
  archive_open: archiveOpen,
  archive_next: archiveNext,
  tally_add: (glue, payload) => timed(() => parsed(call(glue, "tally_add", tallyPayload(payload)))),
  async archive_close(glue, payload) {
    return closeRun(glue, String(payload.run));
  },
  // One game of an archive again, with its walls ({name: the archive's, file, index, survey}).
  archive_game: archiveGame,
};

const megabytes = (n) => `${(n / 2 ** 20).toFixed(1)} MB`;
function tooLarge(size, limit) {
  return { code: "reply_too_large", message: `the report of this file is ${megabytes(size)} of text, more `
    + `than the page shows (${megabytes(limit)}; a real game's is under 0.1 MB): check it with pywall verify` };
}

function plain(glue, type, payload) {
  return parsed(call(glue, type, payload));
}

// --- archives: zip files and phoenix-logs databases, a chunk at a time ---------------
// The page drives a run (archive-run.mjs): it opens the chosen File in each worker that
// takes part (`archive_open`: the first worker surveys it, the others are given that
// survey), asks each for chunks of games (`archive_next` {run, start, limit}), and
// closes it. Each request is its own turn in the queue, so other requests (a dropped
// log, a panel) are answered between chunks. The File is mounted read-only (WORKERFS:
// Python reads it lazily, a slice at a time, so a 1 GB database is never copied into
// memory, and every worker reads its own chunks of the same File); where neither
// FileReaderSync nor a synchronous read of a blob: URL works (syncReader), its bytes
// are written to /tmp instead. Either goes when the run is closed.
// Opening one game later mounts the File again and checks that game once more (the
// page keeps the File, a reference to the disk, not its bytes).

let uploads = 0;
const mounts = new Map(); // run name -> its File's mount

// A blob's bytes read synchronously, as Python's reads need them: FileReaderSync where the
// engine has it in workers (Chromium, Firefox); else a synchronous XMLHttpRequest of a
// blob: URL of the slice (WebKit: no FileReaderSync, but workers may make synchronous
// requests, and a blob: URL is the slice itself, never the network nor the service worker);
// null when neither works here (the File is then copied into memory).
const xhrReader = {
  readAsArrayBuffer(blob) {
    const url = URL.createObjectURL(blob);
    try {
      const xhr = new XMLHttpRequest();
      xhr.open("GET", url, false);
      xhr.responseType = "arraybuffer";
      xhr.send();
      if (!(xhr.response instanceof ArrayBuffer) || xhr.response.byteLength !== blob.size) {
        throw new Error(`the chosen file could not be read (HTTP ${xhr.status})`);
      }
      return xhr.response;
    } finally {
      URL.revokeObjectURL(url);
    }
  },
};

let reader; // undefined: not tried yet
function syncReader() {
  if (reader !== undefined) return reader;
  reader = null;
  if (typeof FileReaderSync !== "undefined") reader = new FileReaderSync();
  else if (typeof XMLHttpRequest !== "undefined" && typeof URL.createObjectURL === "function") {
    try {
      const probe = new Uint8Array(xhrReader.readAsArrayBuffer(new Blob([new Uint8Array([7, 9])])));
      if (probe[0] === 7 && probe[1] === 9) reader = xhrReader;
    } catch (err) {
      console.warn("pywall: no synchronous read of a File here; archives are copied into memory", err);
    }
  }
  return reader;
}

// WORKERFS reads the File with one synchronous read (syncReader) per read, and SQLite
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
      window = { start: position, bytes: new Uint8Array(syncReader().readAsArrayBuffer(blob)) };
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
  const WORKERFS = FS.filesystems.WORKERFS;
  if (WORKERFS && syncReader()) {
    WORKERFS.reader = syncReader(); // its own reads (large ones) go through it too
    FS.mount(FS.filesystems.WORKERFS, { blobs: [{ name: "archive", data: file }] }, dir);
    readAhead(FS.lookupPath(`${dir}/archive`).node);
    return held(`${dir}/archive`, true, () => { FS.unmount(dir); FS.rmdir(dir); });
  }
  FS.writeFile(`${dir}/archive`, new Uint8Array(await file.arrayBuffer()));
  return held(`${dir}/archive`, false, () => { FS.unlink(`${dir}/archive`); FS.rmdir(dir); });
}

// A placed File, let go when each of its holders (a run, a shared run's tally) has
// released it once. lazy: mounted (read a slice at a time), not copied into memory.
function held(path, lazy, letGo) {
  return { path, lazy, holders: 1, release() { if (--this.holders === 0) letGo(); } };
}

// A shared run's audit records ({run, start, records, part, label, survey}): on the first
// chunk, the tally takes a hold of the File its part of the run mounted, when that is
// read lazily, and Python is given its path to read a game with another copy again
// (pywall.page.runs). Where the File was copied into memory (no synchronous read of it:
// syncReader), keeping the copy would cost more than the records: the tally keeps them.
function tallyPayload({ part, label, survey, ...payload }) {
  const run = String(payload.run);
  const placed = mounts.get(String(part));
  if (payload.start === 0 && !mounts.has(run) && placed && placed.lazy) {
    placed.holders++;
    mounts.set(run, placed);
    return { ...payload, path: placed.path, label: String(label), survey };
  }
  return payload;
}

// Python lets go of the run (and of a shared run's audit tally kept under its name),
// then its File is unmounted.
function closeRun(glue, run) {
  const placed = mounts.get(run);
  mounts.delete(run);
  let closed = false;
  try {
    closed = parsed(call(glue, "archive_close", { run })).closed;
  } catch (err) {
    console.error(err);
  }
  if (placed) placed.release();
  return { closed: closed || Boolean(placed) };
}

// {run, name, file, survey?, records?, mismatch_details?} -> {total, survey, lazy}
// (lazy: the File is read a slice at a time, not copied into memory)
async function archiveOpen(glue, { file, name, ...payload }) {
  const run = String(payload.run);
  closeRun(glue, run);
  const placed = await placeFile(file);
  try {
    const answer = parsed(call(glue, "archive_open", { ...payload, run, label: String(name), path: placed.path }));
    mounts.set(run, placed);
    return { ...answer, lazy: placed.lazy };
  } catch (err) {
    placed.release();
    throw err;
  }
}

// A request's answer with `ms`, the time Python took (the page sizes chunks by it).
function timed(ask) {
  const started = performance.now();
  const answer = ask();
  answer.ms = performance.now() - started;
  return answer;
}

// {run, start, limit} -> {rows, details, records, done, ms}
function archiveNext(glue, payload) {
  return timed(() => parsed(call(glue, "archive_next", payload)));
}

async function archiveGame(glue, { file, name, ...payload }) {
  const placed = await placeFile(file);
  try {
    return parsed(call(glue, "archive_game", { ...payload, label: String(name), path: placed.path }));
  } finally {
    placed.release();
  }
}

// Requests answered at once, outside the queue.
const immediate = {
  // This worker's WebAssembly memory, where Python lives (for the benchmarks).
  memory() {
    const heap = python && python.pyodide._module && python.pyodide._module.HEAP8;
    return { wasm: heap ? heap.buffer.byteLength : 0 };
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
  post("progress", { stage: "started" }, id); // the pool's time limit runs from here
  try {
    const answer = Object.hasOwn(requests, type) ? await requests[type](glue, payload || {})
      : plain(glue, type, payload || {});
    post("result", answer, id);
  } catch (err) {
    post("error", err instanceof ReplyError ? { code: err.code, message: err.message } : internalError(err), id);
  }
}

// One request at a time, in the order they came.
let queue = Promise.resolve();
const enqueue = (task) => { queue = queue.then(task); };
let waiting = 0; // requests come and not yet begun (the warm-up gives way to them)
// The first task once Python is up, before any request: check a made-up game a few
// times so the browser compiles and optimises the interpreter's hot paths.
// WebKit (Safari's engine; every browser on iOS) runs WebAssembly code it has not run
// before slowly for a while: in a fresh page the first 300-game zip took 7-14 s there and
// the same zip again 3.5 s (Chromium: 4.8 s), nearly all of it in the first chunks. There
// the first worker (the one a page starts with; the others start when work waits for
// them) runs the archive path once too, on a zip of made-up games (worker_py.py:
// warm_archive_step). `warmed` says when this is done ({archive, cut, steps, ms}: the page's
// `pywall:warmed` mark, for the benchmarks and tests).
// The warm-up goes a step at a time (a game; a step of the archive's warm-up), giving the
// worker's turn back between two: a request that comes meanwhile (a zip chosen at once)
// waits for the step under way only, and the steps left are dropped (the request's own
// games run the same code): `cut` in `warmed`.
const ua = (self.navigator && navigator.userAgent) || "";
const warmsArchives = self.name === "pywall" && /AppleWebKit\//.test(ua) && !/(Chrome|Chromium)\//.test(ua);
const WARM_GAMES = 3;
const turn = () => new Promise((resolve) => setTimeout(resolve, 0)); // messages come in here

async function warmUp(glue) {
  const started = performance.now();
  let games = 0;
  let archiveSteps = 0;
  let more = true;
  const steps = []; // each step's ms, for the benchmarks
  while (more && !waiting) {
    const began = performance.now();
    if (games < WARM_GAMES) {
      call(glue, "warm_up", { times: 1 });
      more = ++games < WARM_GAMES || warmsArchives;
    } else {
      more = glue.warm_archive_step();
      archiveSteps++;
    }
    steps.push(Math.round(performance.now() - began));
    if (more) await turn();
  }
  const cut = more;
  if (cut && archiveSteps) glue.warm_archive_stop();
  post("warmed", { archive: warmsArchives && !cut, cut, steps, ms: Math.round(performance.now() - started) });
}
enqueue(() => ready.then(warmUp).catch(() => {}));
// A file to verify is read as soon as its request arrives, while Python answers the
// ones before it (reading a File is asynchronous: in turn, it took about a tenth of a
// batch's time): its first bytes, for the sniff, and all of it when it is no larger than
// the largest log Python takes. A bigger file is an archive (mounted, never copied) or
// a log Python refuses, read in its turn. A request to sniff reads only the first bytes.
function readEarly(type, payload) {
  const { file } = payload;
  const whole = type === "verify" && logBytes != null && file.size <= logBytes ? file.arrayBuffer() : null;
  payload.head = whole ? whole.then((b) => b.slice(0, SNIFF_BYTES)) : file.slice(0, SNIFF_BYTES).arrayBuffer();
  payload.read = whole;
  for (const read of [payload.head, payload.read]) if (read) read.catch(() => {}); // reported in its turn
}
self.addEventListener("message", (event) => {
  const { id, type, payload } = event.data || {};
  if (Object.hasOwn(immediate, type)) {
    post("result", immediate[type](payload || {}), id);
    return;
  }
  if ((type === "verify" || type === "sniff") && payload && payload.file) readEarly(type, payload);
  waiting++;
  enqueue(() => {
    waiting--;
    return handle(event.data || {});
  });
});
