"""The headline tables of `results/README.md`: fan frequencies of the three 二人 rulesets, the 富贵豆 table of
the default rooms and a league of the four heuristics, the fan and money tables of both 血战 rulesets, and
MCR's fans and winning fan totals beside recorded human play, from runs of a million deals each; then the expected-value player `ev` against the heuristics at every
table with the rating lists of the shipped players there, what its search's depth is worth, and how well its
chances of winning come true (`mjsim headline`)."""

import itertools
import os
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.leagues import league_matrix
from analysis.rating_inputs import Table, league_pairings, rating_list
from analysis.ratings import RESAMPLES as RATING_RESAMPLES
from analysis.ratings import SEED as RATING_SEED
from sim.core.result_files import versions, write_text_atomically
from sim.core.rooms import load_rooms
from sim.core.ruleset import load_ruleset
from sim.core.statistics import Z_95, wilson_interval
from sim.families import family_of, ruleset_ids, tables
from sim.runs import duel, runner

DEFAULT_RULESET = "erren"  # the default ruleset of every command: its 富贵豆 table and the league are shown
# Read from the registry (sim.families): each shipped ruleset at its default seat count, greedy in every seat,
# and every table of every ruleset for ev's duels (one ev against the others at tables of three and four).
GREEDY_TABLES = tuple((ruleset_id, load_ruleset(ruleset_id).players[0]) for ruleset_id in ruleset_ids())
EV_TABLES = tuple((ruleset_id, seats, "alternate" if seats == 2 else "one") for ruleset_id, seats in tables())
ROUND_ROBIN = ("ev", "random", "greedy", "value", "defensive")  # ev first: the one alone in its pairs at 3 and 4 seats
HEURISTICS = ("random", "greedy", "value", "defensive")
FAN_COLUMNS = ["name", "value", "deals_scored", "per_deal", "per_win", "per_win_low", "per_win_high"]
PERCENT = {"per_deal": "{:.4%}", "per_win": "{:.4%}", "per_win_low": "{:.4%}", "per_win_high": "{:.4%}", "deals_scored": "{:,}"}


