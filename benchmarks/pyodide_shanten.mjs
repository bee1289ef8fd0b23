// Shanten throughput inside Pyodide (the engine the page runs), for bench_shanten.py.
//
//   node benchmarks/pyodide_shanten.mjs build/pyodide HANDS ROUNDS
//
// Loads the built pywall wheel through the site's lock (hash-checked), then times
// pywall.analysis.shanten.shanten on fresh random 14-tile hands and the exact 14-tile
// distribution; prints one JSON line.
import path from "node:path";
import { pathToFileURL } from "node:url";

const [index, hands = "50000", rounds = "5"] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(index, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: index + path.sep });
const problems = [];
await pyodide.loadPackage("pywall", { checkIntegrity: true, messageCallback: () => {}, errorCallback: (m) => problems.push(m) });
if (problems.length) throw new Error(problems.join("; "));
const out = pyodide.runPython(`
import json, random, statistics, time
from pywall.analysis.shanten import shanten
from pywall.analysis.shanten_distribution import _distribution, wall_copies

def fresh(count, rng):
    tiles = list(range(136))
    out = []
    for _ in range(count):
        counts = [0] * 34
        for t in rng.sample(tiles, 14):
            counts[t // 4] += 1
        out.append(counts)
    return out

rng = random.Random()
rates = []
for _ in range(${Number(rounds)}):
    hands = fresh(${Number(hands)}, rng)
    start = time.perf_counter()
    for h in hands:
        shanten(h)
    rates.append(len(hands) / (time.perf_counter() - start))
start = time.perf_counter()
_distribution(14, wall_copies(4))  # computed, not the written-out table
json.dumps({"hands_per_second": statistics.median(rates), "distribution_14_seconds": time.perf_counter() - start})
`);
console.log(out);
