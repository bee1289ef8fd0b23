"""pywall's version (``pywall.__version__``; pyproject.toml says the same)."""

VERSION = "0.1.0"
