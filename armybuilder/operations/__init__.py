"""The operation kernel, below every app: ``kernel`` (the key rule, the outcome, the ledger
of applied keys, the per-operation transaction, the table of kinds) and ``models``
(``AppliedKey``, the ledger's rows). Callers import from ``armybuilder.operations.kernel``."""
