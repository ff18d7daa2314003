"""An army's past: revisions, undo and restore, comparisons, and the History page."""
