"""``render()`` shows the deal as ``mjsim replay`` prints it: a table driven to the end by greedy's own answers
renders exactly what ``mjsim replay`` prints for that seed and deal with greedy in every seat, the agents'
seats named ``agent``; mid-deal, the deal so far and who is to act."""

import pytest

import sim.rl
from sim.families import tables


def _greedy_to_the_end(environment):
    for agent in environment.agent_iter():
        terminated = environment.last()[2]
        environment.step(None if terminated else environment.table.environment.builtin_action("greedy"))


@pytest.mark.parametrize(("ruleset_id", "seats"), tables())
def test_render_of_a_deal_played_by_greedy_is_mjsim_replays_text(ruleset_id, seats, mjsim):
    environment = sim.rl.pettingzoo_env(ruleset_id, n_seats=seats, opponents={0: "greedy"}, render_mode="ansi")
    environment.reset(seed=7, options={"deal": 3})
    _greedy_to_the_end(environment)
    rendered = environment.render().splitlines()
    code, printed, _ = mjsim("replay", "--ruleset", ruleset_id, "--seed", "7", "--deal", str(environment.mjsim_deal),
                             "--players", ",".join(["greedy"] * seats))
    assert code == 0
    printed = printed.splitlines()
    assert len(rendered) == len(printed) > 20
    for seat in range(1, seats):  # the header lines: one per seat, after the title
        assert rendered[1 + seat] == f"seat {seat}: agent"
        assert printed[1 + seat].startswith(f"seat {seat}: greedy")
        rendered[1 + seat] = printed[1 + seat]
    assert rendered == printed


def test_render_mid_deal_shows_the_deal_so_far_and_who_is_to_act(mjsim):
    environment = sim.rl.pettingzoo_env("erren", render_mode="ansi")
    environment.reset(seed=7)
    for _ in range(6):
        environment.step(environment.table.environment.builtin_action("greedy"))
    rendered = environment.render()
    assert rendered.endswith(f"\n\n{environment.agent_selection} to act\n")
    assert "result:" not in rendered
    _greedy_to_the_end(environment)
    _, printed, _ = mjsim("replay", "--seed", "7", "--deal", "0")
    moves = rendered.splitlines()[4:-2]  # after the title, the seats and the wall; before the last line
    assert printed.splitlines()[4 : 4 + len(moves)] == moves


def test_human_mode_prints_what_ansi_returns(capsys):
    printed, returned = sim.rl.gymnasium_env("erren", render_mode="human"), sim.rl.gymnasium_env("erren", render_mode="ansi")
    printed.reset(seed=2)
    returned.reset(seed=2)
    assert printed.render() is None
    assert capsys.readouterr().out == returned.render()
