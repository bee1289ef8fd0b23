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

async function init() {
  const started = performance.now();
  const times = {};
  const lap = (name) => { times[name] = Math.round(performance.now() - started); };
  announce("runtime", 0.05);
  const { pyodide, snapshot } = await startPython({
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

function errorFromPython(err) {
  const text = String(err && err.message ? err.message : err);
  console.error(text);
  const lines = text.trim().split("\n");
  return { code: "internal", message: `pywall could not finish: ${lines[lines.length - 1]}` };
}

async function bytesOf(payload) {
  if (payload.file) return new Uint8Array(await payload.file.arrayBuffer());
  if (payload.bytes) return new Uint8Array(payload.bytes);
  return new TextEncoder().encode(payload.text || "");
}

const handlers = {
  async verify(glue, payload) {
    const data = await bytesOf(payload);
    return JSON.parse(glue.verify(payload.name, data)).files;
  },
  async walls(glue, payload) {
    return JSON.parse(glue.walls(payload.seed, payload.rounds, payload.players));
  },
  async csv(glue, payload) {
    return glue.csv(JSON.stringify(payload.files || []));
  },
  async info(glue) {
    return JSON.parse(glue.info());
  },
  // The panels' generic path: {fn, args} -> a whitelisted pywall.api function (worker_py.call).
  async call(glue, payload) {
    return JSON.parse(glue.call(String(payload.fn), JSON.stringify(payload.args ?? {})));
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
  const handler = handlers[type];
  if (!handler) {
    post("error", { code: "bad_request", message: `unknown request ${type}` }, id);
    return;
  }
  try {
    post("result", await handler(glue, payload || {}), id);
  } catch (err) {
    post("error", errorFromPython(err), id);
  }
}

// One request at a time, in the order they came.
let queue = Promise.resolve();
self.addEventListener("message", (event) => {
  queue = queue.then(() => handle(event.data || {}));
});
