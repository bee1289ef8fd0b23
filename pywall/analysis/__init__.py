"""Analysis of hands and draws: shanten, tile efficiency, the statistics, and the audit's draw and wall-position tests."""
