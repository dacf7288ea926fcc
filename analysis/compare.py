"""Two runs side by side, deal by deal: what a change of rules (or of players) does to the tables (`mjsim compare`).

A designer plays the same seed twice, once under a variant ruleset, and asks what changed: every fan's
share of wins, wins, draws, the ways of winning, the value of a win and what it is paid, the money per deal
in each room, and the chances of winning a reporting player gave. Each row holds the statistic in run A,
in run B, their difference B - A with its 95% interval, and the counts behind each side.

Pairing. A deal's wall is a shuffle of the family's wall template driven by a random stream of (seed,
deal), so two runs with the same family, seats, seed, session length and wall template deal the same walls,
deal by deal; ``pairing_problem`` checks those, and that the columns both record sets carry about the start
of a deal (the dealer, each seat's initial shanten) agree on every common deal. Paired runs are compared on
their common deals (the first min(n_A, n_B)), and the interval comes from the per-deal differences, which
cancel the luck of the walls the two runs share. Runs that cannot be paired are refused, unless asked for
``unpaired``: then each run's deals are an independent sample (Welch: the two variances added).

The intervals. A statistic is a ratio of per-deal sums, R = sum(x) / sum(w): w = 1 for a mean per deal
(a share of deals, money per deal), w = the deal's wins for a share of wins or a mean per win, w = its
reports for a mean reported chance. Its linearised values z_i = (x_i - R w_i) / mean(w) (the delta method)
have mean zero and give R's standard error as sd(z) / sqrt(n); paired, d_i = z_B,i - z_A,i and the
difference's standard error is sd(d) / sqrt(n). Every figure is a sum over deals, so the intervals are
clustered by deal: right for 血战, where one deal has several wins. ``tests/kernels/naive.py`` has the textbook
form (the gradient and the covariance matrix), against which the tests check these.

A row whose count (the events behind it: the deals or wins counted in a share, the wins or reports behind
a mean per win or per report, the deals in which a per-deal quantity was not zero) is below ``FEWEST`` on
either side is flagged: too few to tell, whatever its interval says.
"""

import json
import math
from dataclasses import asdict, dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np
import pandas as pd

from kernels.fan_ids import FAN_IDS
from sim.core.result_files import write_table
from sim.core.rooms import Room, load_rooms
from sim.core.run_records import fan_column, load_run, read_records, read_run_file, read_win_chances
from sim.core.statistics import Z_95
from sim.core.terminal_text import display_width, pad
from sim.families import default_texts, family_of, rooms_path
from sim.players.player_text import players_label

FEWEST = 10  # occurrences on a side below which a row is too few to tell (a rare fan seen 3 times against 7)
CONFIDENCE = 0.95
WIN_TYPES = {1: ("self_drawn", "self-drawn"), 2: ("discard", "on a discard"), 3: ("robbed_kong", "robbing a kong")}  # the outcome tables' ids
SHARE_KINDS = ("share of deals", "share of wins", "mean reported chance")  # shown as percentages
COLUMNS = ("group", "statistic", "label", "kind", "a", "b", "difference", "low", "high", "count_a", "count_b", "too_few")


class CompareError(ValueError):
    """Two runs that cannot be compared as asked, or a directory that is not a run."""


@dataclass
class Side:
    """One run as the comparison reads it: where it is, its run.json, its ruleset, its records and reports."""
    directory: Path
    stored: dict  # run.json as written (the configuration, the ruleset's text, the source hash)
    config: object  # sim.core.run_records.RunConfig
    ruleset: object
    records: pd.DataFrame
    chances: pd.DataFrame  # deal, seat, chance (sim.core.run_records.read_win_chances)

    @cached_property
    def defaults(self) -> dict:
        """The default texts of the family's built-in players, which players_label leaves out."""
        return default_texts(self.ruleset)

    @property
    def players(self) -> str:
        return players_label(self.config.players, self.defaults)

    @property
    def title(self) -> str:
        return (f"{self.directory}: {self.ruleset.id}, {self.players}, {self.config.deals:,} deals, "
                f"seed {self.config.seed}")


