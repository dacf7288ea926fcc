"""The calibration table (analysis.calibration) and ev's fitted curves (sim.players.ev_calibration): a player whose
reports come true has every gap hold zero; one whose reports are too sure is caught; the intervals are the
clustered ones their formula gives; the fitted curve is the isotonic regression, read back inside numba as
it was written."""

import naive
import numpy as np
import pandas as pd
import pytest

from analysis import calibration
from sim.core.ruleset import load_ruleset
from sim.families import family_of, tables
from sim.players import ev_calibration
from sim.players import ev_calibration_table as fitted
from sim.runs import calibration_lineups


def _reports(n_deals, chance_of, truth_of, seed=5):
    """Synthetic reports: 6 a deal by one seat, all the chance `chance_of` draws for the deal, which is won
    with the chance `truth_of` gives that report."""
    generator = np.random.default_rng(seed)
    deals = np.repeat(np.arange(n_deals), 6)
    first = chance_of(generator, n_deals)
    chances = np.repeat(first, 6)
    won = generator.random(n_deals) < truth_of(first)
    frame = pd.DataFrame({"deal": deals, "seat": np.zeros(deals.size, np.int8), "chance": chances.astype(np.float32)})
    records = pd.DataFrame({"deal": np.arange(n_deals)})
    return frame, records, np.column_stack([won, ~won])


def test_reports_that_come_true_hold_zero_in_every_interval():
    frame, records, won = _reports(40_000, lambda generator, n: generator.random(n), lambda chance: chance)
    table = calibration.calibration_table(frame, records, won, ["true", "other"])
    assert len(table) == calibration.BUCKETS and table["within"].all()
    assert table["reports"].sum() == len(frame) and (table["deals"] <= 40_000).all()


def test_reports_too_sure_of_winning_are_caught():
    frame, records, won = _reports(40_000, lambda generator, n: generator.random(n), lambda chance: 0.5 + (chance - 0.5) / 2)
    table = calibration.calibration_table(frame, records, won, ["sure", "other"]).set_index("bucket")
    assert not table.loc["90-100%", "within"] and table.loc["90-100%", "gap"] < -0.15
    assert not table.loc["0-10%", "within"] and table.loc["0-10%", "gap"] > 0.15


def test_the_clustered_error_is_its_formula():
    generator = np.random.default_rng(3)
    values = generator.random(300)
    clusters = generator.integers(0, 40, 300)
    _, labels = np.unique(clusters, return_inverse=True)
    assert calibration._clustered_error(values, labels) == pytest.approx(naive.clustered_error(values, clusters))


def test_reports_of_one_deal_count_as_one_cluster():
    """Six reports a deal, all alike, make the interval of one report a deal: the clustering counts."""
    frame, records, won = _reports(4_000, lambda generator, n: np.full(n, 0.55), lambda chance: chance)
    table = calibration.calibration_table(frame, records, won, ["a", "b"])
    assert len(table) == 1  # one bucket: the interval is a plain 95% one
    half = (table["gap_high"].iloc[0] - table["gap_low"].iloc[0]) / 2
    assert half == pytest.approx(1.96 * np.sqrt(0.55 * 0.45 / 4_000), rel=0.05)


@pytest.mark.parametrize("seed", range(6))
def test_isotonic_regression_is_the_min_max_formula(seed):
    generator = np.random.default_rng(seed)
    values, weights = generator.random(12), generator.random(12) + 0.1
    assert ev_calibration.isotonic(values, weights) == pytest.approx(naive.isotonic(list(values), list(weights)))


def test_a_fitted_curve_recovers_a_known_calibration():
    """Each step's value is the won share of the reports in it: the truth's mean over the step."""
    generator = np.random.default_rng(8)
    chances = generator.random(200_000)
    won = (generator.random(chances.size) < 0.2 + 0.5 * chances).astype(float)
    curve = ev_calibration.fit_curve(chances, won)
    assert 20 <= len(curve) <= ev_calibration.MAX_KNOTS and np.all(np.diff(curve[:, 1]) >= 0)
    assert np.all(np.diff(curve[:, 0]) > 0) and curve[-1, 0] == 1.0
    lows = np.concatenate([[0.0], curve[:-1, 0]])
    assert curve[:, 1] == pytest.approx(0.2 + 0.5 * (lows + curve[:, 0]) / 2, abs=0.02)


def test_too_few_reports_fit_no_curve():
    assert ev_calibration.fit_curve(np.random.default_rng(1).random(100), np.ones(100)).shape == (0, 2)


