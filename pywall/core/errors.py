"""The one exception family of pywall.

An exception means "could not analyse this input"; a mismatch between a log and
its wall is not an exception but a finding (see ``pywall.results.report``). Any other
exception escaping the core is a bug.
"""

from __future__ import annotations


class PywallError(Exception):
    """Base of every error pywall raises on purpose."""

    code = "error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class LogFormatError(PywallError):
    """A game record that cannot be read: not XML, wrong shape, bad values."""

    code = "log_format"

    def __init__(self, message: str, where: str | None = None) -> None:
        super().__init__(f"{message} ({where})" if where else message)
        self.where = where


class EmptyArchiveError(LogFormatError):
    """An archive (a zip) that holds no file to check."""

    code = "empty_archive"


class InputTooLargeError(PywallError):
    """Input over a size cap (raw or decompressed)."""

    code = "too_large"


class SeedError(PywallError):
    """A seed string that is not in any format pywall knows."""

    code = "bad_seed"


class ValueInputError(PywallError):
    """A value typed by a person (tile text, hash, player seed) that is malformed."""

    code = "bad_value"
