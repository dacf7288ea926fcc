"""二人麻将 (seeds 000 and 001, rulesets `erren` and `erren-classic`): two seats on the 64 万 and honour
tiles (plus 8 flowers), MCR-style fans, 报听, 加倍, and 富贵豆 rooms; and seed 004's arcade game
(`erren-challenge`) on all 136 tiles with its own fans and points. See docs/rules/ for the rules book."""

from pathlib import Path

from sim.erren import (
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
from sim.erren.challenge import scoring as challenge_scoring
from sim.players.family import Family

FAMILY = Family(
    name="erren", title="二人", rulesets=("erren", "erren-classic", "erren-challenge"),
    engine=engine, players=players, report=replay_report, scoring=scoring, money=money, event_log=event_log,
    observation=observation, environment=environment, ev=ev, numba_helpers=numba_helpers, switches=switches,
    rooms_file=Path(__file__).parent / "rooms.toml", currency="beans",
    points_rooms_file=Path(__file__).parent / "points_rooms.toml",
    named_rooms={"app": Path(__file__).parent / "app_rooms.toml"},  # seed 004's real rooms
    scoring_by_evaluator={"challenge": challenge_scoring},  # 004's game (docs/rules/erren-challenge.md)
)