@dataclass
class Pairing:
    paired: bool
    deals_a: int  # the deals of each run that are compared
    deals_b: int
    reason: str = ""  # unpaired: why the runs could not be paired ("" where they could, and were not asked to be)
    notes: list = field(default_factory=list)  # what else a reader must know (deals left out, ...)

    def text(self) -> str:
        if self.paired:
            line = (f"paired deal by deal on {self.deals_a:,} common deals (same seed and walls, the same start of "
                    "every deal); intervals from the per-deal differences")
        else:
            line = (f"unpaired: {self.deals_a:,} deals of A and {self.deals_b:,} of B as independent samples "
                    f"({self.reason or 'they could be paired: unpaired as asked'}); Welch intervals")
        return "; ".join([line, *self.notes])


@dataclass
class Comparison:
    a: Side
    b: Side
    pairing: Pairing
    rooms: list  # sim.core.rooms.Room, the rooms pricing the money rows
    currency: str
    rows: pd.DataFrame  # COLUMNS


# ------------------------------------------------------------------------------------- the interval maths


def linearised(x: np.ndarray, w: np.ndarray) -> tuple[float, np.ndarray | None]:
    """R = sum(x) / sum(w) and the linearised values z_i = (x_i - R w_i) / mean(w) (module text); NaN and
    None where there is no deal or sum(w) is 0 (a share of wins in a run without a win)."""
    x, w = np.asarray(x, np.float64), np.asarray(w, np.float64)
    if x.size == 0 or w.sum() == 0:
        return math.nan, None
    ratio = x.sum() / w.sum()
    return float(ratio), (x - ratio * w) / w.mean()


def difference_interval(xa, wa, xb, wb, paired: bool, z: float = Z_95) -> tuple[float, float, float, float, float]:
    """(R_A, R_B, R_B - R_A, low, high): the difference with its interval at `z` standard errors. Paired
    (the arrays deal by deal, of one length): the standard error of the per-deal differences of the
    linearised values; unpaired: the two standard errors added in quadrature (Welch). NaN where a side has
    no figure or fewer than two deals."""
    ratio_a, za = linearised(xa, wa)
    ratio_b, zb = linearised(xb, wb)
    difference = ratio_b - ratio_a
    if za is None or zb is None or min(za.size, zb.size) < 2:
        return ratio_a, ratio_b, difference, math.nan, math.nan
    if paired:
        if za.size != zb.size:
            raise ValueError("paired samples must have one value per deal on each side")
        error = float((zb - za).std(ddof=1)) / math.sqrt(za.size)
    else:
        error = math.sqrt(float(za.var(ddof=1)) / za.size + float(zb.var(ddof=1)) / zb.size)
    return ratio_a, ratio_b, difference, difference - z * error, difference + z * error


# ------------------------------------------------------------------------------------- loading and pairing


def load_side(directory: Path) -> Side:
    """The run in `directory`, every shard checked as `mjsim analyze` checks it (RunError otherwise)."""
    directory = Path(directory)
    if not directory.exists() and not directory.is_symlink():
        raise CompareError(f"{directory} does not exist")
    if not directory.is_dir():
        raise CompareError(f"{directory} is not a run directory (it is not a directory)")
    config, ruleset = load_run(directory)
    stored = read_run_file(directory)
    records = read_records(directory, config, ruleset)
    chances = read_win_chances(directory, config, ruleset)
    return Side(directory, stored, config, ruleset, records, chances)


def wall_template(ruleset) -> tuple[np.ndarray, int]:
    """The family's wall template for `ruleset` as its engine builds it (the tiles, flowers and all, before
    the shuffle), and how many of the shuffled tiles a deal plays."""
    _, template = family_of(ruleset).engine.kernel_rules(ruleset)
    return template, int(getattr(ruleset, "tiles_in_play", 0) or template.shape[0])


def _wall_text(ruleset, template: np.ndarray, in_play: int) -> str:
    played = f", {in_play} in play" if in_play != template.shape[0] else ""
    flowers = " with flowers" if getattr(ruleset, "flowers", False) else ""
    return f"{ruleset.id} deals {template.shape[0]} tiles of {ruleset.tile_set}{flowers}{played}"


