"""A league's results as a matrix (``mjsim league``, ``sim.runs.duel.league``): what each pairing's row player
won per deal more than its column player, for the text, the report and the headline tables."""

import pandas as pd


def league_matrix(table: pd.DataFrame) -> pd.DataFrame:
    """The row player's mean beans per deal less the column player's (0 on the diagonal)."""
    order = list(dict.fromkeys(table["player"]))
    matrix = table.pivot(index="player", columns="opponent", values="beans_difference").reindex(index=order, columns=order)
    return matrix.fillna(0.0)
