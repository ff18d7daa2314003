"""The operation kernel: what every subject a page changes by operations (an army, an
army list, a game) shares, below every app.

- ``keys``: the one rule for an operation's one-time key.
- ``outcome``: the one ``Outcome`` of an operation, its statuses and their HTTP statuses.
- ``models.AppliedKey`` and ``ledger``: the one ledger of applied keys (look up, record,
  prune), a subject named by its kind and primary key.
- ``once.apply_once``: the per-operation transaction: the subject's row locked with
  whether the key was applied read in the same query, the change applied, the key
  recorded, all committed together; a second arrival is answered ``Duplicate``, a refused
  change writes nothing (its key may be sent again).
- ``kinds``: the table of operation kinds each subject registers (``register``), a
  handler's ``parse`` reading an operation into parsed values and its ``apply`` making
  the change from them (see its docstring for how a subject registers a kind).
"""