def _markdown(frame: pd.DataFrame, formats: dict) -> str:
    header = "| " + " | ".join(frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    lines = [header, rule]
    for row in frame.itertuples(index=False):
        cells = [formats.get(column, "{}").format(value) for column, value in zip(frame.columns, row, strict=True)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def build(results: Path, deals: int, league_walls: int, seed: int, progress=None, ev_walls: int = 20_000,
          ev_deals: int = 100_000) -> Path:
    """Run (or resume) the headline runs under `results` and write `results/README.md`; `ev_walls` walls for
    each of ev's duels, `ev_deals` deals for each run that checks its chances of winning (0: no ev sections)."""
    sections = []
    runs = {}
    for ruleset_id, seats in GREEDY_TABLES:
        config = runner.RunConfig(ruleset_id, ("greedy",) * seats, deals, seed)
        runs[ruleset_id] = runner.run(config, results / f"headline-{ruleset_id}", resume=True, progress=progress)
    for ruleset_id, seats in GREEDY_TABLES:
        result = runs[ruleset_id]
        if "money" in result.money:  # several wins a deal, money by source: the 血战 family's tables
            continue
        if family_of(load_ruleset(ruleset_id)).name == "mcr":  # four seats, and the human records to compare with
            continue
        table = result.fan_table
        table = table[table["deals_scored"] > 0][FAN_COLUMNS]
        outcomes = result.outcomes.set_index("statistic")["value"]
        points = ""
        if "mean_points" in outcomes:  # erren-challenge prices its wins in points
            points = (f" A win scores {outcomes['mean_points']:,.0f} points on average (median "
                      f"{outcomes['points_q50']:,.0f}, 90% quantile {outcomes['points_q90']:,.0f}); "
                      f"{outcomes['limit_share_of_wins']:.3%} of wins are 役满.")
        sections.append(
            f"## Fan frequencies: `{ruleset_id}`, greedy v greedy, {deals:,} deals (seed {seed})\n\n"
            f"Wins {outcomes['win_share']:.2%} of deals (self-drawn {outcomes['self_drawn_share_of_wins']:.2%} of wins), "
            f"draws {outcomes['draw_share']:.2%}; mean fan total of a win {outcomes['mean_fan_total']:.2f}, paid per win "
            f"{outcomes['mean_paid_per_win']:,.2f} ({'points' if 'mean_points' in outcomes else 'fans + flowers, doubled'})."
            f"{points} Fans "
            "scored at least once, by value; shares with 95% Wilson intervals.\n\n"
            + _markdown(table, PERCENT)
        )
    beans = runs[DEFAULT_RULESET].beans
    beans = beans[["room", "stake", "fee", "role", "count", "mean", "std", "q10", "q50", "q90", "house_share_of_moved"]]
    rooms_file = family_of(load_ruleset(DEFAULT_RULESET)).rooms_file
    sections.append(
        f"## 富贵豆 per deal in the default rooms: `{DEFAULT_RULESET}`, greedy v greedy, {deals:,} deals\n\n"
        f"The rooms' stakes and fees are the illustrative assumptions of `{rooms_file.relative_to(rooms_file.parents[2]).as_posix()}`.\n\n"
        + _markdown(beans, {"mean": "{:,.1f}", "std": "{:,.1f}", "q10": "{:,.0f}", "q50": "{:,.0f}", "q90": "{:,.0f}",
                            "count": "{:,}", "house_share_of_moved": "{:.2%}"})
    )
    room = load_rooms(None, rooms_file)[0]
    league = duel.league(load_ruleset(DEFAULT_RULESET), list(HEURISTICS), league_walls, seed, room)
    matrix = league_matrix(league).reset_index().rename(columns={"player": "row over column"})
    sections.append(
        f"## League of the four heuristics: `{DEFAULT_RULESET}`, {league_walls:,} walls per pair, each played twice with the seats swapped\n\n"
        f"The row player's mean fans per deal less the column player's ({room.name}: one bean per fan, no fee).\n\n"
        + _markdown(matrix, {name: "{:+.3f}" for name in HEURISTICS})
    )
    for ruleset_id, seats in GREEDY_TABLES:
        if "money" in runs[ruleset_id].money:
            sections.append(_xuezhan_section(ruleset_id, seats, deals, seed, runs[ruleset_id]))
    for ruleset_id, seats in GREEDY_TABLES:
        if family_of(load_ruleset(ruleset_id)).name == "mcr":
            sections.append(mcr_section(ruleset_id, seats, deals, seed, runs[ruleset_id]))
    if ev_walls and ev_deals:
        sections.extend(_ev_sections(results, ev_walls, ev_deals, seed, progress))
    header = (
        "# Headline results\n\n"
        f"Regenerated by `mjsim headline` (`--deals {deals}`, `--league-walls {league_walls}`, `--seed {seed}`, "
        f"`--ev-walls {ev_walls}`, `--ev-deals {ev_deals}`),\n"
        f"which runs or resumes the runs in `results/headline-<ruleset>/` (the {len(GREEDY_TABLES)} rulesets) and\n"
        "`results/headline-ev-<ruleset>-<seats>/` (ev against greedy) and rewrites this file.\n"
        f"Versions: {', '.join(f'{key} {value}' for key, value in versions().items())}.\n"
    )
    return write_text_atomically(results / "README.md", header + "\n" + "\n\n".join(sections) + "\n")


def _xuezhan_section(ruleset_id: str, seats: int, deals: int, seed: int, result) -> str:
    """Fan frequencies (per deal and per win: a 血战 deal has several wins) and the money tables in units."""
    outcomes = result.outcomes.set_index("statistic")["value"]
    fans = result.fan_table[result.fan_table["deals_scored"] > 0][FAN_COLUMNS]
    money = result.money["money"]
    units = money[money["room"] == money["room"].iloc[0]][["source", "count", "mean", "std", "q01", "q10", "q50", "q90", "q99"]]
    wins = result.money["wins"][["win_type", "count", "mean", "std", "q50", "q90", "mean_value", "mean_payers"]]
    seat_table = result.money["seats"]
    seat_table = seat_table[seat_table["room"] == seat_table["room"].iloc[0]]
    seat_table = seat_table[["group", "deals", "win_rate", "mean_money", "mean_money_low", "mean_money_high",
                             "mean_win", "mean_kong", "mean_chajiao", "mean_guansi"]]
    number = "{:,.3f}"
    return (
        f"## `{ruleset_id}`, {seats} x greedy, {deals:,} deals (seed {seed})\n\n"
        f"{outcomes['wins_per_deal']:.2f} wins a deal (self-drawn {outcomes['self_drawn_share_of_wins']:.2%} of wins, "
        f"several winners on one discard in {outcomes['multiple_winners_on_one_discard_share']:.2%} of deals), "
        f"wall run out with two or more players in (查叫) in {outcomes['draw_share']:.2%} of deals; mean value of a win "
        f"{outcomes['mean_win_value']:.2f} units, paid per win {outcomes['mean_paid_per_win']:.2f} units (by all its "
        "payers).\n\n"
        "Fans scored at least once, by value; per deal = share of deals where some win scored it; per win with "
        "95% Wilson intervals.\n\n"
        + _markdown(fans, PERCENT)
        + "\n\nMoney per seat and deal, in units of the base stake, by source (all = win + kong + 查叫 + 关死).\n\n"
        + _markdown(units, {"count": "{:,}", "mean": number, "std": number, "q01": "{:,.0f}", "q10": "{:,.0f}",
                            "q50": "{:,.0f}", "q90": "{:,.0f}", "q99": "{:,.0f}"})
        + "\n\nThe winner's money from a win, in units, by way of winning.\n\n"
        + _markdown(wins, {"count": "{:,}", "mean": "{:,.2f}", "std": "{:,.2f}", "q50": "{:,.0f}", "q90": "{:,.0f}",
                           "mean_value": "{:,.2f}", "mean_payers": "{:,.2f}"})
        + "\n\nPer seat and dealer / non-dealer: win rate and mean money per deal (units, 95% interval), and its sources.\n\n"
        + _markdown(seat_table, {"deals": "{:,}", "win_rate": "{:.2%}", "mean_money": number, "mean_money_low": number,
                                 "mean_money_high": number, "mean_win": number, "mean_kong": number, "mean_chajiao": number,
                                 "mean_guansi": number})
    )


# The shape of human play at the MCR table: the fan totals (flowers aside) of 992 recorded four-player wins on
# tziakcha (雀渣), as the GB-Mahjong miner's verification report summarises them. Only these three figures are
# published, so the comparison is of the mean, the median and the 90% quantile.
HUMAN_WINS = 992
HUMAN_FAN_TOTALS = {"mean": 15.1, "median": 13, "90% quantile": 24}
# The bins of the distribution of winning fan totals: from the minimum of 8 up, wider as wins grow rarer
FAN_TOTAL_BINS = (8, 9, 10, 12, 16, 24, 32, 48, 64, 88)


def fan_total_distribution(totals: np.ndarray, bins=FAN_TOTAL_BINS) -> pd.DataFrame:
    """Wins by fan total (flowers aside) in the half-open ranges that `bins` start, the last one open: the
    count, the share of wins with its 95% Wilson interval, and the share at or below the range's top."""
    rows = []
    for index, low in enumerate(bins):
        high = bins[index + 1] - 1 if index + 1 < len(bins) else None
        inside = (totals >= low) & (totals <= high if high is not None else True)
        count = int(inside.sum())
        share_low, share_high = wilson_interval(count, len(totals))
        label = f"{low}" if high == low else (f"{low}-{high}" if high is not None else f"{low} and more")
        rows.append({"fan_total": label, "wins": count, "share": count / len(totals), "share_low": float(share_low),
                     "share_high": float(share_high),
                     "at_most": float((totals <= high).mean()) if high is not None else 1.0})
    return pd.DataFrame(rows)


def mcr_section(ruleset_id: str, seats: int, deals: int, seed: int, result) -> str:
    """MCR's fan frequencies, the distribution of winning fan totals, and how close the simulated players come
    to the shape of recorded human play (HUMAN_FAN_TOTALS)."""
    outcomes = result.outcomes.set_index("statistic")
    records = result.records
    totals = records["fan_total"].to_numpy()[records["winner"].to_numpy() >= 0].astype(np.int64)
    half = Z_95 * totals.std(ddof=1) / np.sqrt(len(totals))
    simulated = {"mean": totals.mean(), "median": float(np.median(totals)), "90% quantile": float(np.quantile(totals, 0.9))}
    comparison = pd.DataFrame([{"statistic": name, "simulated": simulated[name], "human": human,
                                "simulated_over_human": simulated[name] / human}
                               for name, human in HUMAN_FAN_TOTALS.items()])
    fans = result.fan_table[result.fan_table["deals_scored"] > 0][FAN_COLUMNS]
    value = outcomes["value"]
    return (
        f"## `{ruleset_id}`, {seats} x greedy, {deals:,} deals (seed {seed})\n\n"
        f"Wins {value['win_share']:.2%} of deals (self-drawn {value['self_drawn_share_of_wins']:.2%} of wins), "
        f"draws (荒庄) {value['draw_share']:.2%}. A win's fan total (flowers aside) is {totals.mean():.2f} on average "
        f"[{totals.mean() - half:.2f}, {totals.mean() + half:.2f}], median {simulated['median']:.0f}, 90% quantile "
        f"{simulated['90% quantile']:.0f}; the winner holds {value['mean_winner_flowers']:.2f} flowers.\n\n"
        f"**Beside human play.** {HUMAN_WINS} recorded human wins at four-player MCR (tziakcha records, summarised in "
        "the GB-Mahjong miner's verification report) have a mean fan total of "
        f"{HUMAN_FAN_TOTALS['mean']}, median {HUMAN_FAN_TOTALS['median']} and 90% quantile "
        f"{HUMAN_FAN_TOTALS['90% quantile']}. The simulated wins reach {simulated['mean'] / HUMAN_FAN_TOTALS['mean']:.0%} "
        f"of the human mean and {simulated['90% quantile'] / HUMAN_FAN_TOTALS['90% quantile']:.0%} of its 90% quantile: "
        "greedy takes the first win the minimum of 8 allows, where people build toward bigger hands, so these "
        "tables describe fast, low wins (a lower bound on what rich hands are worth at a human table).\n\n"
        + _markdown(comparison, {"simulated": "{:.1f}", "human": "{:g}", "simulated_over_human": "{:.0%}"})
        + "\n\nWins by fan total (flowers aside): the share of wins with its 95% Wilson interval, and the share "
        "at or below the range's top.\n\n"
        + _markdown(fan_total_distribution(totals), {"wins": "{:,}", "share": "{:.3%}", "share_low": "{:.3%}",
                                                      "share_high": "{:.3%}", "at_most": "{:.2%}"})
        + "\n\nFans scored at least once, by value; shares with 95% Wilson intervals.\n\n"
        + _markdown(fans, PERCENT)
    )


def _room_of(ruleset):
    return load_rooms(None, family_of(ruleset).rooms_file_for(ruleset))[0]


def _duel(ruleset_id: str, first: str, second: str, walls: int, seed: int, seats: int, lineup: str):
    """One duel in the ruleset's first room (run in a worker process)."""
    ruleset = load_ruleset(ruleset_id)
    return duel.duel(ruleset, first, second, walls, seed, _room_of(ruleset), seats, lineup)


def _pair_walls(ruleset_id: str, first: str, second: str, walls: int, seed: int, seats: int, lineup: str):
    """One pair of a round robin on walls 0 .. `walls` - 1 in the ruleset's first room (run in a worker process)."""
    ruleset = load_ruleset(ruleset_id)
    return duel.play_walls(ruleset, first, second, seed, 0, walls, _room_of(ruleset), seats, lineup, luck=True)


def _offered(ruleset_id: str, players) -> tuple:
    """Those of `players` the ruleset's family seats: ev and the heuristics it offers (MCR has no value or
    defensive player)."""
    offered = family_of(load_ruleset(ruleset_id)).players.NAMES
    return tuple(player for player in players if player == "ev" or player in offered)


def round_robins(walls: int, seed: int, tables=EV_TABLES, players=ROUND_ROBIN, extra_duels=()) -> tuple[dict, list]:
    """Every pair of `players` at each table on the same `walls` walls, and the `extra_duels` (arguments of
    ``_duel``), on worker processes, one per core (each pair a pure function of its walls; ev's pairs first,
    the longest, so that the cores finish together): {(ruleset id, seats, lineup): the league table
    (``sim.runs.duel.league_table``)}, and the extra duels' results."""
    pairs = [(table, first, second) for table in tables
             for first, second in itertools.combinations(_offered(table[0], players), 2)]
    pairs.sort(key=lambda pair: "ev" not in pair[1:])  # stable: the order within each kind is kept
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1, mp_context=get_context("spawn")) as pool:
        extra = [pool.submit(_duel, *arguments) for arguments in extra_duels]
        played = [pool.submit(_pair_walls, ruleset_id, first, second, walls, seed, seats, lineup)
                  for (ruleset_id, seats, lineup), first, second in pairs]
        leagues = {table: duel.league_table((first, second, future.result())
                                            for (found, first, second), future in zip(pairs, played, strict=True)
                                            if found == table)
                   for table in tables}
        return leagues, [future.result() for future in extra]


def _ev_sections(results: Path, walls: int, deals: int, seed: int, progress=None) -> list[str]:
    """ev against each heuristic at each table (its pairs of one round robin of the shipped players per table,
    whose rating lists follow), ev at depths 0 and 2 against the default, and the calibration table of a run
    of ev against greedy at each table."""
    number = "{:+,.3f}"
    depth_duels = [(DEFAULT_RULESET, text, "ev", walls, seed, 2, "alternate") for text in ("ev:depth=0", "ev:depth=2")]
    leagues, depth_results = round_robins(walls, seed, extra_duels=depth_duels)
    rows, depth_rows = [], []
    for (ruleset_id, seats, lineup), table in leagues.items():
        for row in table[table["player"] == "ev"].itertuples():
            rows.append({"ruleset": ruleset_id, "seats": f"{seats}" + (" (one ev)" if lineup == "one" else ""),
                         "opponent": row.opponent, "ev_wins": row.win_rate, "ev_mean": row.mean_beans,
                         "ev_low": row.mean_beans_low, "ev_high": row.mean_beans_high,
                         "difference": row.beans_difference, "z": row.z})
    for (_, first, *_), result in zip(depth_duels, depth_results, strict=True):
        low, high = result.difference_interval
        depth_rows.append({"player": first, "against": "ev (depth 1)", "difference": result.difference,
                           "low": low, "high": high, "z": result.z})
    duels = pd.DataFrame(rows)
    depths = pd.DataFrame(depth_rows)
    sections = [
        f"## `ev` against the heuristics, {walls:,} walls per duel (seed {seed})\n\n"
        "`mjsim duel ev OPPONENT --deals N --ruleset R` (`--lineup one` at the tables of three and four: one ev "
        "against the opponent in every other seat, ev taking each seat in turn; `--seats 2` at the two-player "
        "sanren-liangfang). Money per deal of ev's seat: fans in erren and erren-classic, points in "
        "erren-challenge, units of the base stake at 血战 tables, points at the MCR table, no fee; `difference` is ev's mean less the "
        "opponent's per seat, and its z.\n\n"
        + _markdown(duels, {"ev_wins": "{:.2%}", "ev_mean": number, "ev_low": number, "ev_high": number,
                            "difference": number, "z": "{:.1f}"}),
        ratings_section(leagues, walls, seed),
        f"## What `ev`'s search depth is worth: `erren`, {walls:,} walls\n\n"
        "Depth 1 (the default) looks one draw ahead of a hand a tile from ready; depth 0 searches ready hands "
        "only; depth 2 also looks two draws ahead of a hand two tiles from ready. Difference in fans per deal "
        "against the default, with its 95% interval.\n\n"
        + _markdown(depths, {"difference": number, "low": number, "high": number, "z": "{:.1f}"}),
    ]
    sections += [calibration_section(results, ruleset_id, seats, deals, seed, progress)
                 for ruleset_id, seats, _ in EV_TABLES]
    return sections


def ratings_section(leagues: dict, walls: int, seed: int) -> str:
    """The rating list of each table's round robin ({(ruleset id, seats, lineup): league table}): one rating
    per player against greedy, with its 95% bootstrap interval (``analysis.ratings``, as `mjsim rate`)."""
    parts = [
        f"## Rating lists of the shipped players at every table, {walls:,} walls per pair (seed {seed})\n\n"
        "Each player's rating is its money per seat and deal against greedy's (fans in erren and erren-classic, "
        "points in erren-challenge, units of the base stake at 血战 tables, points at the MCR table, no fee): the least-squares fit of "
        "every pair's mean difference in a round robin on duplicate walls (the pairs of the table above, and "
        "the heuristics' among themselves; one player alone against the other in every other seat at three and "
        f"four seats), with 95% intervals from {RATING_RESAMPLES:,} bootstrap resamples of the walls (seed "
        f"{RATING_SEED}), every pair resampled on the same walls (the model of `mjsim rate`: "
        "docs/duels-and-leagues.md#ratings). Each pair's differences have the luck of the draws taken out. "
        "A rating sums up every opponent alike: a player that wins far more from random than greedy does (ev) "
        "rates far above its own duel against greedy, which is in the table above."
    ]
    for (ruleset_id, seats, lineup), table in leagues.items():
        ruleset = load_ruleset(ruleset_id)
        room = _room_of(ruleset)
        players = list(dict.fromkeys(table["player"]))
        config = {"players": players, "player_names": [family_of(ruleset).player_name(player) for player in players],
                  "seed": seed}
        pairings, _ = league_pairings(table, config, f"the round robin of {ruleset_id}")
        rated_at = Table(ruleset_id, ruleset.source, seats, room.name, room.stake, room.fee)
        ratings, _ = rating_list(rated_at, pairings, None, RATING_RESAMPLES, RATING_SEED)
        frame = ratings.table().rename(columns={"low": "low (95%)", "high": "high (95%)"})
        parts.append(f"### `{ruleset_id}` at {seats} seats{' (one player alone)' if lineup == 'one' else ''}\n\n"
                     + _markdown(frame, {"rating": "{:+,.3f}", "low (95%)": "{:+,.3f}", "high (95%)": "{:+,.3f}",
                                         "walls": "{:,}"}))
    return "\n\n".join(parts)


def calibration_section(results: Path, ruleset_id: str, seats: int, deals: int, seed: int, progress=None) -> str:
    """The calibration table of a run of ev against greedy at one table (run or resumed under `results`)."""
    players = ("ev",) + ("greedy",) * (seats - 1)
    config = runner.RunConfig(ruleset_id, players, deals, seed)
    result = runner.run(config, results / f"headline-ev-{ruleset_id}-{seats}", resume=True, progress=progress)
    table = result.calibration[["bucket", "reports", "deals", "mean_chance", "win_share", "gap", "gap_low",
                                "gap_high", "within"]]
    held = int(table["within"].sum())
    return (
        f"## `ev`'s chances of winning: `{ruleset_id}`, ev against {seats - 1} x greedy, {deals:,} deals (seed {seed})\n\n"
        f"{held} of {len(table)} gaps hold zero in their interval (simultaneous at 95% over the tenths, "
        "clustered by deal; docs/runs-and-tables.md#the-calibration-table).\n\n"
        + _markdown(table, {"reports": "{:,}", "deals": "{:,}", "mean_chance": "{:.2%}", "win_share": "{:.2%}",
                            "gap": "{:+.2%}", "gap_low": "{:+.2%}", "gap_high": "{:+.2%}"})
    )
