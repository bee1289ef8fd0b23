"""The statistics' grid that tests/node/test_exact_floats.py runs in Pyodide and in
CPython: exp, erfc, the two-sided normal p and chi-square p-values, from p near 1 to the
far tails and dof up to the audit's largest table, and the starting-hand tests' detectable
figure, each as ``float.hex()`` (JSON text).
Its text is sent to Pyodide as it is: it imports only pywall and the standard library."""

from __future__ import annotations

import json


def grid() -> str:
    from pywall.analysis import stats

    zs = [i / 16 for i in range(640)] + [1e-9, 1.959963984540054, 36.99, 38.4]
    xs = [i / 8 for i in range(-5968, 5680, 3)]
    chi = []
    for dof in (1, 2, 3, 4, 5, 6, 7, 10, 33, 100, 101, 999, 2782, 4455):
        for f in (0.001, 0.1, 0.5, 0.9, 1.0, 1.1, 1.5, 2.0, 3.0):
            chi.append(stats.chi2_sf(dof * f, dof))
        for extra in (200, 700, 1400, 1700):
            chi.append(stats.chi2_sf(dof + extra, dof))
    # the starting-hand tests' detectable figure: hands, variance a hand, the group's tests
    steps = [
        stats.detectable_step_shift(n, n * v, 0.001 / k)
        for n in (1, 7, 60, 400, 2065, 100_000)
        for v in (0.2, 0.9, 2.0)
        for k in (5, 6, 11)
    ]
    return json.dumps(
        {
            "exp": [stats.exp(x).hex() for x in xs],
            "erfc": [stats.erfc(z).hex() for z in zs],
            "two_sided_p": [stats.two_sided_p(z).hex() for z in zs],
            "chi2_sf": [p.hex() for p in chi],
            "detectable_step_shift": [d.hex() for d in steps if d is not None],
        }
    )
