"""Armies made and kept: finding a list, starting an army, import and export files, copies, drafts, deletion, My armies."""
