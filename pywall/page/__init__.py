"""The page's driver: JSON requests in, JSON replies out, for the web worker (and the archive runs and warm-up it uses)."""
