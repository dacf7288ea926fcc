"""`mjsim rate` and `mjsim league --ratings`: rating lists (``analysis.ratings``) of saved duels and leagues
(``analysis.rating_inputs``) or of a league just played, as text, JSON or a Parquet table with its
configuration, seed and versions."""

import json
from pathlib import Path

from analysis.rating_inputs import (
    RatingInputError,
    Table,
    choose_anchor,
    league_pairings,
    player_labels,
    rating_list,
    read_rated_files,
    ruleset_of,
)
from analysis.ratings import RESAMPLES, SEED, Ratings, RatingsError
from sim.commands.options import UserError, check_own_output, within
from sim.core.result_files import write_table
from sim.core.size_limits import LARGEST_SEED
from sim.families import family_of

LARGEST_RESAMPLES = 1_000_000




def rate_text(paths: list[Path], anchor: str | None, as_json: bool, out: Path | None, resamples: int, seed: int) -> str:
    """The rating list of the saved duels and leagues at `paths`: what `mjsim rate` prints, and with `out` the
    list written there as Parquet."""
    within("--resamples", resamples, 2, LARGEST_RESAMPLES)
    within("--seed", seed, 0, LARGEST_SEED)
    if not paths:
        raise UserError("give one or more tables written by mjsim duel --out or mjsim league --out")
    if out is not None:
        check_own_output(out, "rate", "a rating table written by mjsim rate --out")
    try:
        table, pairings, files = read_rated_files(paths)
        ratings, canonical = rating_list(table, pairings, anchor, resamples, seed)
    except (RatingInputError, RatingsError) as error:
        raise UserError(str(error)) from None
    adjusted = sum(found.adjusted for found in files)
    text = (json.dumps(_json(ratings, canonical, table, pairings, adjusted, paths), ensure_ascii=False, indent=2) + "\n"
            if as_json else format_ratings(ratings, table, len(pairings), adjusted))
    if out is not None:
        frame = ratings.table().rename(columns={"player": "label"})
        frame.insert(0, "player", [canonical[label] for label in ratings.players])
        config = {"command": "rate", "inputs": [str(path) for path in paths], "anchor": canonical[ratings.anchor],
                  "resamples": resamples, "seed": seed, "ruleset": table.ruleset, "ruleset_source": table.ruleset_source,
                  "seats": table.seats, "room": table.room, "stake": table.stake, "fee": table.fee,
                  "pairings": len(pairings), "luck_adjusted_pairings": adjusted}
        written = write_table(frame, out, config)
        if not as_json:  # JSON stays one document
            text += f"wrote {written}\n"
    return text


def league_anchor(ruleset, players: list[str], anchor: str | None) -> str:
    """The canonical text of a league's anchor, checked before any deal is played (one error line if it is
    not one of the league's players)."""
    names = list(dict.fromkeys(family_of(ruleset).player_name(player) for player in players))
    try:
        return choose_anchor(names, player_labels(names, ruleset), ruleset, anchor)
    except RatingInputError as error:
        raise UserError(str(error)) from None


def league_ratings_text(frame, config: dict, table: Table, anchor: str) -> str:
    """The rating list of a league just played (its table ``sim.runs.duel.league_table`` and configuration)."""
    pairings, adjusted = league_pairings(frame, config, "the league")
    ratings, _ = rating_list(table, pairings, anchor, RESAMPLES, SEED)
    return format_ratings(ratings, table, len(pairings), adjusted)


def _per(table: Table) -> str:
    return "per deal" if table.seats == 2 else "per seat and deal"


def _currency(table: Table) -> str:
    ruleset = ruleset_of(table)
    return family_of(ruleset).currency_for(ruleset) if ruleset is not None else "money"


def format_ratings(ratings: Ratings, table: Table, pairings: int, adjusted: int) -> str:
    """The list as text: one line per player, best first, with its 95% interval and walls."""
    luck = f", {adjusted} of them luck-adjusted" if adjusted else ""
    lines = [f"ratings in {_currency(table)} {_per(table)} ({table.room}), {ratings.anchor} = 0: least squares "
             f"over {pairings} pairing{'s' if pairings != 1 else ''}{luck}; 95% intervals from {ratings.resamples:,} "
             f"bootstrap resamples of the walls (seed {ratings.seed})"]
    columns = [list(ratings.players), [f"{value:+.3f}" for value in ratings.rating],
               [f"[{low:+.3f}, {high:+.3f}]" for low, high in zip(ratings.low, ratings.high, strict=True)],
               [f"{walls:,}" for walls in ratings.walls]]
    header = ["player", "rating", "95% interval", "walls"]
    widths = [max(len(title), *(len(cell) for cell in column)) for title, column in zip(header, columns, strict=True)]
    for cells in [header, *zip(*columns, strict=True)]:
        name, *figures = cells
        lines.append("  " + "  ".join([name.ljust(widths[0]), *(cell.rjust(width) for cell, width in zip(figures, widths[1:], strict=True))]))
    return "".join(line + "\n" for line in lines)


def _json(ratings: Ratings, canonical: dict, table: Table, pairings, adjusted: int, paths) -> dict:
    return {
        "ruleset": table.ruleset, "seats": table.seats, "room": table.room, "stake": table.stake, "fee": table.fee,
        "currency": _currency(table), "per": _per(table), "anchor": canonical[ratings.anchor],
        "resamples": ratings.resamples, "seed": ratings.seed, "inputs": [str(path) for path in paths],
        "luck_adjusted_pairings": adjusted,
        "pairings": [{"first": pairing.first, "second": pairing.second, "walls": len(pairing.differences),
                      "mean_difference": pairing.mean, "walls_seed": pairing.group} for pairing in pairings],
        "ratings": [{"player": canonical[label], "label": label, "rating": float(rating), "low": float(low),
                     "high": float(high), "walls": int(walls)}
                    for label, rating, low, high, walls in zip(ratings.players, ratings.rating, ratings.low,
                                                               ratings.high, ratings.walls, strict=True)],
    }
