// Run the built pywall wheel inside real Pyodide under Node.
//
//   node run_wheel.mjs --index build/pyodide --mode lock|micropip --jobs JOBS.json [--snapshot FILE]
//                      [--glue site/workers/worker_py.py] [--stdlib FILE]
//
// --mode lock:     loadPackage("pywall") through the site's pyodide-lock.json
//                  (the sha256 there is checked against the wheel);
// --mode micropip: loadPackage("micropip") through the same lock (its rewritten
//                  hash is checked too), then micropip.install of the wheel file.
// --snapshot: start the interpreter from the page's start-up snapshot, as the page does.
// --stdlib: the standard library to mount instead of the site's (which holds pywall): Pyodide's
//           own, so that the wheel's pywall is the one imported.
// JOBS.json is a list of requests as the page's worker makes them, {"kind", "payload",
// "path"?, "payload_text"? (the payload as raw text)}: each goes to the site's worker_py.py glue, `handle(kind, JSON payload,
// the file's bytes or null)`, exactly as worker.mjs calls it. A job with "with_reports": true
// is given, as `reports`, the reports of every `verify` answer before it, as the page gives
// them to the audit (web/batch/batch.mjs auditSources: the page's own withoutDetail). A job
// {"python": CODE} instead runs CODE in the interpreter (after the wheel is installed) and
// answers the text of its last expression. The answer on stdout is
// the list of JSON strings it returned, in the same order (and each request's seconds),
// with the pywall modules imported before the wheel was installed (`imported`: from the
// snapshot) and a draw of the shared `random` once the glue started (`random`).

import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

function args(argv) {
  const out = { mode: "lock" };
  for (let i = 0; i < argv.length; i += 2) out[argv[i].replace(/^--/, "")] = argv[i + 1];
  if (!out.index || !out.jobs) throw new Error("usage: --index DIR --mode lock|micropip --jobs FILE");
  return out;
}

let imported = ""; // set by start()

async function start(index, mode, snapshot, stdlib) {
  const { loadPyodide } = await import(pathToFileURL(path.join(index, "pyodide.mjs")).href);
  const options = { indexURL: index + path.sep, stdout: console.error, stderr: console.error };
  if (stdlib) options.stdLibURL = stdlib;
  if (snapshot) options._loadSnapshot = new Uint8Array(readFileSync(snapshot));
  const pyodide = await loadPyodide(options);
  // pywall's modules (and the glue's) in memory before the wheel is installed: the snapshot's
  imported = pyodide.runPython(`import sys
' '.join(sorted(m for m in sys.modules if m.partition('.')[0] in ('pywall', 'pywall_worker')))`);
  const problems = [];
  const loadOptions = { checkIntegrity: true, messageCallback: () => {}, errorCallback: (m) => problems.push(m) };
  if (mode === "lock") {
    await pyodide.loadPackage("pywall", loadOptions);
    if (problems.length || !pyodide.loadedPackages.pywall) {
      throw new Error(`loadPackage("pywall") failed: ${problems.join("; ")}`);
    }
  } else if (mode === "micropip") {
    await pyodide.loadPackage("micropip", loadOptions);
    if (problems.length || !pyodide.loadedPackages.micropip) {
      throw new Error(`loadPackage("micropip") failed: ${problems.join("; ")}`);
    }
    const wheel = readdirSync(index).find((f) => /^pywall-.*\.whl$/.test(f));
    pyodide.FS.mkdirTree("/tmp/wheels");
    pyodide.FS.writeFile(`/tmp/wheels/${wheel}`, readFileSync(path.join(index, wheel)));
    const micropip = pyodide.pyimport("micropip");
    await micropip.install(`emfs:/tmp/wheels/${wheel}`);
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
  pyodide.runPython(`
import importlib.metadata, pywall
assert importlib.metadata.version("pywall") == pywall.__version__
`);
  return pyodide;
}

const opts = args(process.argv.slice(2));
const pyodide = await start(path.resolve(opts.index), opts.mode, opts.snapshot, opts.stdlib && path.resolve(opts.stdlib));
// The page's glue, from the site (worker.mjs loads the same file).
pyodide.FS.writeFile("/home/pyodide/pywall_worker.py", readFileSync(opts.glue || path.join(opts.index, "..", "workers", "worker_py.py"), "utf8"));
const glue = pyodide.pyimport("pywall_worker");
glue.start(); // as worker.mjs does once Python is up (a fresh seed for `random`)
const random = pyodide.runPython("import random; random.random()");
const jobs = JSON.parse(readFileSync(opts.jobs, "utf8"));
const results = [];
const seconds = [];
const reports = []; // every verify answer's reports so far, as the page keeps them
let withoutDetail = null; // the page's own (web/batch/batch.mjs), loaded when a job asks for reports
for (const job of jobs) {
  const start = performance.now();
  if (job.python !== undefined) {
    results.push(String(pyodide.runPython(job.python)));
    seconds.push((performance.now() - start) / 1000);
    continue;
  }
  let payload = job.payload_text ?? JSON.stringify(job.payload ?? {});
  if (job.with_reports) {
    withoutDetail ??= (await import(new URL("../../web/batch/batch.mjs", import.meta.url).href)).withoutDetail;
    payload = JSON.stringify({ ...JSON.parse(payload), reports: reports.map((r) => withoutDetail(r, ["starting"])) });
  }
  // as worker.mjs does: no bytes, no third argument
  const answer = job.path ? glue.handle(job.kind, payload, new Uint8Array(readFileSync(job.path)))
    : glue.handle(job.kind, payload);
  results.push(answer);
  if (job.kind === "verify") reports.push(...(JSON.parse(answer).files || []));
  seconds.push((performance.now() - start) / 1000);
}
process.stdout.write(JSON.stringify({
  python: pyodide.runPython("import sys; sys.version.split()[0]"),
  results,
  seconds,
  imported: imported.split(" ").filter(Boolean),
  random,
}));