@pytest.mark.parametrize("table", range(len(ev_calibration.TABLES)))
@pytest.mark.parametrize("estimate", range(ev_calibration.N_ESTIMATES))
def test_the_curve_read_in_numba_is_the_curve_written(table, estimate):
    """A step's value up to its upper end, the last step's beyond; the search's chance where none was fitted."""
    read = [ev_calibration.calibrated(point, estimate, table) for point in np.linspace(0, 1, 57)]
    if estimate == ev_calibration.TWO_DRAWS and fitted.COUNTS[table, estimate] == 0:
        estimate = ev_calibration.ONE_DRAW  # read with the one-draw curve
    count = fitted.COUNTS[table, estimate]
    points = np.linspace(0, 1, 57)
    if count == 0:
        assert read == pytest.approx(points)
    else:
        steps = fitted.KNOTS[table, estimate, :count]
        expected = [next((value for end, value in steps if point <= end), steps[-1, 1]) for point in points]
        assert read == pytest.approx(expected, abs=1e-12)


def test_a_coded_report_decodes_to_its_estimate_and_chance():
    chances = np.linspace(0, 1, 11)
    for estimate in range(ev_calibration.N_ESTIMATES):
        coded = np.array([ev_calibration.report(chance, estimate, 0, ev_calibration.REPORT_CODED) for chance in chances])
        assert np.all((coded >= 0) & (coded <= 1))
        decoded_estimate, decoded = ev_calibration.decode(coded)
        assert (decoded_estimate == estimate).all() and decoded == pytest.approx(chances, abs=1e-9)


def test_the_written_table_is_read_back(tmp_path):
    curves = {(1, 2): np.array([[0.1, 0.2], [0.5, 0.4], [0.9, 0.7]])}
    tables_fitted = (("erren", "erren", 2), ("erren-classic", "erren-classic", 2))
    text = ev_calibration.table_text(curves, {"fitted on": "a test"}, {"erren": "a test"},
                                     {"erren": ("ev:report=2", "ev")}, tables_fitted)
    namespace = {}
    exec(compile(text, "table", "exec"), namespace)  # noqa: S102 - the module the command writes
    assert namespace["COUNTS"][1, 2] == 3 and namespace["COUNTS"].sum() == 3
    assert namespace["KNOTS"][1, 2, :3] == pytest.approx(curves[(1, 2)])
    assert namespace["FITTED_ON"] == {"erren": "a test"}
    assert namespace["LINEUPS"] == {"erren": ("ev:report=2", "ev")}
    assert namespace["TABLES"] == tables_fitted and namespace["KNOTS"].shape[0] == 2


# --- the lineup the curves hold for


def _canonical(ruleset_id, texts):
    ruleset = load_ruleset(ruleset_id)
    return ruleset, family_of(ruleset).engine.Players.parse(texts, len(texts)).names


@pytest.mark.parametrize(("ruleset_id", "seats"), tables())
def test_the_table_a_familys_ev_names_for_a_ruleset_is_the_one_it_reads_inside_numba(ruleset_id, seats):
    ruleset = load_ruleset(ruleset_id)
    family = family_of(ruleset)
    rules, _ = family.engine.kernel_rules(ruleset)
    read = family.ev.table_key(rules) if family.name == "erren" else family.ev.table_key(rules, seats)
    assert family.ev.calibration_table(ruleset, seats) == read


def test_ev_against_greedy_at_default_parameters_is_the_fitted_lineup():
    for ruleset_id, texts in (("erren", ["ev", "greedy"]), ("liangmen-xuezhan", ["greedy", "ev", "greedy", "greedy"])):
        assert calibration_lineups.lineup_note(*_canonical(ruleset_id, texts)) is None


def test_ev_in_another_lineup_says_its_chances_are_uncalibrated_and_how_to_fit_them():
    note = calibration_lineups.lineup_note(*_canonical("erren", ["ev", "ev"]))
    assert "uncalibrated for this lineup (ev v ev)" in note
    assert "mjsim calibrate-ev --tables erren --opponents ev" in note
    note = calibration_lineups.lineup_note(*_canonical("sanren-liangfang", ["ev", "value", "value"]))
    assert "--tables sanren-liangfang-3 --opponents value:" in note
    assert "\n" not in note
    # ev with other parameters than the fitted ones is another lineup too; a seat reporting the search's own
    # chance (report=0) reports no calibrated chance
    assert calibration_lineups.lineup_note(*_canonical("erren", ["ev:depth=2", "greedy"])) is not None
    assert calibration_lineups.lineup_note(*_canonical("erren", ["ev:report=0", "ev:report=0"])) is None


@pytest.mark.parametrize(("opponents", "says"), [
    ("nobody", "not a built-in player of erren"),
    ("examples/players/simple.py:Coin", "not a built-in player of erren"),
    ("greedy:speed=3", "unknown parameter"),
])
def test_calibrate_ev_refuses_an_opponent_that_is_not_a_built_in_player_before_playing(mjsim, tmp_path, opponents,
                                                                                       says):
    from pathlib import Path

    table = Path(ev_calibration.__file__).with_name("ev_calibration_table.py")
    before = table.read_bytes()
    code, out, err = mjsim("calibrate-ev", "--tables", "erren", "--deals", "10", "--opponents", opponents,
                           "--out", str(tmp_path / "fits"))
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "fits").exists() and table.read_bytes() == before
