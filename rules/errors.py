"""The one exception the engine raises for input it cannot read."""

from __future__ import annotations


class MalformedDocument(ValueError):
    """A document (or army list) that is not well formed.

    ``path`` names the offending place (``units[2].armour``, or ``""`` for the whole
    document); ``message`` is a sentence a player understands and already names it.
    """

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"error": self.message, "path": self.path}
