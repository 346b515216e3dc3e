"""Utilities below every layer: atomic file writes (fsutil) and process lifetime (procs)."""
