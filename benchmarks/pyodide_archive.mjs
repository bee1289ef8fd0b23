// An archive's Python work inside Pyodide (the engine the page runs), for
// bench_web_archive.py.
//
//   node benchmarks/pyodide_archive.mjs build/pyodide DB RUNS
//
// Loads the built pywall wheel through the site's lock (hash-checked), copies the
// database into Pyodide's memory file system and checks it through pywall.page.api's
// archive requests, as a page worker does but with no page, no messages and no File
// reads; prints one JSON line: games per second of each run.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [index, db, runs = "3"] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(index, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: index + path.sep });
const problems = [];
await pyodide.loadPackage("pywall", { checkIntegrity: true, messageCallback: () => {}, errorCallback: (m) => problems.push(m) });
if (problems.length) throw new Error(problems.join("; "));
pyodide.FS.writeFile("/archive.db", readFileSync(db));
// The same requests as bench_web_archive.py's in-process CPython figure: archive_rate.py.
pyodide.FS.writeFile("/home/pyodide/archive_rate.py", readFileSync(new URL("./archive_rate.py", import.meta.url), "utf8"));
const out = pyodide.runPython(`
import json
from archive_rate import archive_rate
json.dumps({"rates": [archive_rate("/archive.db")[1] for _ in range(${Number(runs)})]})
`);
process.stdout.write(out + "\n");
