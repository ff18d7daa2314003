"""How long and how greedily a render runs: it dies with its worker, and it runs at a
lower CPU priority than the web processes, so pages stay quick while PDFs are made."""

from __future__ import annotations

import ctypes
import logging
import os
import signal

logger = logging.getLogger(__name__)
PR_SET_PDEATHSIG = 1  # from linux/prctl.h


def die_with_parent(parent: int) -> None:
    """Have the kernel kill this process when its parent dies (Linux), so a render child
    never outlives a worker killed mid-render; if the parent is already gone, exit now."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # not Linux: the worker's own kill() and the time limit still apply
    if os.getppid() != parent:  # it died before the line above took effect
        os._exit(1)


def lower_priority(increment: int) -> int:
    """Add ``increment`` to this process's niceness (children inherit it); the new value."""
    if increment <= 0:
        return os.nice(0)
    try:
        return os.nice(increment)
    except OSError:
        logger.warning("could not lower the worker's CPU priority", exc_info=True)
        return os.nice(0)