def deal_start_columns(records: pd.DataFrame) -> list[str]:
    """The record columns fixed when a deal is dealt, before any player acts: the dealer, each seat's
    initial shanten."""
    return [name for name in records.columns if name == "dealer" or name.startswith("initial_shanten_")]


def pairing_problem(a: Side, b: Side) -> str | None:
    """Why the runs do not deal the same walls deal by deal, in a phrase; None where they do."""
    if len(a.config.players) != len(b.config.players):
        return f"different tables (A seats {len(a.config.players)} players, B {len(b.config.players)})"
    if a.config.seed != b.config.seed:
        return f"different seeds (A {a.config.seed}, B {b.config.seed}): every deal's wall is drawn from the seed"
    if a.config.session_length != b.config.session_length:
        return (f"different session lengths (A {a.config.session_length}, B {b.config.session_length}): the dealer "
                "of a deal is drawn differently")
    wall_a, wall_b = wall_template(a.ruleset), wall_template(b.ruleset)
    if wall_a[1] != wall_b[1] or not np.array_equal(wall_a[0], wall_b[0]):
        return f"different walls ({_wall_text(a.ruleset, *wall_a)}, {_wall_text(b.ruleset, *wall_b)})"
    common = min(len(a.records), len(b.records))
    for name in deal_start_columns(a.records):
        if name not in b.records:
            continue
        first, second = a.records[name].to_numpy()[:common], b.records[name].to_numpy()[:common]
        differing = np.flatnonzero(first != second)
        if differing.size:
            deal = int(a.records["deal"].iloc[differing[0]])
            why = (": with sessions the dealer follows the previous deal's result, so the runs part ways"
                   if name == "dealer" and a.config.session_length else "")
            return (f"the deals start differently ({name} of deal {deal:,}: A {first[differing[0]]}, B "
                    f"{second[differing[0]]}; {differing.size:,} of {common:,} deals differ){why}")
    return None


def pair(a: Side, b: Side, unpaired: bool = False) -> Pairing:
    """How the runs are compared: paired on their common deals, or (`unpaired`) as independent samples; a
    CompareError saying why where they cannot be paired and `unpaired` is not given."""
    family_a, family_b = family_of(a.ruleset), family_of(b.ruleset)
    if family_a is not family_b:
        raise CompareError(f"A ({a.ruleset.id}) is a {family_a.title} run and B ({b.ruleset.id}) a {family_b.title} "
                           "run: their tables have different statistics; compare runs of one family")
    problem = pairing_problem(a, b)
    if unpaired:
        return Pairing(False, len(a.records), len(b.records), problem or "")
    if problem is not None:
        raise CompareError(f"cannot pair {a.directory} with {b.directory}: {problem}; give --unpaired to compare them "
                           "as independent samples")
    common = min(len(a.records), len(b.records))
    notes = []
    if len(a.records) != len(b.records):
        longer = "A" if len(a.records) > len(b.records) else "B"
        notes.append(f"{longer}'s deals beyond the first {common:,} are left out (A has {len(a.records):,}, B "
                     f"{len(b.records):,})")
    return Pairing(True, common, common, "", notes)


# ------------------------------------------------------------------------------------- the statistics
#
# Each family's statistics of a run come as {statistic id: a function making its Measure}: the comparison
# makes A's and B's of one statistic, takes its row and lets them go, so that runs of millions of deals are
# compared without holding a hundred per-deal arrays of each at once.


@dataclass
class Measure:
    """One statistic of one run as per-deal sums: the figure is sum(x) / sum(w)."""
    group: str
    label: str
    kind: str
    x: np.ndarray
    w: np.ndarray
    count: int


def _per_deal(group, label, x, ones) -> Measure:
    x = np.asarray(x, np.float64)
    return Measure(group, label, "per deal", x, ones, int(np.count_nonzero(x)))


def _share_of_deals(group, label, happened, ones) -> Measure:
    x = np.asarray(happened, np.float64)
    return Measure(group, label, "share of deals", x, ones, int(x.sum()))


