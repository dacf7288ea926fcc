"""`mjsim bench`: evaluation rates of the kernels, and of the reference calculators on the same hands.

Each hand set is drawn from a fixed seed. A kernel rate is one jitted call over all hands (in-kernel);
the API rates go through `kernels.shanten_many`, batched and one hand per call. The references (PyPI
`mahjong`, `PyMahjongGB`) run on the first hands of the same set, measured in the same process. Fan
evaluation is timed on generated winning hands (`sim.core.hand_generator`) under both 二人 rulesets and
MCR's three-suit evaluator, and PyMahjongGB's fan calculator on the first of them, with the number of
hands where its fans differ; MCR's evaluator again on hands of all 34 kinds (`sim.core.all_suit_hands`),
beside PyMahjongGB with seat and round winds.
"""

import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

import kernels
from kernels.fan_ids import (
    FOURTH_TILE_FLAG,
    KONG_REPLACEMENT_FLAG,
    LAST_WALL_TILE_FLAG,
    ROBBING_KONG_FLAG,
    ROUND_WIND_SHIFT,
    SEAT_WIND_SHIFT,
    SELF_DRAWN_FLAG,
    WIND_FIELD_MASK,
    Fan,
)
from kernels.fans.challenge import score_many as score_challenge
from kernels.fans.mcr import _score_many, score_many
from kernels.fans.mcr_all_suits import _score_many as _score_all_suits
from kernels.fans.mcr_all_suits import score_many as score_all_suits
from kernels.shanten import _shanten_many, _ukeire_many, _waits_many
from kernels.tiles import (
    HONOR_START,
    MELD_CHOW,
    MELD_KONG,
    MELD_PONG,
    N_KINDS,
    TILE_SET_ALL,
    TILE_SET_WAN_HONOURS,
)
from sim.core.all_suit_hands import random_all_suit_hands
from sim.core.hand_generator import random_winning_hands
from sim.core.ruleset import load_ruleset
from sim.erren import engine
from sim.erren.challenge.hand_generator import random_challenge_hands
from sim.erren.environment import BatchEnvironment, Environment
from sim.families import family_of, ruleset_ids, tables

HAND_SETS = {
    # name: (kinds in the wall, tiles per hand)
    "wan+honours 13": (np.r_[0:9, HONOR_START:N_KINDS], 13),
    "wan+honours 14": (np.r_[0:9, HONOR_START:N_KINDS], 14),
    "34 kinds 13": (np.arange(N_KINDS), 13),
    "34 kinds 14": (np.arange(N_KINDS), 14),
}
# PyMahjongGB's tile codes, indexed by kind
GB_CODES = [f"W{r}" for r in range(1, 10)] + [f"B{r}" for r in range(1, 10)] + [f"T{r}" for r in range(1, 10)]
# PyMahjongGB's honours: F1-F4 东南西北, J1 中, J2 发, J3 白 (our kinds 31 白, 32 发, 33 中).
GB_CODES += [f"F{r}" for r in range(1, 5)] + ["J3", "J2", "J1"]
# PyMahjongGB's fan names where seed 000 prints another (docs/rules/erren.md#scored-as-mcr)
REFERENCE_NAMES = {
    "抢杠和": "抢杠胡",
    "碰碰和": "碰碰胡",
    "连六": "连6",
    "大于五": "大于5",
    "小于五": "小于5",
    "独听・边张": "边张",
    "独听・嵌张": "坎张",
    "独听・单钓": "单钓将",
}


