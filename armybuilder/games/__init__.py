"""Games at the table: two armies' frozen documents, the turn and phase, and a log of every
action (combats worked out by the rules engine, removals, phases, undos) from which each
unit's state is replayed."""