def _of_wins(group, label, x, wins, kind) -> Measure:
    x, wins = np.asarray(x, np.float64), np.asarray(wins, np.float64)
    return Measure(group, label, kind, x, wins, int(x.sum() if kind == "share of wins" else wins.sum()))


def fan_rows(ruleset_a, ruleset_b) -> list[tuple[str, str, str]]:
    """(fan id, label, records column stem) of every fan either ruleset scores, by the larger of its two values."""
    values = {}
    for ruleset in (ruleset_a, ruleset_b):
        for fan in ruleset.fans:
            values.setdefault(fan, max(int(ruleset_a.values[fan]), int(ruleset_b.values[fan])))
    rows = []
    for fan in sorted(values, key=lambda fan: -values[fan]):
        name = ruleset_a.fan_names.get(fan) or ruleset_b.fan_names.get(fan)
        value_a, value_b = int(ruleset_a.values[fan]), int(ruleset_b.values[fan])
        shown = str(value_a) if value_a == value_b else f"{value_a or '—'} → {value_b or '—'}"
        rows.append((FAN_IDS[fan], f"{name} ({shown})", fan_column(fan)))
    return rows


def _room_group(room: Room) -> str:
    return f"money: {room.name} (stake {room.stake:,}, fee {room.fee:,})"


def erren_measures(records: pd.DataFrame, fans, rooms: list[Room], money) -> dict:
    """The 二人 family's statistics of one run (at most one win a deal), by id."""
    winner = records["winner"].to_numpy()
    won = (winner >= 0).astype(np.float64)
    win_type = records["win_type"].to_numpy()
    dealer = records["dealer"].to_numpy()
    deals = np.arange(len(records))
    ones = np.ones(len(records))
    paid = "points" if "points" in records and (records["points"] > 0).any() else "fans + flowers, doubled"
    made = {
        "win_share": lambda: _share_of_deals("outcomes", "win share", won, ones),
        "draw_share": lambda: _share_of_deals("outcomes", "draw share", 1.0 - won, ones),
    }
    for code, (name, label) in WIN_TYPES.items():
        made[f"{name}_share_of_wins"] = lambda code=code, label=label: _of_wins(
            "outcomes", f"{label}, share of wins", (win_type == code) * won, won, "share of wins")
    made["mean_fan_total"] = lambda: _of_wins("outcomes", "mean fan total (flowers aside, before doubling)",
                                              records["fan_total"].to_numpy() * won, won, "per win")
    made["mean_paid_per_win"] = lambda: _of_wins("outcomes", f"mean paid per win ({paid})", money.winning_fans(records),
                                                 won, "per win")
    for fan, label, column in fans:
        made[f"fan.{fan}"] = lambda label=label, column=column: _of_wins(
            "fans", label, (records[column].to_numpy() > 0) * won if column in records else np.zeros(len(records)), won,
            "share of wins")
    for room in rooms:
        group = _room_group(room)

        def changes(room=room):
            return money.seat_changes(records, room)

        for seat in range(2):
            made[f"money.{room.name}.seat_{seat}"] = lambda seat=seat, group=group, changes=changes: _per_deal(
                group, f"seat {seat}, per deal", changes()[:, seat], ones)
        made[f"money.{room.name}.dealer"] = lambda group=group, changes=changes: _per_deal(
            group, "dealer, per deal", changes()[deals, dealer], ones)
        made[f"money.{room.name}.non_dealer"] = lambda group=group, changes=changes: _per_deal(
            group, "non-dealer, per deal", changes()[deals, 1 - dealer], ones)
        made[f"money.{room.name}.winner"] = lambda group=group, changes=changes: _of_wins(
            group, "the winner, per win", np.where(winner >= 0, changes()[deals, np.maximum(winner, 0)], 0.0), won, "per win")
        made[f"money.{room.name}.moved"] = lambda group=group, room=room: _per_deal(
            group, "moved between the players, per deal", money.units_moved(records) * room.stake, ones)
    return made


