"""The audit of many games, in one room: do their deals, draws and walls look like a fair
shuffle's? (docs/audit.md)

- ``records``: what the audit reads of one game (``GameRecord``), made once from its check.
- ``copies``: copies of one game told apart by content, and the one that counts.
- ``counts`` and ``tally``: the counts per group, and the mergeable tally of every game's
  copies and of the games left out (``AuditTally``).
- ``parts``: an audit in parts, saved and merged as one run (docs/scale.md).
- ``draw_wall_tests`` and ``verdicts``: every test computed from a tally (the draw and
  wall tests' mathematics are ``pywall.analysis``'), the verdicts and the JSON.
- ``html`` and ``words``: the report a player shares, in English, Japanese and Chinese.

Named ``audits`` because ``pywall.audit`` is the public function: a subpackage of that
name would shadow it once imported.
"""
