"""The switches of a 血战-family ruleset file (``family = "xuezhan"``): which keys its ``[ruleset]`` table holds,
its ``[kong_money]`` table, and how they become the Ruleset's settings and its ``XuezhanSwitches``.

The shared loader (``sim.core.ruleset``) reads the fans and checks the identity keys; it finds this module's
``SCHEMA`` by the family's name. docs/rules/xuezhan-table.md says what each switch does at the table.
"""

from dataclasses import dataclass, fields

from kernels.fan_ids import Fan
from sim.core.ruleset import LARGEST_SETTING, MOST_SEATS, FamilySchema, check_at_most

SWITCHES = {
    "id": str,
    "name": str,
    "seed": str,
    "tile_set": str,
    "family": str,
    "players": list,
    "combine": str,
    "cap": int,
    "self_drawn_bonus": str,
    "kong_units_in_win": bool,
    "declared_ready": bool,
    "pass_pong_lock": bool,
    "pass_win_lock": bool,
    "missed_win_lock": bool,
    "passed_kong_pays": bool,
    "last_tile_kong": bool,
    "chajiao_voids_kong_money": bool,
    "all_simples_scored": bool,
    "earthly_hand_self_drawn": bool,
    "exchange_three": bool,
    "void_suit": bool,
}
KONG_MONEY_KEYS = ("exposed_discarder", "exposed_others", "added_others", "concealed_others")
COMBINES = ("multiply", "power_of_two")
SEAT_COUNTS = tuple(range(2, MOST_SEATS + 1))
SELF_DRAWN_BONUSES = ("fan", "unit")


@dataclass(frozen=True)
class XuezhanSwitches:
    """The table rules of a 血战-family ruleset (docs/rules/xuezhan-table.md); kong money in units of the base stake."""

    self_drawn_bonus: str  # "fan": 自摸 is a fan (003 加番); "unit": +1 unit per payer instead (003 加底)
    kong_units_in_win: bool  # 003: a win is worth 2**fans + the winner's kong units
    declared_ready: bool  # 报叫
    pass_pong_lock: bool  # 过手碰
    pass_win_lock: bool  # 过水胡
    missed_win_lock: bool  # 漏胡
    passed_kong_pays: bool  # 过手杠 earns kong money
    last_tile_kong: bool  # the last tile may be konged (false: ponged only)
    chajiao_voids_kong_money: bool  # a player who pays 查叫 gives back its kong money
    all_simples_scored: bool  # 中张 / 断幺九 is scored
    earthly_hand_self_drawn: bool  # 地胡 also for a non-dealer's self-draw on its first draw (003)
    exchange_three: bool  # 换三张: each seat passes three tiles of one suit, in a drawn direction
    void_suit: bool  # 定缺: each seat declares a suit it must discard first and may not win holding
    exposed_discarder: int  # exposed kong from a discard: what the discarder pays
    exposed_others: int  # ... and what every other player still in pays (擦挂)
    added_others: int  # added kong (补杠/巴杠): every other player still in
    concealed_others: int  # concealed kong: every other player still in


def settings(switches: dict, data: dict, fail) -> dict:
    """The Ruleset's settings from a file's checked-for-type switches and its [kong_money]; `fail` raises."""
    kong_money = data.get("kong_money")
    players = switches["players"]
    if (
        not players
        or not all(isinstance(count, int) and not isinstance(count, bool) and count in SEAT_COUNTS for count in players)
        or len(set(players)) != len(players)
    ):
        fail(f"[ruleset] players = {players!r} must list distinct seat counts from {SEAT_COUNTS}")
    if switches["combine"] not in COMBINES:
        fail(f"[ruleset] combine = {switches['combine']!r} is not one of {', '.join(COMBINES)}")
    if switches["cap"] < 0:
        fail("[ruleset] cap must be 0 (no cap) or more")
    check_at_most(fail, "[ruleset] cap", switches["cap"], LARGEST_SETTING)
    if switches["self_drawn_bonus"] not in SELF_DRAWN_BONUSES:
        fail(f"[ruleset] self_drawn_bonus = {switches['self_drawn_bonus']!r} is not one of {', '.join(SELF_DRAWN_BONUSES)}")
    if not isinstance(kong_money, dict):
        fail("a family = 'xuezhan' ruleset needs a [kong_money] table")
    for key in KONG_MONEY_KEYS:
        if key not in kong_money:
            fail(f"[kong_money] lacks {key!r}")
        value = kong_money[key]
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            fail(f"[kong_money] {key} = {value!r} must be a whole number of units, 0 or more")
        check_at_most(fail, f"[kong_money] {key}", value, LARGEST_SETTING)
    extra = set(kong_money) - set(KONG_MONEY_KEYS)
    if extra:
        fail(f"[kong_money] has an unknown key {min(extra)!r}; known: {', '.join(KONG_MONEY_KEYS)}")
    names = [switch.name for switch in fields(XuezhanSwitches)]
    xuezhan = XuezhanSwitches(**{name: switches[name] if name in switches else kong_money[name] for name in names})
    return {
        "min_fan": 0,
        "flowers": False,
        "max_doubles": 0,
        "ready_requires_concealed": False,
        "players": tuple(players),
        "combine": switches["combine"],
        "cap": switches["cap"],
        "xuezhan": xuezhan,
        # table options that switch a listed fan off (003's 加底 and 门清中张): the entry stays in the file
        "dropped_fans": {fan for fan, dropped in ((Fan.SELF_DRAWN, xuezhan.self_drawn_bonus == "unit"),
                                                  (Fan.ALL_SIMPLES, not xuezhan.all_simples_scored)) if dropped},
    }


SCHEMA = FamilySchema(SWITCHES, ("kong_money",), settings, ("tong-tiao",))