def xuezhan_measures(records: pd.DataFrame, fans, rooms: list[Room], money) -> dict:
    """The 血战 family's statistics of one run, by id (several wins a deal: every per-win figure sums each
    deal's wins)."""
    won = money.per_seat(records, "win_order") > 0
    wins = won.sum(axis=1).astype(np.float64)
    seats = won.shape[1]
    ones = np.ones(len(records))
    is_dealer = np.arange(seats)[None, :] == records["dealer"].to_numpy()[:, None]

    def wins_per_deal():
        measure = _per_deal("outcomes", "wins per deal", wins, ones)
        measure.count = int(wins.sum())  # the wins themselves, not the deals with one
        return measure

    def summed_over_wins(column):
        return (money.per_seat(records, column) * won).sum(axis=1)

    made = {
        "wins_per_deal": wins_per_deal,
        "deals_with_a_win_share": lambda: _share_of_deals("outcomes", "deals with a win", wins > 0, ones),
        "draw_share": lambda: _share_of_deals("outcomes", "draw share (查叫: the wall ran out with two or more in)",
                                              records["draw"].to_numpy() > 0, ones),
    }
    for code, (name, label) in WIN_TYPES.items():
        made[f"{name}_share_of_wins"] = lambda code=code, label=label: _of_wins(
            "outcomes", f"{label}, share of wins", ((money.per_seat(records, "win_type") == code) & won).sum(axis=1), wins,
            "share of wins")
    made["mean_win_value"] = lambda: _of_wins("outcomes", "mean win value (units per payer, before the cap)",
                                              summed_over_wins("fan_value"), wins, "per win")
    made["mean_paid_per_win"] = lambda: _of_wins("outcomes", "mean paid per win (units, by all its payers)",
                                                 summed_over_wins("win_income"), wins, "per win")
    for fan, label, column in fans:
        made[f"fan.{fan}"] = lambda label=label, column=column: _of_wins(
            "fans", label, ((money.per_seat(records, column) > 0) & won).sum(axis=1) if f"{column}_0" in records
            else np.zeros(len(records)), wins, "share of wins")
    for room in rooms:
        group = _room_group(room)

        def changes(room=room):
            return money.seat_changes(records, room)

        for seat in range(seats):
            made[f"money.{room.name}.seat_{seat}"] = lambda seat=seat, group=group, changes=changes: _per_deal(
                group, f"seat {seat}, per deal", changes()[:, seat], ones)
        made[f"money.{room.name}.dealer"] = lambda group=group, changes=changes: _per_deal(
            group, "dealer, per deal", changes()[is_dealer], ones)  # one dealer a deal: one value a deal, in order
        made[f"money.{room.name}.non_dealer"] = lambda group=group, changes=changes: _per_deal(
            group, "a non-dealer (their mean), per deal", np.where(is_dealer, 0.0, changes()).sum(axis=1) / (seats - 1), ones)
        made[f"money.{room.name}.moved"] = lambda group=group, room=room: _per_deal(
            group, "moved between the players, per deal", money.units_moved(records) * room.stake, ones)
    return made


def chance_measures(side: Side, deals: int) -> dict:
    """Each reporting seat's mean reported chance of winning over its reports in the first `deals` deals, by id."""
    chances = side.chances[side.chances["deal"] < deals]
    made = {}
    for seat in sorted(set(chances["seat"].tolist())):
        def measure(seat=seat):
            mine = chances[chances["seat"] == seat]
            x = np.bincount(mine["deal"].to_numpy(), weights=mine["chance"].to_numpy().astype(np.float64), minlength=deals)
            w = np.bincount(mine["deal"].to_numpy(), minlength=deals).astype(np.float64)
            label = f"seat {seat}'s mean report ({players_label([side.config.players[seat]], side.defaults)})"
            return Measure("chances of winning reported", label, "mean reported chance", x, w, int(w.sum()))

        made[f"win_chance.seat_{seat}"] = measure
    return made


def side_measures(side: Side, deals: int, fans, rooms: list[Room]) -> dict:
    """Every statistic of one run over its first `deals` deals: {id: a function making its Measure}."""
    records = side.records.iloc[:deals]
    family = family_of(side.ruleset)
    build = erren_measures if family.name == "erren" else xuezhan_measures
    return {**build(records, fans, rooms, family.money), **chance_measures(side, deals)}


# ------------------------------------------------------------------------------------- the comparison


