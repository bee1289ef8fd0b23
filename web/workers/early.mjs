// A page's first Python worker, started as soon as this module comes (an async module
// script first in the page's head, so it waits neither for the page's style sheets nor for
// its own modules): Python downloads and starts while the page fetches and runs its
// modules, which then take this worker over (rpc.mjs, startWorker). `pywall:early` marks
// the moment (benchmarks/bench_first_visit.py).

import { startEarly } from "./rpc.mjs";

performance.mark("pywall:early");
startEarly();
