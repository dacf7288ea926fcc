"""How an `erren-challenge` hand is put to the PyPI `mahjong` package (riichi rules), the independent reference
of its fan evaluator: 136-format tiles, the package's melds, and the win context as riichi states it.

The tests compare the two fan by fan (tests/erren/challenge/test_reference.py) and `mjsim bench` times the package
on the same hands. Winds are neutral (no seat or round wind): 004's game has none, so no wind is a value
tile and a wind pair gives no fu."""

from kernels.fan_ids import (
    EARTHLY_HAND_FLAG,
    EXTRA_DRAW_FLAG,
    HEAVENLY_HAND_FLAG,
    HEAVENLY_READY_FLAG,
    HUMAN_HAND_FLAG,
    KONG_REPLACEMENT_FLAG,
    LAST_WALL_TILE_FLAG,
    READY_FLAG,
    ROBBING_KONG_FLAG,
    SELF_DRAWN_FLAG,
)
from kernels.tiles import MELD_CHOW, MELD_CONCEALED_KONG, MELD_PONG

# §7 follows riichi where 004 is silent, with these of the package's options: open 断幺, 人和 a 役满, 大车轮 in
# every suit.
OPTIONS = dict(has_open_tanyao=True, renhou_as_yakuman=True, has_daisharin_other_suits=True)


def meld_tiles(code: int, kind: int) -> tuple[int, ...]:
    if code == MELD_CHOW:
        return (kind, kind + 1, kind + 2)
    return (kind,) * (3 if code == MELD_PONG else 4)


def package_tiles(concealed, melds, win):
    """(136-format tiles, the package's Meld objects, the winning tile): copies numbered in the order taken."""
    from mahjong.meld import Meld

    taken = [0] * 34

    def take(kind):
        taken[kind] += 1
        return 4 * kind + taken[kind] - 1

    win_tile = take(win)
    package_melds = []
    for code, kind in melds:
        meld_type = {MELD_CHOW: Meld.CHI, MELD_PONG: Meld.PON}.get(code, Meld.KAN)
        tiles = [take(tile) for tile in meld_tiles(code, kind)]
        package_melds.append(Meld(meld_type, tiles, opened=code != MELD_CONCEALED_KONG))
    tiles = [win_tile] + [tile for meld in package_melds for tile in meld.tiles]
    tiles += [take(kind) for kind in range(34) for _ in range(concealed[kind])]
    return tiles, package_melds, win_tile


def package_config(melds, flags: int):
    """The win context as riichi states it; the bits map one to one except where §7 itself reads them."""
    from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules

    concealed = all(code == MELD_CONCEALED_KONG for code, _ in melds)
    self_drawn = bool(flags & (SELF_DRAWN_FLAG | EXTRA_DRAW_FLAG))
    robbing = bool(flags & ROBBING_KONG_FLAG)
    replacement = bool(flags & KONG_REPLACEMENT_FLAG) and self_drawn
    last = bool(flags & LAST_WALL_TILE_FLAG)
    return HandConfig(
        is_tsumo=self_drawn,
        is_riichi=bool(flags & READY_FLAG) and concealed and not flags & HEAVENLY_READY_FLAG,
        is_daburu_riichi=bool(flags & HEAVENLY_READY_FLAG),
        is_rinshan=replacement,
        is_chankan=robbing,
        is_haitei=last and self_drawn and not replacement,  # §7: a kong replacement is never also 海底摸月
        is_houtei=last and not self_drawn and not robbing,
        is_tenhou=bool(flags & HEAVENLY_HAND_FLAG),
        is_chiihou=bool(flags & EARTHLY_HAND_FLAG),
        is_renhou=bool(flags & HUMAN_HAND_FLAG),
        player_wind=None,
        round_wind=None,
        options=OptionalRules(**OPTIONS),
    )


def estimate(concealed, melds, win, flags: int):
    """The package's answer for one hand (``HandCalculator.estimate_hand_value``)."""
    from mahjong.hand_calculating.hand import HandCalculator

    tiles, package_melds, win_tile = package_tiles(concealed, melds, win)
    return HandCalculator.estimate_hand_value(tiles, win_tile, package_melds, config=package_config(melds, flags))
