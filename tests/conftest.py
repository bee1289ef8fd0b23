"""Settings for every test."""

from hypothesis import settings

# No per-example deadline: on a shared or loaded machine a slow example is not a
# failure (what a property asserts never depends on time; benchmarks measure time).
settings.register_profile("pywall", deadline=None)
settings.load_profile("pywall")
