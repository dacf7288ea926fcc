"""The player protocol every family shares, blind to which family seats it: player texts, Python, numba and
``exec:`` seats, the seating of a table, the step environment's shared part, what a family provides
(``family``), and the maths both families' ``ev`` players share. It imports only ``sim.core`` and
``kernels`` (docs/layout.md)."""
