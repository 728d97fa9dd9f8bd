"""Running puzzle files: :mod:`.outcome` takes one file to a verified :class:`~.outcome.Outcome`
(never raising for bad input); :mod:`.bench` runs many in one process and tabulates them.
"""
