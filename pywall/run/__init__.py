"""Running many games: the one way the CLI, the public API, Dask and the page's driver do it.

- ``items``: a game as a work item (``(name, content)``), the sources the public API takes
  turned into items, an item's weight, and the jobs (``record_for``: the audit's record;
  ``report_for``: the verifier's report). Pure enough for the page (no processes).
- ``pool``: ``ordered_map``, the items over worker processes, results in input order,
  memory bounded (batches bounded in count and bytes); ``records``: the audit's records of
  a stream of items, in order (``part_games``: with each game's bytes, for a part to save).
- ``parts``: a saved part's games re-derived from their logs and checked against what the
  part states (``verified_part``: ``pywall audit --merge``).
- ``interrupts``: Ctrl-C stops a run between two games; writes are not cut.

Nothing here parses arguments or prints: that is the command line's, which stands on
this layer as ``pywall.audit`` and ``pywall.scale`` do.
"""
