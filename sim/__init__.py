"""Rulesets, game engine, heuristics, runner and the `mjsim` command line."""
