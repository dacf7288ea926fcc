"""What the ``mjsim`` commands do beyond parsing and printing: the benchmarks, warm-up, the demo, the
shanten report, the rules book and the headline tables. ``sim.cli`` parses, calls these and prints
(docs/layout.md)."""
