"""Share links: the read-only shared view of an army."""
