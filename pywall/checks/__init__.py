"""The wall checks: each platform's shuffle or stated wall regenerated from its seed, and a record compared with it."""
