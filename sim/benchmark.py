"""`mjsim bench`: evaluation rates of the kernels, and of the reference calculators on the same hands.

Each hand set is drawn from a fixed seed. A kernel rate is one jitted call over all hands (in-kernel);
the API rates go through `kernels.shanten_many`, batched and one hand per call. The references (PyPI
`mahjong`, `PyMahjongGB`) run on the first hands of the same set, measured in the same process.
"""

import sys
import time

import numpy as np

import kernels
from kernels.shanten import _shanten_many, _ukeire_many, _waits_many
from kernels.tiles import HONOR_START, N_KINDS, TILE_SET_ALL, TILE_SET_WAN_HONOURS

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
        # seven distinct kinds, while RULES.md lets a four-of-a-kind count as two pairs.
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


def run(n_hands: int = 1_000_000, n_reference: int = 20_000, n_per_call: int = 20_000, seed: int = 1, progress=None) -> dict:
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
    return results


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
    return "\n".join(lines).rstrip() + "\n"


if __name__ == "__main__":  # pragma: no cover
    sys.stdout.write(format_results(run()))
