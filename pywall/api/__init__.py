"""pywall's public Python API, re-exported by ``pywall`` (docs/python.md).

``records``: one record (``verify``, ``parse_record``), a seed's walls (``walls``) and a
hand (``shanten``, ``effective_tiles``); ``audit``: the audit of many games
(``audit``, ``AuditResult``). Stable from 0.1.0 on: tests/unit/test_public_api.py pins
the names and signatures. Every other module of the package is internal and may move.
"""
