"""pywall: verify online mahjong walls against their published seeds."""

from pywall.core.errors import LogFormatError, PywallError

__version__ = "0.1.0"
__all__ = ["LogFormatError", "PywallError", "__version__"]
