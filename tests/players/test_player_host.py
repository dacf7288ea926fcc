"""The host of users' players (sim.players.player_host, sim.core.worker_processes): one call at a time, whatever
the garbage collector releases meanwhile, and a host that dies names only where its current call was."""

import os
from pathlib import Path

import pytest

from sim.core import worker_processes
from sim.core.ruleset import load_ruleset
from sim.families import family_of
from sim.players import player_host

PYTHON_PLAYER = f"{Path(__file__).resolve().parent / 'python_players.py'}:Builtin"
SEATED_HERE = "sorted(__import__('sim.players.player_host', fromlist=['_seated_tables'])._seated_tables)"


def _seat_and_play(ruleset):
    family = family_of(ruleset)
    players = family.parse_players([PYTHON_PLAYER, "greedy"], 2)
    family.engine.play(ruleset, players, 1, 1)
    return players


def test_a_table_released_while_its_host_plays_another_call_is_unseated_after_that_call():
    """The garbage collector may close a table during another table's call to the same host (here: a call
    that fails). The release waits; the call keeps its own answer, and the host lives on."""
    ruleset = load_ruleset("erren")
    first = _seat_and_play(ruleset)
    host = player_host._hosts[family_of(ruleset).engine.__name__.rpartition(".")[0]]
    process = host.worker.process.pid
    number = first.host.number
    host.worker.submit(int, "not a number")
    first.close()  # as a finalizer would, while the host is busy
    with pytest.raises(ValueError, match="not a number"):
        while not host.worker.ready():
            worker_processes.wait(host.worker.handles())
        host.worker.collect()
    assert host.worker.alive() and host.worker.process.pid == process
    assert number in host.worker.call(eval, SEATED_HERE)  # not yet: the host was busy
    second = _seat_and_play(ruleset)
    try:
        seated = host.worker.call(eval, SEATED_HERE)
        assert number not in seated and second.host.number in seated
        assert host.worker.process.pid == process
    finally:
        second.close()


def test_a_worker_that_dies_between_plays_names_no_deal_of_an_earlier_call():
    worker = worker_processes.Worker()
    try:
        worker.call(eval, "__import__('sim.core.worker_processes', fromlist=['x']).engine_status().fill(7)")
        with pytest.raises(worker_processes.WorkerDied) as died:
            worker.call(os._exit, 3)
        assert (died.value.exit_code, died.value.deal, died.value.seat, died.value.decision) == (3, -1, -1, -1)
    finally:
        worker.close()
