"""Running puzzle files: :mod:`.outcome` takes one file to a verified :class:`~.outcome.Outcome`
(never raising for bad input); :mod:`.bench` runs many in one process and tabulates them.

The other modules: :mod:`.executors`, where a batch's tasks run; :mod:`.jobs`, what a batch runs: one
:class:`Job` per puzzle, read on the machine that starts the batch; :mod:`.runner`, a batch: jobs through an
executor, rows to a JSON Lines file as they finish, resumable; :mod:`.tasks`, what a worker does with one job.
"""
