"""What `mjsim shanten` reports about one hand: shanten by form, waits with copies left, ukeire, discards.

Copies of a kind in the player's own melds count as seen: they are neither live nor a possible wait.
"""

import numpy as np

import kernels
from kernels.tiles import COPIES_PER_KIND, N_KINDS, TILE_SET_ALL
from sim.core.batch_text import BatchLineError, parse_line
from sim.core.notation import Hand, NotationError, parse_hand, tile_name


def _names(kinds) -> list[str]:
    return [tile_name(kind) for kind in kinds]


def _possible_waits(hand: Hand, counts: np.ndarray) -> list[int]:
    """Waits of a 13-tile hand, without kinds whose every copy is already in the hand or its melds."""
    held = counts + hand.meld_counts
    return [kind for kind in kernels.waits(counts, len(hand.melds)) if held[kind] < COPIES_PER_KIND]


def analyse(hand: Hand, visible: np.ndarray | None = None, tile_set: np.ndarray = TILE_SET_ALL) -> dict:
    """A JSON-ready report. For a 14-tile hand `waits` are those of the discards that leave it ready."""
    counts = hand.counts
    n_melds = len(hand.melds)
    seen = hand.meld_counts + (np.zeros(N_KINDS, np.int8) if visible is None else visible)
    too_many = np.flatnonzero(counts + seen > np.asarray(tile_set))
    if visible is not None and too_many.size:
        kind = int(too_many[0])
        raise NotationError(f"{tile_name(kind)}: {int(counts[kind] + hand.meld_counts[kind])} in the hand and melds and "
                            f"{int(visible[kind])} seen elsewhere; the wall has only {int(tile_set[kind])}")
    live = np.clip(np.asarray(tile_set, np.int16) - counts - seen, 0, COPIES_PER_KIND)
    forms = kernels.shanten_forms(counts, n_melds)
    report = {
        "tiles": str(hand),
        "shanten": forms.best,
        "shanten_standard": forms.standard,
        "shanten_seven_pairs": None if forms.seven_pairs == kernels.UNREACHABLE else forms.seven_pairs,
    }
    if hand.n_tiles + 3 * n_melds == 13:
        waits = _possible_waits(hand, counts)
        draws = kernels.improving_draws(counts, n_melds, visible=seen, tile_set=tile_set)
        report["waits"] = _names(waits)
        report["waits_remaining"] = {tile_name(kind): int(live[kind]) for kind in waits}
        report["ukeire"] = sum(draws.values())
        report["ukeire_tiles"] = {tile_name(kind): copies for kind, copies in draws.items()}
        return report

    options = kernels.discard_options(counts, n_melds, visible=seen, tile_set=tile_set)
    discards, all_waits = [], set()
    for kind, (shanten, ukeire) in sorted(options.items(), key=lambda item: (item[1][0], -item[1][1], item[0])):
        after = counts.copy()
        after[kind] -= 1
        waits = _possible_waits(hand, after) if shanten == 0 else []
        all_waits.update(waits)
        discards.append({"discard": tile_name(kind), "shanten": shanten, "ukeire": ukeire, "waits": _names(waits)})
    lowest = min(option["shanten"] for option in discards)
    report["waits"] = _names(sorted(all_waits))
    report["waits_remaining"] = {tile_name(kind): int(live[kind]) for kind in sorted(all_waits)}
    report["ukeire"] = max(option["ukeire"] for option in discards if option["shanten"] == lowest)
    report["discards"] = discards
    return report


BATCH_KEYS = ("tiles", "shanten", "shanten_standard", "shanten_seven_pairs", "waits")


def batch_line(line: str, number: int, tile_set: np.ndarray = TILE_SET_ALL) -> dict:
    """One output object for one input line of a batch file; problems become {"error": ...}."""
    if not line.strip():
        return {"error": f"line {number}: empty line"}
    try:
        record = parse_line(line)
    except BatchLineError as error:
        return {"error": f"line {number}: {error}"}
    if not isinstance(record, dict) or not isinstance(record.get("tiles"), str):
        return {"error": f'line {number}: expected an object like {{"tiles": "123m456m789m1122z"}}'}
    try:
        report = analyse(parse_hand(record["tiles"]), tile_set=tile_set)
    except (NotationError, kernels.InvalidHandError) as error:
        return {"error": f"line {number}: {error}"}
    return {key: report[key] for key in BATCH_KEYS}


def format_report(report: dict) -> str:
    """Human-readable lines for a terminal."""
    seven = report["shanten_seven_pairs"]
    state = {-1: "complete", 0: "ready"}.get(report["shanten"], f"{report['shanten']} from ready")
    lines = [
        f"hand      {report['tiles']}",
        f"shanten   {report['shanten']} ({state}); standard {report['shanten_standard']}, "
        f"seven pairs {'n/a (melds)' if seven is None else seven}",
    ]
    waits = report["waits"]
    if waits:
        listed = ", ".join(f"{name} ×{report['waits_remaining'][name]}" for name in waits)
        lines.append(f"waits     {listed}  ({sum(report['waits_remaining'].values())} left)")
    else:
        lines.append("waits     none")
    if "discards" not in report:
        listed = ", ".join(f"{name} ×{copies}" for name, copies in report["ukeire_tiles"].items())
        kinds = len(report["ukeire_tiles"])
        tiles = "tile" if report["ukeire"] == 1 else "tiles"
        lines.append(f"ukeire    {report['ukeire']} {tiles} in {kinds} kind{'s' if kinds != 1 else ''}: {listed or '-'}")
        return "\n".join(lines)
    lines.append(f"ukeire    {report['ukeire']} after the best discard")
    lines.append("discard   shanten  ukeire  waits")
    for option in report["discards"]:
        lines.append(f"{option['discard']:<9} {option['shanten']:>7}  {option['ukeire']:>6}  {' '.join(option['waits'])}")
    return "\n".join(lines)
