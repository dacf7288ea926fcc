"""Seed 004's 闯关 game (ruleset ``erren-challenge``), all of it beside the 二人 family it belongs to: its
scoring checks, the assists and the campaign of levels played inside numba, the levels file, its runs
(``mjsim challenge``) and their tables, the hand generator over all 34 kinds, and how a hand is put to the
PyPI ``mahjong`` package, its independent reference (docs/rules/erren-challenge.md). Its fan evaluator is
``kernels.fans.challenge``."""