def pymahjonggb_arguments(hands, index: int, winds: bool = False) -> dict:
    """Arguments of PyMahjongGB's MahjongFanCalculator for hand `index` of `WinningHands`, by name in
    the calculator's own order: with `winds`, the seat and prevalent winds of the hand's flags, otherwise
    none (seatWind = prevalentWind = 4, as 二人 has no wind fans)."""
    packs = []
    for position in range(hands.n_melds[index]):
        kind, first = (int(value) for value in hands.melds[index, position])
        if kind == MELD_CHOW:
            packs.append(("CHI", GB_CODES[first + 1], 1))  # a chow is named by its middle tile
        elif kind in (MELD_PONG, MELD_KONG):
            packs.append(("PENG" if kind == MELD_PONG else "GANG", GB_CODES[first], 1))  # offer 1: claimed
        else:
            packs.append(("GANG", GB_CODES[first], 0))  # offer 0: concealed
    flags = int(hands.flags[index])
    return {
        "pack": tuple(packs),
        "hand": tuple(GB_CODES[kind] for kind in np.repeat(np.arange(N_KINDS), hands.concealed[index])),
        "winTile": GB_CODES[int(hands.win[index])],
        "flowerCount": int(hands.flowers[index]),
        "isSelfDrawn": bool(flags & SELF_DRAWN_FLAG),
        "is4thTile": bool(flags & FOURTH_TILE_FLAG),
        "isAboutKong": bool(flags & (KONG_REPLACEMENT_FLAG | ROBBING_KONG_FLAG)),
        "isWallLast": bool(flags & LAST_WALL_TILE_FLAG),
        "seatWind": (flags >> SEAT_WIND_SHIFT) & WIND_FIELD_MASK if winds else 4,
        "prevalentWind": (flags >> ROUND_WIND_SHIFT) & WIND_FIELD_MASK if winds else 4,
        "verbose": True,
    }


def reference_fans(answer, by_name: dict) -> Counter:
    """PyMahjongGB's verbose answer as {Fan: count}: 明暗杠 is 明杠 + 暗杠, names as seed 000 prints
    them (`by_name` maps erren's seed names to fans)."""
    fans = Counter()
    for _value, count, name, _english in answer:
        if name == "明暗杠":
            fans[Fan.MELDED_KONG] += 1
            fans[Fan.CONCEALED_KONG] += 1
        else:
            fans[by_name[REFERENCE_NAMES.get(name, name)]] += count
    return fans


# PyMahjongGB's fan names where the MCR ruleset's fan table (sim/rulesets/mcr.toml) writes another
MCR_REFERENCE_NAMES = {"独听・边张": "边张", "独听・嵌张": "嵌张", "独听・单钓": "单钓将"}


def mcr_reference_fans(answer, by_name: dict) -> Counter:
    """PyMahjongGB's verbose answer as {Fan: count} in MCR's fans: its 明暗杠 is 明杠 + 暗杠, its 独听
    names are the plain wait fans (`by_name` maps the MCR table's names to fans)."""
    fans = Counter()
    for _value, count, name, _english in answer:
        if name == "明暗杠":
            fans[Fan.MELDED_KONG] += 1
            fans[Fan.CONCEALED_KONG] += 1
        else:
            fans[by_name[MCR_REFERENCE_NAMES.get(name, name)]] += count
    return fans


# What a hand costs in memory at the peak, for the command line's check before it starts: drawing a hand of
# the 34-kind set takes a float64 key and an int64 index for each of the wall's 136 tiles; a generated winning
# hand is its arrays (under 64 bytes) and its count of each fan (one byte a fan), rounded up.
BYTES_PER_HAND = 136 * (8 + 8) + N_KINDS
BYTES_PER_FAN_HAND = 256


def random_hands(rng: np.random.Generator, n_hands: int, kinds: np.ndarray, n_tiles: int) -> np.ndarray:
    """Uniform random hands of `n_tiles` drawn without replacement from four copies of each of `kinds`."""
    wall = np.repeat(np.asarray(kinds), 4)
    drawn = wall[np.argpartition(rng.random((n_hands, wall.size)), n_tiles, axis=1)[:, :n_tiles]]
    hands = np.zeros((n_hands, N_KINDS), np.int8)
    for column in range(n_tiles):
        np.add.at(hands, (np.arange(n_hands), drawn[:, column]), 1)
    return hands