def compare(a: Side, b: Side, unpaired: bool = False, rooms: Path | None = None) -> Comparison:
    """The rows of the comparison of B with A (module text); `rooms`: a rooms file (default A's family's)."""
    pairing = pair(a, b, unpaired)
    family = family_of(a.ruleset)
    room_list = load_rooms(rooms_path(a.ruleset, rooms), family.rooms_file_for(a.ruleset))
    fans = fan_rows(a.ruleset, b.ruleset)
    first = side_measures(a, pairing.deals_a, fans, room_list)
    second = side_measures(b, pairing.deals_b, fans, room_list)
    rows = []
    for statistic in dict.fromkeys([*first, *second]):
        mine = first[statistic]() if statistic in first else None
        theirs = second[statistic]() if statistic in second else None
        shown = mine or theirs
        if mine is None or theirs is None:  # a seat that reports in one run only, a seat of one table only
            value_a = _figure(mine) if mine is not None else math.nan
            value_b = _figure(theirs) if theirs is not None else math.nan
            figures = (value_a, value_b, math.nan, math.nan, math.nan)
        else:
            figures = difference_interval(mine.x, mine.w, theirs.x, theirs.w, pairing.paired)
        count_a, count_b = (mine.count if mine else 0), (theirs.count if theirs else 0)
        if count_a == count_b == 0:  # never seen on either side: the difference is nil, and says nothing
            figures = (*figures[:3], math.nan, math.nan)
        rows.append((shown.group, statistic, shown.label, shown.kind, *figures, count_a, count_b,
                     min(count_a, count_b) < FEWEST))
    table = pd.DataFrame(rows, columns=list(COLUMNS)).astype(
        {"a": float, "b": float, "difference": float, "low": float, "high": float, "count_a": np.int64,
         "count_b": np.int64, "too_few": bool})
    return Comparison(a, b, pairing, room_list, family.currency_for(a.ruleset), table)


def _figure(measure: Measure) -> float:
    return linearised(measure.x, measure.w)[0]


def run_description(side: Side) -> dict:
    """A run as the outputs describe it: its directory, ruleset id, players and run.json."""
    return {"directory": str(side.directory), "ruleset_id": side.ruleset.id, "players_label": side.players,
            **side.stored}


def metadata(comparison: Comparison) -> dict:
    """What the outputs carry beside the rows: both runs' configurations, the pairing, the rooms, the method."""
    return {
        "command": "compare", "a": run_description(comparison.a), "b": run_description(comparison.b),
        "seeds": [comparison.a.config.seed, comparison.b.config.seed],
        "pairing": {**asdict(comparison.pairing), "text": comparison.pairing.text()},
        "rooms": [asdict(room) for room in comparison.rooms], "currency": comparison.currency,
        "confidence": CONFIDENCE, "fewest": FEWEST,
    }


def as_json(comparison: Comparison) -> str:
    """One JSON object: both runs, the pairing, the rooms and the rows (NaN as null)."""
    rows = [{key: (None if isinstance(value, float) and not math.isfinite(value) else value) for key, value in row.items()}
            for row in comparison.rows.astype(object).to_dict("records")]
    for row in rows:
        row["count_a"], row["count_b"], row["too_few"] = int(row["count_a"]), int(row["count_b"]), bool(row["too_few"])
    return json.dumps({**metadata(comparison), "rows": rows}, ensure_ascii=False)


def write(comparison: Comparison, path: Path) -> Path:
    """The rows as Parquet at `path`, written atomically with the comparison's metadata (sim.core.result_files)."""
    return write_table(comparison.rows, path, metadata(comparison))


def check_output(path: Path, *directories: Path) -> None:
    """A CompareError if `path` would land among a run's own tables, where `mjsim report` reads every table."""
    for directory in directories:
        if Path(path).resolve().parent == Path(directory).resolve():
            raise CompareError(f"--out {path} is in the run directory {directory}, whose every table mjsim report "
                               "reads as the run's; write the comparison elsewhere")


# ------------------------------------------------------------------------------------- text


