"""What people and CI read: the terminal (progress, tables, colour), the live display, and the
machine-readable outputs (--json, JUnit XML, GitHub annotations)."""
