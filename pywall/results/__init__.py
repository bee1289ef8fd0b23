"""Results: a game's check and the audit across games, their typed reports and JSON, CSV and compact views."""
