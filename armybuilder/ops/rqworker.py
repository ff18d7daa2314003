"""The RQ worker class ``muster_worker`` runs: RQ's non-forking worker, told to stop in a
second or two, every time.

RQ listens for commands on a pub/sub channel in a thread that waits up to 60 s for each
message; on a stop RQ unsubscribes and then waits for that thread, and redis-py 8 waits for
it without a bound. When the unsubscribe answer came in before the thread was told to
stop, the thread went back to its 60 s wait and the worker took up to a minute to stop
(seen about once in twenty stops): supervisord's stop wait ran out and killed it, and a
deploy or a test that stops a worker waited. Here the thread wakes every second, so a stop
waits at most that.
"""

from __future__ import annotations

from rq.worker import SimpleWorker

PUBSUB_WAKE_SECONDS = 1


class Worker(SimpleWorker):
    def subscribe(self) -> None:
        self.log.info("Worker %s: subscribing to channel %s", self.name, self.pubsub_channel_name)
        self.pubsub = self.connection.pubsub()
        self.pubsub.subscribe(**{self.pubsub_channel_name: self.handle_payload})
        self.pubsub_thread = self.pubsub.run_in_thread(
            sleep_time=PUBSUB_WAKE_SECONDS,
            daemon=True,
            exception_handler=self._pubsub_exception_handler,
        )
