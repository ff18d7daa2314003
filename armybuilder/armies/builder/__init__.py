"""The builder page: what it shows, its controls and cards, the picker, and the views that draw it."""
