"""The core: tiles, errors and findings, the caps on work, bounded decoding of archive bytes, and the model of a game with its wall's layout."""
