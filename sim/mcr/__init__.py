"""国标 (MCR, the Mahjong Competition Rules): four seats on all 136 tiles and 8 flowers, chow from the
seat on the left, an 8-fan minimum, seat and round winds across a 16-deal match. See docs/rules/mcr-table.md."""

from pathlib import Path

from sim.mcr import (
    engine,
    environment,
    ev,
    event_log,
    money,
    numba_helpers,
    observation,
    players,
    replay_report,
    scoring,
    switches,
)
from sim.players.family import Family

FAMILY = Family(
    name="mcr", title="国标", rulesets=("mcr",),
    engine=engine, players=players, report=replay_report, scoring=scoring, money=money, event_log=event_log,
    observation=observation, environment=environment, ev=ev, numba_helpers=numba_helpers, switches=switches,
    rooms_file=Path(__file__).parent / "rooms.toml", currency="points",
)