def _rate(function, count: int, repeats: int = 3) -> float:
    """Evaluations per second: `count` evaluations per call, best of `repeats` calls."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return count / best


def _reference_rates(hands: np.ndarray, n_tiles: int, standard: np.ndarray) -> dict:
    """Rates of the reference calculators on `hands`, and on how many their standard-form shanten differs."""
    found = {}
    try:
        from mahjong.shanten import Shanten
    except ImportError:
        found["mahjong"] = None
    else:
        as_lists = [list(map(int, hand)) for hand in hands]
        rate = _rate(lambda: [Shanten.calculate_shanten(h, use_kokushi=False) for h in as_lists], len(hands), 1)
        # Agreement is checked on the standard form: riichi's seven pairs (what `mahjong` implements) needs
        # seven distinct kinds, while the rules book lets a four-of-a-kind count as two pairs (docs/rules/erren-table.md#how-fans-combine).
        regular = np.array([Shanten.calculate_shanten_for_regular_hand(h) for h in as_lists])
        found["mahjong"] = {"rate": rate, "compares_with": "best", "disagreements": int((regular != standard).sum())}
    if n_tiles != 13:
        return found  # PyMahjongGB's RegularShanten takes 13-tile hands only
    try:
        from MahjongGB import RegularShanten
    except ImportError:
        found["PyMahjongGB"] = None
    else:
        as_codes = [tuple(GB_CODES[kind] for kind in np.repeat(np.arange(N_KINDS), hand)) for hand in hands]
        answers = []
        rate = _rate(lambda: answers.append([RegularShanten(h)[0] for h in as_codes]), len(hands), 1)
        found["PyMahjongGB"] = {
            "rate": rate,
            "compares_with": "standard",
            "disagreements": int((np.array(answers[0]) != standard).sum()),
        }
    return found


def run(
    n_hands: int = 1_000_000,
    n_reference: int = 20_000,
    n_per_call: int = 20_000,
    seed: int = 1,
    progress=None,
    n_fan_hands: int = 200_000,
    n_deals: int = 50_000,
) -> dict:
    """Measure every rate; returns a JSON-ready dict."""
    suit, honors = kernels.load_tables()
    results = {"n_hands": n_hands, "n_reference": n_reference, "seed": seed, "sets": {}}
    for set_index, (name, (kinds, n_tiles)) in enumerate(HAND_SETS.items()):
        hands = random_hands(np.random.default_rng(seed + set_index), n_hands, kinds, n_tiles)
        melds = np.zeros(n_hands, np.int8)
        wan_honours = not hands[:, 9:HONOR_START].any()
        out = np.empty(n_hands, np.int8)
        kernels.shanten_many(hands[:10])  # compile or load from cache before timing
        row = {
            "shanten_kernel": _rate(lambda: _shanten_many(hands, melds, suit, honors, 0, wan_honours, out), n_hands),
            "standard_kernel": _rate(lambda: _shanten_many(hands, melds, suit, honors, 1, wan_honours, out), n_hands),
            "shanten_many": _rate(lambda: kernels.shanten_many(hands), n_hands),
            "shanten_many_per_call": _rate(lambda: [kernels.shanten_many(hand) for hand in hands[:n_per_call]], n_per_call, 1),
        }
        if n_tiles == 13:
            tile_set = TILE_SET_WAN_HONOURS if wan_honours else TILE_SET_ALL
            live = np.ascontiguousarray(np.clip(tile_set - hands, 0, 4), dtype=np.int8)
            mask = np.empty(hands.shape, np.bool_)
            count = np.empty(n_hands, np.int64)
            kernels.waits_many(hands[:10])
            kernels.ukeire_many(hands[:10])
            row["waits_kernel"] = _rate(lambda: _waits_many(hands, melds, suit, honors, mask), n_hands)
            row["ukeire_kernel"] = _rate(lambda: _ukeire_many(hands, melds, live, suit, honors, count), n_hands)
        sample = hands[:n_reference]
        standard = kernels.shanten_many(sample, form="standard")
        row["references"] = _reference_rates(sample, n_tiles, standard)
        for reference, measured in row["references"].items():
            if measured:
                kernel = row["shanten_kernel"] if measured["compares_with"] == "best" else row["standard_kernel"]
                measured["kernel_ratio"] = kernel / measured["rate"]
        results["sets"][name] = row
        if progress is not None:
            progress(1)
    results["fans"] = fan_rates(n_fan_hands, min(n_reference, n_fan_hands), seed)
    results["challenge_fans"] = challenge_fan_rates(min(n_fan_hands, CHALLENGE_HANDS), CHALLENGE_REFERENCE_HANDS, seed)
    results["mcr_fans"] = mcr_fan_rates(min(n_fan_hands, MCR_HANDS), min(n_reference, MCR_REFERENCE_HANDS), seed)
    if progress is not None:
        progress(1)
    if n_deals:
        results["deals"] = deal_rates(n_deals, seed)
        if progress is not None:
            progress(1)
    return results


def fan_rates(n_hands: int, n_reference: int, seed: int) -> dict:
    """Fan evaluations per second on `n_hands` generated winning hands, per ruleset, and PyMahjongGB's
    on the first `n_reference` of them (with the hands where its fans differ from erren's)."""
    hands = random_winning_hands(np.random.default_rng(seed), n_hands)
    suit = kernels.load_tables().suit
    # the shipped rulesets scored by the MCR evaluator on 万 and honours, the hands generated here
    mcr_rulesets = [ruleset_id for ruleset_id in ruleset_ids()
                    if load_ruleset(ruleset_id).scoring == "mcr" and load_ruleset(ruleset_id).tile_set == "wan-honours"]
    counts = np.zeros((n_hands, len(Fan)), np.uint8)
    totals = np.zeros(n_hands, np.int32)
    found = {"n_hands": n_hands, "rulesets": {}}
    for ruleset_id in mcr_rulesets:
        arrays = load_ruleset(ruleset_id).kernel_arrays()
        score_many(*(column[:10] for column in hands.kernel_arrays()), *arrays)  # compile or load from cache
        found["rulesets"][ruleset_id] = _rate(lambda: _score_many(*hands.kernel_arrays(), *arrays, suit, counts, totals), n_hands)
    # MCR's three-suit evaluator on the same hands (east seat, east round): the goal is within 1.5x of erren's
    mcr_arrays = load_ruleset("mcr").kernel_arrays()
    score_all_suits(*(column[:10] for column in hands.kernel_arrays()), *mcr_arrays)
    found["three_suits"] = _rate(lambda: _score_all_suits(*hands.kernel_arrays(), *mcr_arrays, counts, totals), n_hands)
    try:
        from MahjongGB import MahjongFanCalculator
    except ImportError:
        found["PyMahjongGB"] = None
        return found
    erren = load_ruleset("erren")
    by_name = {name: fan for fan, name in erren.fan_names.items()}
    # positional arguments: PyMahjongGB's fastest way in (keywords cost it about 15%)
    arguments = [tuple(pymahjonggb_arguments(hands, index).values()) for index in range(n_reference)]
    answers = []
    rate = _rate(lambda: answers.append([MahjongFanCalculator(*positional) for positional in arguments]), n_reference, 1)
    ours, _ = score_many(*(column[:n_reference] for column in hands.kernel_arrays()), *erren.kernel_arrays())
    differ = sum(
        reference_fans(answer, by_name) != Counter({Fan(fan): int(count) for fan, count in enumerate(row) if count})
        for answer, row in zip(answers[0], ours, strict=True)
    )
    found["PyMahjongGB"] = {"rate": rate, "n_hands": n_reference, "kernel_ratio": found["rulesets"]["erren"] / rate, "disagreements": differ}
    return found


# The all-suit hands come from a generator in plain Python (about 1,800 hands/s): fewer of them, and PyMahjongGB
# (about 50,000 hands/s) on fewer still.
MCR_HANDS = 25_000
MCR_REFERENCE_HANDS = 5_000


def mcr_fan_rates(n_hands: int, n_reference: int, seed: int) -> dict:
    """MCR's three-suit evaluator's fan evaluations per second on `n_hands` generated winning hands of all 34
    kinds (with seat and round winds), and PyMahjongGB's on the first `n_reference` of them, with the hands
    where their fans differ."""
    ruleset = load_ruleset("mcr")
    arrays = ruleset.kernel_arrays()
    hands = random_all_suit_hands(np.random.default_rng(seed), n_hands)
    counts = np.zeros((n_hands, len(Fan)), np.uint8)
    totals = np.zeros(n_hands, np.int32)
    score_all_suits(*(column[:10] for column in hands.kernel_arrays()), *arrays)  # compile or load from cache
    found = {"n_hands": n_hands, "kernel": _rate(lambda: _score_all_suits(*hands.kernel_arrays(), *arrays, counts, totals), n_hands)}
    try:
        from MahjongGB import MahjongFanCalculator
    except ImportError:
        found["PyMahjongGB"] = None
        return found
    by_name = {name: fan for fan, name in ruleset.fan_names.items()}
    arguments = [tuple(pymahjonggb_arguments(hands, index, winds=True).values()) for index in range(n_reference)]
    answers = []
    rate = _rate(lambda: answers.append([MahjongFanCalculator(*positional) for positional in arguments]), n_reference, 1)
    differ = sum(
        mcr_reference_fans(answer, by_name) != Counter({Fan(fan): int(count) for fan, count in enumerate(row) if count})
        for answer, row in zip(answers[0], counts[:n_reference], strict=True)
    )
    found["PyMahjongGB"] = {"rate": rate, "n_hands": n_reference, "kernel_ratio": found["kernel"] / rate, "disagreements": differ}
    return found


# erren-challenge's hands come from a generator in plain Python (about 8,000 hands/s): fewer of them, and the
# riichi package, at about 6,000 hands/s, on fewer still.
CHALLENGE_HANDS = 100_000
CHALLENGE_REFERENCE_HANDS = 5_000


def challenge_fan_rates(n_hands: int, n_reference: int, seed: int) -> dict:
    """erren-challenge's fan evaluations per second on `n_hands` generated winning hands of all 34 kinds, and
    the PyPI `mahjong` package's (riichi, the reference of tests/erren/challenge/test_reference.py) on the first
    `n_reference` of them."""
    ruleset = load_ruleset("erren-challenge")
    hands = random_challenge_hands(np.random.default_rng(seed), n_hands)
    columns = hands.kernel_arrays()
    score_challenge(*(column[:10] for column in columns), ruleset)  # compile or load from cache
    found = {"n_hands": n_hands, "kernel": _rate(lambda: score_challenge(*columns, ruleset), n_hands)}
    try:
        from sim.erren.challenge.riichi_reference import estimate
        estimate(*hands.hand(0)[:4])
    except ImportError:
        found["mahjong"] = None
        return found
    sample = [hands.hand(index)[:4] for index in range(min(n_reference, n_hands))]
    rate = _rate(lambda: [estimate(*hand) for hand in sample], len(sample), 1)
    found["mahjong"] = {"rate": rate, "n_hands": len(sample), "kernel_ratio": found["kernel"] / rate}
    return found


def deal_rates(n_deals: int, seed: int) -> dict:
    """Whole deals per second on one core, per ruleset, seat count and heuristic (best of three batches of
    `n_deals`), the expected-value player `ev` in seat 0 against greedy in the others (on a tenth of
    `n_deals`), and riichienv's four-player rounds per second when it is installed (measured in the same run)."""
    found = {"n_deals": n_deals, "rulesets": {}}
    # every table of the shipped rulesets (sim.families.tables): each heuristic its family offers against
    # itself in every seat
    for ruleset_id, seats in tables():
        ruleset = load_ruleset(ruleset_id)
        engine = family_of(ruleset).engine
        rates = {}
        for heuristic in family_of(ruleset).players.NAMES:
            players = family_of(ruleset).parse_players([heuristic] * seats, seats)
            engine.play(ruleset, players, seed, 10)  # compile or load from cache
            rates[",".join([heuristic] * seats)] = _rate(lambda: engine.play(ruleset, players, seed, n_deals), n_deals)  # noqa: B023
        seated = ["ev"] + ["greedy"] * (seats - 1)
        players = family_of(ruleset).parse_players(seated, seats)
        engine.play(ruleset, players, seed, 10)  # compile the loop that calls a numba player
        count = max(n_deals // 10, 100)
        rates[",".join(seated)] = _rate(lambda: engine.play(ruleset, players, seed, count), count)  # noqa: B023
        found["rulesets"][ruleset_id if len(ruleset.players) == 1 else f"{ruleset_id} ({seats} seats)"] = rates
    found["riichienv"] = _riichienv_rate()
    found["user_players"] = user_player_rates(n_deals, seed)
    found["environment"] = environment_rates(n_deals, seed)
    return found


def environment_rates(n_deals: int, seed: int, n_tables: int = 1024) -> dict:
    """Steps per second of the step environment (``sim.erren.environment``) on `erren`, both seats agents
    answering their lowest legal code: one table stepped from Python, the same through PettingZoo's
    agent-environment cycle (``sim.rl``: ``last()`` then ``step``; None without the rl extra), and `n_tables`
    tables stepped together inside numba, on one thread and on two, without the encoded observations and with
    them (docs/learning.md#the-batched-form). Best of three."""
    environment = Environment("erren")
    single_steps = max(n_deals // 5, 1000)

    def single():
        steps, deal = 0, 0
        environment.reset(seed, deal)
        while steps < single_steps:
            if environment.terminated:
                deal += 1
                environment.reset(seed, deal)
                continue
            environment.step(environment._legal[0])
            steps += 1

    single()
    found = {"single": _rate(single, single_steps), "n_tables": n_tables, "aec": _agent_cycle_rate(single_steps, seed)}
    rounds = max(n_deals * 20 // n_tables, 10)
    for threads in (1, 2):  # two: the two cores of this project's machine
        for observation in ("none", "seat"):
            batch = BatchEnvironment(n_tables, "erren", seed=seed, threads=threads, observation=observation)
            batch.reset()

            def batched(batch=batch):
                for _ in range(rounds):
                    batch.step(batch.masks.argmax(axis=1))

            batched()
            found[f"batched_{observation}_{threads}"] = _rate(batched, rounds * n_tables)
    return found


def _agent_cycle_rate(steps: int, seed: int) -> float | None:
    """Agent steps per second of the PettingZoo environment of `erren` (every seat an agent, its lowest legal
    code), deal after deal; None when PettingZoo is not installed (the rl extra)."""
    try:
        from sim.rl import pettingzoo_env
    except ImportError:
        return None
    environment = pettingzoo_env("erren")

    def cycle():
        environment.reset(seed=seed)
        taken = 0
        while taken < steps:
            if not environment.agents:
                environment.reset()
                continue
            observation, _, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                environment.step(None)
                continue
            environment.step(int(np.flatnonzero(observation["action_mask"])[0]))
            taken += 1

    cycle()
    return _rate(cycle, steps)


class FirstLegal:
    """The trivial Python player of the benchmark (``sim.commands.benchmark:FirstLegal``): its first legal action."""
    def act(self, observation):
        return observation.legal_actions[0]


EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "players"


def user_player_rates(n_deals: int, seed: int) -> dict:
    """Deals per second on one core of `erren` with a user player in seat 0 against `greedy`, and their
    ratio to `greedy` against `greedy` measured in the same run (docs/write-a-player.md): a trivial Python
    player, the expected-value player `ev` (on a fifth of `n_deals`), the numba example (greedy re-written on the numba interface) and the external example bot.
    Each is the best of three batches, Python on a fifth of `n_deals`, the external bot on a fiftieth."""
    ruleset = load_ruleset("erren")
    tables = {"greedy v greedy": ("greedy,greedy", n_deals), "Python FirstLegal v greedy": ("sim.commands.benchmark:FirstLegal,greedy", n_deals // 5),
              "ev v greedy (built-in, numba interface)": ("ev,greedy", n_deals // 5)}
    if EXAMPLES.is_dir():  # the examples ship with the repository, not with an installed package
        tables["numba example v greedy"] = (f"{EXAMPLES / 'numba_greedy.py'}:act,greedy", n_deals)
        tables["exec example v greedy"] = (f"exec:{sys.executable} {EXAMPLES / 'json_bot.py'},greedy", max(n_deals // 50, 100))
    found = {}
    for label, (text, count) in tables.items():
        players = engine.Players.parse(text)
        try:
            engine.play(ruleset, players, seed, 10)  # compile, load, start the program
            found[label] = {"rate": _rate(lambda: engine.play(ruleset, players, seed, count), count), "n_deals": count}  # noqa: B023
        finally:
            players.close()
    reference = found["greedy v greedy"]["rate"]
    for measured in found.values():
        measured["ratio"] = measured["rate"] / reference
    return found


def _riichienv_rate(min_seconds: float = 3.0) -> dict | None:
    """riichienv (a Rust riichi engine with a step-at-a-time Python API and no batch mode): complete
    four-player rounds per second, every seat playing its first legal action, one round per reset."""
    try:
        from importlib.metadata import version

        from riichienv import RiichiEnv
    except ImportError:
        return None
    environment = RiichiEnv(game_mode="4p-red-single", seed=12345)

    def one_round():
        observations = environment.reset()
        while not environment.done():
            observations = environment.step({seat: seen.legal_actions()[0] for seat, seen in observations.items()})

    for _ in range(20):
        one_round()
    rounds = 0
    start = time.perf_counter()
    while time.perf_counter() - start < min_seconds:
        one_round()
        rounds += 1
    return {"rate": rounds / (time.perf_counter() - start), "version": version("riichienv")}


def reference_line(measured: dict | None, package: str, label: str, ours: str, rate) -> str:
    """One fan evaluation reference's line: its rate, how many times faster `ours` is, and on how many hands
    the fans differ (where it was compared), or how to install it."""
    if measured is None:
        return f"  {package}: not installed (pip install 'mjsim[test]')"
    compared = (f"; fans differ on {measured['disagreements']} of {measured['n_hands']:,}" if "disagreements" in measured
                else f" (on {measured['n_hands']:,} of the hands)")
    return f"  {label:<44}{rate(measured['rate'])}   {ours} is {measured['kernel_ratio']:,.0f}x faster{compared}"


def format_results(results: dict) -> str:
    def rate(value):
        return f"{value / 1e6:8.2f} M/s" if value >= 1e5 else f"{value / 1e3:8.1f} k/s"

    lines = [
        f"mjsim bench: {results['n_hands']:,} random hands per set (seed {results['seed']}), "
        f"references on the first {results['n_reference']:,} of the same hands; one core",
        "",
    ]
    for name, row in results["sets"].items():
        lines.append(f"{name} tiles")
        lines.append(f"  shanten, in-kernel (standard + seven pairs)  {rate(row['shanten_kernel'])}")
        lines.append(f"  standard form only, in-kernel               {rate(row['standard_kernel'])}")
        lines.append(f"  kernels.shanten_many, batched               {rate(row['shanten_many'])}")
        lines.append(f"  kernels.shanten_many, one hand per call     {rate(row['shanten_many_per_call'])}")
        if "waits_kernel" in row:
            lines.append(f"  waits, in-kernel                            {rate(row['waits_kernel'])}")
            lines.append(f"  ukeire, in-kernel                           {rate(row['ukeire_kernel'])}")
        for reference, measured in row["references"].items():
            if measured is None:
                lines.append(f"  {reference}: not installed (pip install 'mjsim[test]')")
                continue
            form = "shanten" if measured["compares_with"] == "best" else "standard form"
            lines.append(
                f"  {reference + ' ' + form:<44}{rate(measured['rate'])}   kernel is {measured['kernel_ratio']:,.0f}x faster; "
                f"standard form differs on {measured['disagreements']} of {results['n_reference']:,}"
            )
        lines.append("")
    fans = results.get("fans")
    if fans:
        lines.append(f"fan evaluation: {fans['n_hands']:,} generated winning hands of 万 and honours")
        for ruleset_id, value in fans["rulesets"].items():
            lines.append(f"  {ruleset_id + ', in-kernel':<44}{rate(value)}")
        if "three_suits" in fans:
            lines.append(f"  {'MCR three-suit evaluator, in-kernel':<44}{rate(fans['three_suits'])}   "
                         f"{fans['rulesets']['erren'] / fans['three_suits']:.2f}x erren's time a hand")
        lines.append(reference_line(fans["PyMahjongGB"], "PyMahjongGB", "PyMahjongGB MahjongFanCalculator", "erren", rate))
    challenge = results.get("challenge_fans")
    if challenge:
        lines.append("")
        lines.append(f"fan evaluation: {challenge['n_hands']:,} generated winning hands of all 34 kinds (erren-challenge)")
        lines.append(f"  {'erren-challenge, batched':<44}{rate(challenge['kernel'])}")
        lines.append(reference_line(challenge["mahjong"], "mahjong (riichi)", "mahjong HandCalculator (riichi)",
                                    "erren-challenge", rate))
    mcr = results.get("mcr_fans")
    if mcr:
        lines.append("")
        lines.append(f"fan evaluation: {mcr['n_hands']:,} generated winning hands of all 34 kinds, with winds (MCR, 81 fans)")
        lines.append(f"  {'MCR three-suit evaluator, in-kernel':<44}{rate(mcr['kernel'])}")
        lines.append(reference_line(mcr["PyMahjongGB"], "PyMahjongGB", "PyMahjongGB MahjongFanCalculator", "the evaluator", rate))
    deals = results.get("deals")
    if deals:
        lines.append("")
        lines.append(f"whole deals, one core: best of three batches of {deals['n_deals']:,} deals")
        for ruleset_id, rates in deals["rulesets"].items():
            for pairing, value in rates.items():
                seated = pairing.split(",")
                if len(seated) == 2:
                    label = " v ".join(seated)
                elif len(set(seated)) == 1:
                    label = f"{len(seated)} x {seated[0]}"
                else:
                    label = f"{seated[0]} v {len(seated) - 1} x {seated[1]}"
                lines.append(f"  {ruleset_id + ', ' + label:<50}{value / 1e3:8.1f} k deals/s")
        measured = deals["riichienv"]
        if measured is None:
            lines.append("  riichienv: not installed (pip install riichienv)")
        else:
            lines.append(
                f"  {'riichienv ' + measured['version'] + ', 4-player rounds':<50}{measured['rate']:8.0f} rounds/s "
                "(first legal action, step API)"
            )
        users = deals.get("user_players")
        if users:
            lines.append("")
            lines.append("user players in seat 0, erren, one core (docs/write-a-player.md); ratio to greedy v greedy")
            for label, measured in users.items():
                lines.append(f"  {label:<50}{measured['rate'] / 1e3:8.2f} k deals/s   {measured['ratio']:6.1%}")
        steps = deals.get("environment")
        if steps:
            lines.append("")
            lines.append("step environment, erren (both seats agents, lowest legal code)")
            lines.append(f"  {'one table, stepped from Python':<50}{steps['single'] / 1e3:8.1f} k steps/s")
            cycle = "needs the rl extra" if steps["aec"] is None else f"{steps['aec'] / 1e3:8.1f} k steps/s"
            lines.append(f"  {'one table, PettingZoo AEC (last, step)':<50}{cycle}")
            tables = f"{steps['n_tables']} tables, one numba call a step"
            for threads, where in ((1, "one thread"), (2, "two threads")):
                lines.append(f"  {tables + ', ' + where:<50}{steps[f'batched_none_{threads}'] / 1e6:8.2f} M steps/s")
                lines.append(f"  {'  the same, encoded observations':<50}{steps[f'batched_seat_{threads}'] / 1e6:8.2f} M steps/s"
                             f"   {steps[f'batched_seat_{threads}'] / steps[f'batched_none_{threads}']:6.1%}")
    return "\n".join(lines).rstrip() + "\n"


if __name__ == "__main__":  # pragma: no cover
    sys.stdout.write(format_results(run()))