def share_text(value: float, signed: bool = False) -> str:
    """A share in percent: two decimals, three significant digits below 1% (never an exponent)."""
    if not math.isfinite(value):
        return "—"
    percent = value * 100
    decimals = 2 if abs(percent) >= 1 or percent == 0 else min(6, 2 - math.floor(math.log10(abs(percent))))
    return f"{percent:{'+' if signed else ''}.{decimals}f}%"


def number_text(value: float, decimals: int, signed: bool = False) -> str:
    return "—" if not math.isfinite(value) else f"{value:{'+' if signed else ''},.{decimals}f}"


def decimals_for(values) -> int:
    """Decimals for figures of the size of the largest of `values`: 0 from 10,000, 1 from 100, 2 from 1, else 3."""
    largest = max([abs(value) for value in values if math.isfinite(value)], default=0.0)
    return 0 if largest >= 10_000 else 1 if largest >= 100 else 2 if largest >= 1 else 3


def group_decimals(rows: pd.DataFrame) -> dict:
    """Decimals per group of rows, so that a block's figures line up: from the largest A or B of its rows
    that are not shares."""
    counted = rows[~rows["kind"].isin(SHARE_KINDS)]
    return {group: decimals_for([*members["a"], *members["b"]]) for group, members in counted.groupby("group", sort=False)}


def figure_texts(row, places: int | None = None) -> tuple[str, str, str, str]:
    """A, B, B - A and the interval of a row as text: shares in percent; other figures with `places` decimals
    (default: as the row's own size asks), the difference with one more (it is often much smaller than either
    side)."""
    if row.kind in SHARE_KINDS:
        figures = [share_text(row.a), share_text(row.b)]
        difference, low, high = (share_text(value, signed=True) for value in (row.difference, row.low, row.high))
    else:
        places = decimals_for([row.a, row.b]) if places is None else places
        figures = [number_text(row.a, places), number_text(row.b, places)]
        difference, low, high = (number_text(value, min(places + 1, 3), signed=True)
                                 for value in (row.difference, row.low, row.high))
    interval = f"[{low}, {high}]" if math.isfinite(row.low) else ""
    return figures[0], figures[1], difference, interval


def money_unit(currency: str) -> str:
    """What the money rows count in: beans, points, or (血战) units of the base stake times the room's stake."""
    return "units times each room's stake" if currency == "money" else currency


def shown_rows(rows: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """The rows a reader is shown, and how many are left out: the fans scored in neither run."""
    scored = (rows["group"] != "fans") | (rows["count_a"] + rows["count_b"] > 0)
    return rows[scored], int((~scored).sum())


def format_comparison(comparison: Comparison) -> str:
    """The comparison as a table for a terminal: a header naming both runs and the pairing, then a block
    per group; fans scored in neither run are left out (they are in --json and --out)."""
    rows, hidden = shown_rows(comparison.rows)
    lines = [f"A: {comparison.a.title}", f"B: {comparison.b.title}", comparison.pairing.text() + ".",
             (f"B - A with {CONFIDENCE:.0%} intervals (shares in percent, differences of shares in percentage points; money "
              f"in {money_unit(comparison.currency)}); counts: the events behind each figure; ! = fewer than {FEWEST} on a "
              "side, too few to tell.")]
    width = max(display_width(label) for label in rows["label"]) + 4
    decimals = group_decimals(rows)
    for group, members in rows.groupby("group", sort=False):
        heading = group + (" (share of wins; value A → B where it changed)" if group == "fans" else "")
        lines.append("")
        lines.append(f"{pad(heading, width)}{'A':>10} {'B':>10} {'B - A':>10}  {'95% interval':<24}{'count A':>9} {'count B':>9}")
        for row in members.itertuples():
            a, b, difference, interval = figure_texts(row, decimals.get(group))
            lines.append(f"  {pad(row.label, width - 2)}{a:>10} {b:>10} {difference:>10}  {interval:<24}{row.count_a:>9,} "
                         f"{row.count_b:>9,}{'  !' if row.too_few else ''}")
    if hidden:
        lines.append("")
        lines.append(f"{hidden} fans scored in neither run are left out here (--json and --out have every fan).")
    return "\n".join(lines) + "\n"
