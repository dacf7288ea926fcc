"""血战 (seeds 002 and 003, rulesets `liangmen-xuezhan` and `sanren-liangfang`): two to four seats on the
筒 and 条 tiles, no chow, winners leave and the others play on, kong money, 查叫, 报叫 and 关死. See
docs/rules/ for the rules book."""

from pathlib import Path

from sim.players.family import Family
from sim.xuezhan import (
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

FAMILY = Family(
    name="xuezhan", title="血战", rulesets=("liangmen-xuezhan", "sanren-liangfang"),
    engine=engine, players=players, report=replay_report, scoring=scoring, money=money, event_log=event_log,
    observation=observation, environment=environment, ev=ev, numba_helpers=numba_helpers, switches=switches,
    rooms_file=Path(__file__).parent / "rooms.toml", currency="money",
)
