"""Assigning units to army-list entries with per-entry minimum and maximum counts.

An army list says "1-4 huscarls, 0-2 archers, ..."; a unit may fit several entries, so
whether an army fits is a bipartite b-matching question, not a greedy one. By the
Mendelsohn-Dulmage theorem an assignment that places every unit within the maxima and
one that fills every minimum together give one that does both, so two max-flows decide it.
"""

from __future__ import annotations

from collections.abc import Sequence


def max_assignment(
    options: Sequence[Sequence[int]],
    capacity: Sequence[int],
    start: Sequence[int | None] | None = None,
) -> list[int | None]:
    """Place as many items as possible; ``options[i]`` lists the slots item ``i`` may take.

    Returns, per item, the slot it got or None. Simple augmenting paths: armies are small.
    ``start`` is a placement within ``capacity`` to grow from: an augmenting path never
    lowers a slot's count, so every slot keeps at least the items ``start`` gave it.
    """
    load = [0] * len(capacity)
    holders: list[list[int]] = [[] for _ in capacity]
    placed: list[int | None] = [None] * len(options)
    for item, slot in enumerate(start or ()):
        if slot is not None:
            load[slot] += 1
            holders[slot].append(item)
            placed[item] = slot

    def augment(item: int, seen: set[int]) -> bool:
        for slot in options[item]:
            if slot in seen:
                continue
            seen.add(slot)
            if load[slot] < capacity[slot]:
                load[slot] += 1
                holders[slot].append(item)
                placed[item] = slot
                return True
            for other in list(holders[slot]):
                if augment(other, seen):
                    holders[slot].remove(other)
                    holders[slot].append(item)
                    placed[item] = slot
                    return True
        return False

    for item in range(len(options)):
        if placed[item] is None:
            augment(item, set())
    return placed


def fits(options: Sequence[Sequence[int]], minimum: Sequence[int], maximum: Sequence[int]) -> bool:
    """True when every item can take one slot with each slot's count within [min, max]."""
    every_item = max_assignment(options, maximum)
    if any(p is None for p in every_item):
        return False
    fill = max_assignment(options, minimum)
    return all(fill.count(slot) >= need for slot, need in enumerate(minimum))
