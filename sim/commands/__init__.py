"""What the ``mjsim`` commands do beyond parsing and printing: the options' checks, the benchmarks, warm-up,
the demo, the shanten report, the rules book, duels and leagues, economics, ev's calibration and the headline
tables. ``sim.cli`` parses, calls these and prints (docs/layout.md)."""
