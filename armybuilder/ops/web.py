"""What granian's web processes serve under ``make run``: the app (``armybuilder.asgi``),
in a process that ends when granian's main process does.

granian starts its web processes itself; killed with SIGKILL, its main process cannot stop
them, and they would go on serving the port beside the granian supervisord starts next
(and after ``make run`` is stopped). So each web process watches its parent: once it is
gone (the process is handed to another parent), it stops, SIGTERM first, then for good.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time

logger = logging.getLogger(__name__)
WATCH_SECONDS = 0.5
GRACE_SECONDS = 3.0


def exit_when_orphaned(parent: int | None = None) -> threading.Thread:
    """Watch (in a daemon thread) that this process's parent is still ``parent``."""
    parent = os.getppid() if parent is None else parent

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_SECONDS)
        logger.warning("web process %d: granian (%d) is gone; stopping", os.getpid(), parent)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(GRACE_SECONDS)
        os._exit(1)  # SIGTERM did not end it

    thread = threading.Thread(target=watch, name="muster-parent-watch", daemon=True)
    thread.start()
    return thread


exit_when_orphaned()

from armybuilder.asgi import application  # noqa: E402 (the watch first: it must not wait)

__all__ = ["application", "exit_when_orphaned"]
