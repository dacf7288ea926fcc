"""Deals of the 二人 engine with players seated by text, as the player tests play them: validated, the seats'
players closed after, and the records as one frame to compare deal for deal."""

import pandas as pd

from sim.core.ruleset import load_ruleset
from sim.erren import engine


def play(ruleset, texts, deals, seed=3, validate=True, **keywords):
    players = engine.Players.parse(texts)
    try:
        return engine.play(load_ruleset(ruleset), players, seed=seed, n_deals=deals, validate=validate, **keywords)
    finally:
        players.close()


def deal_frame(records):
    return pd.DataFrame({**records.columns, "fans": list(records.fans)})
