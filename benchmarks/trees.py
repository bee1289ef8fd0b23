"""Another checkout's pywall in a process of its own, for benchmarks that compare trees."""

from __future__ import annotations

#: The first lines of a script run with ``python -c``: it imports the pywall of the checkout
#: named by PYWALL_TREE, whatever pywall this interpreter has installed (an editable install
#: of another tree is taken off the import path first), and checks that it did.
IMPORT_TREE = """
import os, sys
root = os.environ["PYWALL_TREE"]
sys.meta_path[:] = [m for m in sys.meta_path if "editable" not in repr(m).lower()]
sys.path.insert(0, root)
import pywall
assert pywall.__file__.startswith(root), pywall.__file__
"""
