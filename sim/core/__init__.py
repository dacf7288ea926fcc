"""The shared model every layer above builds on: tile notation, action codes, rulesets as data and the
rules of a deal, random streams, the win context, the event-log schema, rooms, statistics, the run
directory's files, and the limits mjsim holds its inputs to. It imports only ``kernels``
(docs/layout.md)."""
