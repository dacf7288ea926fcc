"""The `mjsim` command line: each command declares its options, calls what does the work (``sim.commands``,
or the layer that owns it) and prints.

Every expected failure (bad notation, a missing file, a bad option value) ends in one `error:` line on
stderr and exit status 2, never a traceback.
"""

import json
import signal
import sys
from pathlib import Path
from typing import Annotated

import typer

import kernels
import sim
from analysis.report import ReportError
from kernels.tiles import TILE_SETS
from sim.commands.options import UserError, within
from sim.core.notation import NotationError, parse_hand, parse_tiles
from sim.core.result_files import OutputPathError, write_text_atomically
from sim.core.rooms import RoomsError
from sim.core.ruleset import RulesetError

# Limits checked up front, so that a huge value is one error line, not an overflow deep in a kernel or a
# machine brought down growing toward all its memory (shared with the run directory's reader).
from sim.core.size_limits import (
    LARGEST_DEALS,
    LARGEST_DUEL,
    LARGEST_RUNS,
    LARGEST_SEED,
    LARGEST_SESSION,
    LARGEST_SHARD,
    check_memory,
)
from sim.core.win_context import ScoringError
from sim.erren.challenge.levels import LevelsError
from sim.families import FAMILIES, calibration_tables, ruleset_ids
from sim.players.player_text import PlayerError
from sim.runs.runner import RunError

# What the help texts list, read from the families' registry (sim.families)
RULESET_HELP = f"Ruleset id ({', '.join(ruleset_ids())}) or a ruleset .toml file."
ROOMS_FILES = ", ".join(str(family.rooms_file.relative_to(Path(sim.__file__).parent.parent)) for family in FAMILIES.values())

HELP = "mjsim: Monte Carlo simulator for Chinese mahjong at two to four seats: 二人麻将, the 血战 family and 004's 闯关 game."
app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None, help=HELP)


def _batch_input(path: Path) -> list[str]:
    """The lines of a batch file, or of standard input for `-` (split on newlines only: sim.core.batch_text)."""
    from sim.core.batch_text import BatchLineError, decode, split_lines

    if str(path) == "-":
        data, name = sys.stdin.buffer.read(), "standard input"
    elif not path.is_file():
        raise UserError(f"batch file not found: {path}")
    else:
        data, name = path.read_bytes(), f"batch file {path}"
    try:
        return split_lines(decode(data, name))
    except BatchLineError as error:
        raise UserError(str(error)) from None


def _version(show: bool) -> None:
    if show:
        from sim.core.result_files import versions

        typer.echo(f"mjsim {versions()['mjsim']}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True, help="Print mjsim's version and exit.")] = False,
) -> None:
    """mjsim: Monte Carlo simulator for Chinese mahjong at two to four seats: 二人麻将, the 血战 family and 004's 闯关 game."""


def _write_lines(outputs: list[dict], out: Path | None) -> None:
    """One JSON line per output, to stdout or atomically to `out`."""
    text = "".join(json.dumps(output, ensure_ascii=False) + "\n" for output in outputs)
    if out is None:
        sys.stdout.write(text)
    else:
        write_text_atomically(out, text)


def _tile_set(name: str):
    if name not in TILE_SETS:
        raise UserError(f"unknown tile set {name!r}; choose one of {', '.join(TILE_SETS)}")
    return TILE_SETS[name]


@app.command()
def shanten(
    hand: Annotated[str | None, typer.Argument(help="A hand in MPSZ notation, e.g. '123456789m1122z' or '45m66z (2222m) [6666m]'.")] = None,
    batch: Annotated[Path | None, typer.Option(help="A JSONL file of {\"tiles\": \"<MPSZ>\"} lines ('-': standard input); one JSON line out per line in.")] = None,
    out: Annotated[Path | None, typer.Option(help="With --batch: write the output lines here instead of stdout.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    visible: Annotated[str, typer.Option(help="Tiles seen elsewhere (discards, the opponent's melds), e.g. '19m77z'; they are not live.")] = "",
    tile_set: Annotated[str, typer.Option(help="Which tiles are in the wall: 'all' (136) or 'wan-honours' (万 and honours, 二人麻将).")] = "all",
):
    """Shanten (standard form, seven pairs, best), waits with copies left, and ukeire of a hand."""
    from sim.commands.hand_report import analyse, batch_line, format_report

    copies = _tile_set(tile_set)
    if (hand is None) == (batch is None):
        raise UserError("give either a HAND or --batch FILE")
    if batch is not None:
        _write_lines([batch_line(line, number, copies) for number, line in enumerate(_batch_input(batch), 1)], out)
        return
    seen = parse_tiles(visible) if visible.strip() else None
    report = analyse(parse_hand(hand), visible=seen, tile_set=copies)
    typer.echo(json.dumps(report, ensure_ascii=False) if as_json else format_report(report))


@app.command()
def score(
    hand: Annotated[str | None, typer.Argument(help="Concealed tiles without the winning tile, with melds, e.g. '45m66z777z (2222m) [6666m]'.")] = None,
    win: Annotated[str | None, typer.Option(help="The winning tile, e.g. 3m.")] = None,
    self_drawn: Annotated[bool, typer.Option("--self-drawn", help="Won by self-draw (自摸); otherwise on a discard.")] = False,
    last_tile: Annotated[bool, typer.Option("--last-tile", help="On the last wall tile (妙手回春) or the discard after it (海底捞月).")] = False,
    kong_replacement: Annotated[bool, typer.Option("--kong-replacement", help="Self-drawn on a kong replacement (杠上开花).")] = False,
    robbing_kong: Annotated[bool, typer.Option("--robbing-kong", help="On a tile added to a pong (抢杠胡).")] = False,
    fourth_tile: Annotated[bool, typer.Option("--fourth-tile", help="The other three copies are visible on the table (和绝张).")] = False,
    flowers: Annotated[int, typer.Option(help="Flowers the winner holds (erren: 1 fan each, never toward the minimum).")] = 0,
    ready: Annotated[bool, typer.Option("--ready", help="The winner had declared ready (报听).")] = False,
    tianting: Annotated[bool, typer.Option("--tianting", help="The ready declaration was 天听.")] = False,
    tianhu: Annotated[bool, typer.Option("--tianhu", help="天胡: the dealer's initial hand.")] = False,
    dihu: Annotated[bool, typer.Option("--dihu", help="地胡: the non-dealer's first draw.")] = False,
    renhu: Annotated[bool, typer.Option("--renhu", help="人胡: on the dealer's first discard.")] = False,
    discard_after_kong: Annotated[bool, typer.Option("--discard-after-kong", help="杠上炮 (血战 family): on the discard made right after the discarder's kong.")] = False,
    extra_draw: Annotated[bool, typer.Option("--extra-draw", help="erren-challenge: self-drawn in the extra draws after an exhausted wall (海底捞月).")] = False,
    bonus: Annotated[str, typer.Option(help="erren-challenge: the face-up bonus tiles (花牌), e.g. 7z.")] = "",
    seat_wind: Annotated[str, typer.Option(help="MCR: the winner's seat wind (门风刻): east, south, west or north.")] = "east",
    round_wind: Annotated[str, typer.Option(help="MCR: the round's prevalent wind (圈风刻): east, south, west or north.")] = "east",
    ruleset: Annotated[str, typer.Option(help=RULESET_HELP)] = "erren",
    batch: Annotated[Path | None, typer.Option(help="A JSONL file of hands ('-': standard input; docs/scoring.md); one JSON line out per line in.")] = None,
    out: Annotated[Path | None, typer.Option(help="With --batch: write the output lines here instead of stdout.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the score as one JSON object (a batch output line).")] = False,
):
    """Score a winning hand: its fans (seed name, value, count), the total, and whether it reaches the minimum
    (血战 rulesets: the value per payer, before and after the cap; erren-challenge: the points)."""
    from sim.core.ruleset import load_ruleset
    from sim.families.scoring import (
        WinContext,
        batch_lines,
        bonus_kinds,
        parse_scoring_input,
    )
    from sim.families.scoring import score as score_hand

    rules = load_ruleset(ruleset)
    if batch is not None:
        if hand is not None or win is not None:
            raise UserError("give either HAND --win TILE or --batch FILE, not both")
        _write_lines(batch_lines(_batch_input(batch), rules), out)
        return
    if hand is None or win is None:
        raise UserError("give a HAND and its winning tile with --win (or --batch FILE)")
    context = WinContext(
        self_drawn=self_drawn, last_tile=last_tile, kong_replacement=kong_replacement, robbing_kong=robbing_kong,
        fourth_tile=fourth_tile, flowers=flowers, ready=ready, tianting=tianting, tianhu=tianhu, dihu=dihu, renhu=renhu,
        discard_after_kong=discard_after_kong, extra_draw=extra_draw, bonus=bonus_kinds(bonus),
        seat_wind=seat_wind, round_wind=round_wind,
    )
    tiles, winning = parse_scoring_input(hand, win)
    result = score_hand(tiles, winning, context, rules)
    if as_json:
        typer.echo(json.dumps(result.as_dict(), ensure_ascii=False))
    else:
        typer.echo(f"{rules.id} ({rules.name}): {tiles} + {win.strip()}, {'self-drawn' if self_drawn else 'on a discard'}")
        typer.echo(result.format())


@app.command()
def bench(
    hands: Annotated[int, typer.Option(help="Random hands per hand set.")] = 1_000_000,
    reference_hands: Annotated[int, typer.Option(help="Hands given to each reference calculator.")] = 20_000,
    fan_hands: Annotated[int, typer.Option(help="Generated winning hands for the fan evaluation rates.")] = 200_000,
    deals: Annotated[int, typer.Option(help="Deals per batch for the whole-deal rates (0 skips them).")] = 50_000,
    seed: Annotated[int, typer.Option(help="Seed of the random hands.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON.")] = False,
    compile_cost: Annotated[bool, typer.Option("--compile", help="Instead: what compiling costs each of the main job, a run of each ruleset, duel ev greedy, score, shanten, the first environment reset and a user's numba player, each in a fresh process on a fresh cache (CPU seconds, heaviest functions).")] = False,
    task: Annotated[str | None, typer.Option(help="With --compile: only the tasks whose name contains this text.")] = None,
):
    """Rates of the shanten, waits, ukeire and fan kernels (against PyPI mahjong and PyMahjongGB on the same
    hands) and of whole deals per heuristic pairing (against riichienv when installed); or, with --compile,
    what compiling costs on a cold cache."""
    from sim.commands import benchmark
    from sim.core.progress import progress_bar

    if compile_cost:
        from sim.commands import compile_benchmark

        names = list(compile_benchmark.tasks(Path(".")))
        if not any(task is None or task in name for name in names):
            raise UserError(f"--task {task!r} names no compile task")
        with progress_bar("compiling on cold caches", len(names)) as advance:
            try:
                results = compile_benchmark.run(progress=advance, only=task)
            except RuntimeError as error:
                raise UserError(str(error)) from None
        typer.echo(json.dumps(results, indent=2) if as_json else compile_benchmark.format_results(results), nl=False)
        return

    if hands < 1 or reference_hands < 1 or reference_hands > hands:
        raise UserError("--hands and --reference-hands must be positive, with --reference-hands at most --hands")
    if fan_hands < 1 or deals < 0:
        raise UserError("--fan-hands must be positive and --deals not negative")
    within("--seed", seed, 0, LARGEST_SEED)
    within("--deals", deals, 0, LARGEST_SHARD)  # each batch is played at once, in memory
    check_memory(hands * benchmark.BYTES_PER_HAND + fan_hands * benchmark.BYTES_PER_FAN_HAND,
                 f"{hands:,} hands and {fan_hands:,} winning hands", "give fewer --hands or --fan-hands", UserError)
    with progress_bar("benchmark", len(benchmark.HAND_SETS) + 1 + (deals > 0)) as advance:
        results = benchmark.run(
            hands, reference_hands, min(20_000, hands), seed, progress=advance, n_fan_hands=fan_hands, n_deals=deals
        )
    typer.echo(json.dumps(results, indent=2) if as_json else benchmark.format_results(results), nl=False)


@app.command()
def warmup(
    rulesets: Annotated[list[str] | None, typer.Argument(help="Ruleset ids or .toml files (default: every shipped ruleset).")] = None,
    players: Annotated[str | None, typer.Option(help="The players of the runs to compile for, e.g. 'ev,greedy' (default: each ruleset's default).")] = None,
):
    """Compile ahead of time what runs, score and shanten of these rulesets use, into the cache every later
    mjsim process loads (docs/kernels.md#compiling-and-caching)."""
    from sim.commands.warmup import warm
    from sim.core.progress import progress_bar
    from sim.core.ruleset import available, load_ruleset

    chosen = list(rulesets or available())
    for ruleset in chosen:
        load_ruleset(ruleset)  # an unknown ruleset is refused before anything compiles
    with progress_bar("compiling", len(chosen) + 1) as advance:
        steps = warm(chosen, players, progress=advance)
    for what, seconds in steps:
        typer.echo(f"{what}: {seconds:.1f} s")


@app.command()
def demo(
    deals: Annotated[int, typer.Option(help="Number of deals.")] = 1_000_000,
    seed: Annotated[int, typer.Option(help="Seed; deal i is a pure function of (seed, i).")] = 1,
    out: Annotated[Path, typer.Option(help="Directory for the table.")] = Path("results/demo"),
):
    """Deal initial 二人麻将 hands and tabulate their shanten and ukeire (writes Parquet under results/)."""
    from sim.commands.demo import initial_shanten_table
    from sim.core.progress import progress_bar
    from sim.core.result_files import write_table

    within("--deals", deals, 1, LARGEST_DEALS)
    within("--seed", seed, 0, LARGEST_SEED)
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out} exists and is not a directory")
    with progress_bar("dealing", deals) as advance:
        table = initial_shanten_table(seed, deals, progress=advance)
    config = {"command": "demo", "deals": deals, "seed": seed, "tile_set": "wan-honours"}
    path = write_table(table, out / "initial_shanten.parquet", config)
    typer.echo(table.to_string(index=False, float_format=lambda value: f"{value:.6f}"))
    typer.echo(f"wrote {path}")


@app.command()
def replay(
    ruleset: Annotated[str, typer.Option(help=RULESET_HELP)] = "erren",
    seed: Annotated[int, typer.Option(help="Seed of the run the deal belongs to.")] = 1,
    deal: Annotated[int, typer.Option(help="Index of the deal in the run.")] = 0,
    players: Annotated[str | None, typer.Option(help="One player per seat, e.g. 'greedy,random' or 'value:speed=6,defensive' (default greedy in every seat).")] = None,
    session_length: Annotated[int, typer.Option(help="Deals per session with dealer rotation (0: every deal draws its dealer).")] = 0,
    json_lines: Annotated[bool, typer.Option("--json", help="Print the deal's events as JSON lines, in the schema of the event logs `mjsim run --logs` writes (docs/event-logs.md).")] = False,
):
    """Replay one deal: every draw, discard, claim and the final scoring, in MPSZ notation (or, with --json, its events as data)."""
    from sim.core.ruleset import load_ruleset
    from sim.families import family_of
    from sim.runs import runner

    within("--seed", seed, 0, LARGEST_SEED)
    within("--deal", deal, 0, LARGEST_DEALS)
    within("--session-length", session_length, 0, LARGEST_SESSION)
    rules = load_ruleset(ruleset)
    family = family_of(rules)
    runner.check_sessions(rules, session_length)
    seats = runner.seated_players(rules, players)
    try:
        log = family.engine.replay(rules, seats, seed, deal, session_length)
    finally:
        seats.close()
    if json_lines:
        from sim.core.event_logs import json_lines as as_json_lines

        typer.echo(as_json_lines(family.event_log.deal_table(log)), nl=False)
        return
    typer.echo(family.report.format_deal(log, rules, seats, seed), nl=False)


@app.command()
def run(
    ruleset: Annotated[str, typer.Option(help=RULESET_HELP)] = "erren",
    players: Annotated[str | None, typer.Option(help="One player per seat, e.g. 'greedy,greedy' or 'value:speed=6,defensive' (default greedy in every seat).")] = None,
    deals: Annotated[int, typer.Option(help="Number of deals.")] = 200_000,
    seed: Annotated[int, typer.Option(help="Seed; deal i is a pure function of (seed, i).")] = 1,
    out: Annotated[Path | None, typer.Option(help="Run directory (default results/<ruleset>-<player>-v-<player>-seed<seed>).")] = None,
    workers: Annotated[int, typer.Option(help="Worker processes (0: one per core).")] = 0,
    shard_size: Annotated[int, typer.Option(help="Deals per shard file.")] = 50_000,
    session_length: Annotated[int, typer.Option(help="Deals per session with dealer rotation (0: every deal draws its dealer).")] = 0,
    resume: Annotated[bool, typer.Option("--resume", help="Finish an interrupted run in --out: play its missing shards, and again any unsound one.")] = False,
    allow_code_change: Annotated[bool, typer.Option("--allow-code-change", help="With --resume: finish a run started by other code (its deals may differ).")] = False,
    rooms: Annotated[Path | None, typer.Option(help=f"A rooms file for the money tables; default the family's ({ROOMS_FILES}).")] = None,
    backend: Annotated[str, typer.Option(help="'local' (worker processes here) or 'dask' (an existing Dask cluster).")] = "local",
    scheduler: Annotated[str | None, typer.Option(help="With --backend dask: the scheduler's address, e.g. tcp://10.0.0.1:8786.")] = None,
    logs: Annotated[bool, typer.Option("--logs", help="Also write every deal's event log, one Parquet file per shard under logs/ (docs/event-logs.md).")] = False,
    decisions: Annotated[str | None, typer.Option("--decisions", metavar="SEATS", help="Also keep these seats' decisions (e.g. 0 or 0,1): one row per decision with a choice, one Parquet file per shard under decisions/ (docs/learning.md#decision-datasets).")] = None,
    report: Annotated[bool, typer.Option("--report", help="Also write the run's page of charts, report.html in the run directory (as mjsim report does).")] = False,
):
    """Play deals on all cores (or a Dask cluster) into a run directory: per-deal records and the tables (Parquet)."""
    from sim.core.progress import progress_bar
    from sim.core.ruleset import load_ruleset
    from sim.runs import runner

    within("--deals", deals, 1, LARGEST_DEALS)
    within("--seed", seed, 0, LARGEST_SEED)
    within("--shard-size", shard_size, 1, LARGEST_SHARD)
    within("--session-length", session_length, 0, min(LARGEST_SESSION, shard_size))
    rules = load_ruleset(ruleset)
    seats = runner.seated_players(rules, players)
    config = runner.RunConfig(ruleset, seats.names, deals, seed, shard_size, session_length)
    if workers < 0:
        raise UserError("--workers must not be negative")
    if backend not in ("local", "dask"):
        raise UserError(f"unknown backend {backend!r}; choose local or dask")
    if (backend == "dask") != (scheduler is not None):
        raise UserError("--backend dask needs --scheduler ADDRESS, and --scheduler needs --backend dask")
    if scheduler is not None:
        runner.check_scheduler_address(scheduler)
    decision_seats = ()
    if decisions is not None:
        from sim.core.decision_logs import parse_seats

        try:
            decision_seats = parse_seats(decisions, len(seats.names))
        except ValueError as error:
            raise UserError(str(error)) from None
    directory = out if out is not None else runner.default_directory(config)
    with progress_bar("deals", deals) as advance:
        result = runner.run(config, directory, workers, resume, progress=advance, rooms=rooms, scheduler=scheduler,
                            allow_code_change=allow_code_change, notify=lambda line: typer.echo(line, err=True), logs=logs,
                            decision_seats=decision_seats)
    typer.echo(runner.format_summary(result), nl=False)
    if report:
        from analysis.report import write_report

        typer.echo(f"wrote {write_report(directory)}")


@app.command(name="report")
def report_command(
    path: Annotated[Path, typer.Argument(help="A run directory written by mjsim run, or a league table written by mjsim league --out.")],
    compare_with: Annotated[Path | None, typer.Option("--compare", help="Another run directory: add a Comparison section, this run (A) against it (B), as mjsim compare A B.")] = None,
    unpaired: Annotated[bool, typer.Option("--unpaired", help="With --compare: compare runs that do not deal the same walls as independent samples.")] = False,
    rooms: Annotated[Path | None, typer.Option(help="With --compare: a rooms file for the comparison's money rows (default the family's).")] = None,
):
    """Write one self-contained HTML page of charts: RUN_DIR/report.html for a run, LEAGUE.html beside a league table."""
    from analysis.report import write_league_report, write_report
    from sim.core.result_files import read_metadata
    from sim.core.run_directory import RUN_FILE

    if compare_with is None and (unpaired or rooms is not None):
        raise UserError("--unpaired and --rooms go with --compare OTHER_RUN")
    if path.is_dir():
        if not (path / RUN_FILE).is_file():
            raise UserError(f"{path} holds no run ({RUN_FILE} is missing)")
        comparison = None
        if compare_with is not None:
            from analysis import compare as comparing

            try:
                comparison = comparing.compare(comparing.load_side(path), comparing.load_side(compare_with), unpaired, rooms)
            except comparing.CompareError as error:
                raise UserError(str(error)) from None
        typer.echo(f"wrote {write_report(path, comparison)}")
        return
    if compare_with is not None:
        raise UserError(f"--compare sets one run beside another; {path} is not a run directory")
    if not path.exists():
        raise UserError(f"{path} does not exist")
    if not path.is_file():
        raise UserError(f"{path} is neither a run directory nor a league table (it is not a regular file)")
    try:
        command = read_metadata(path).get("config", {}).get("command")
    except Exception:  # noqa: BLE001  (not Parquet, or damaged, or metadata of another shape: one line says so)
        command = None
    if command != "league":
        raise UserError(f"{path} is neither a run directory nor a league table written by mjsim league --out")
    typer.echo(f"wrote {write_league_report(path)}")


@app.command()
def analyze(
    run_dir: Annotated[Path, typer.Argument(help="A run directory written by mjsim run.")],
    rooms: Annotated[Path | None, typer.Option(help=f"A rooms file (stake, fee, entry range per room); default the family's ({ROOMS_FILES}).")] = None,
):
    """Rewrite and print a run's tables: outcomes, fan frequencies, and the money per room (富贵豆, or 血战 money by source), seats."""
    from sim.core import run_records
    from sim.runs import runner

    config, ruleset = run_records.load_run(run_dir)
    typer.echo(runner.format_tables(runner.summarise(run_dir, config, ruleset, rooms=rooms)), nl=False)


@app.command()
def compare(
    run_a: Annotated[Path, typer.Argument(help="A run directory written by mjsim run: A, the run compared with.")],
    run_b: Annotated[Path, typer.Argument(help="Another run directory: B; the differences are B - A.")],
    rooms: Annotated[Path | None, typer.Option(help=f"A rooms file for the money rows; default the family's ({ROOMS_FILES}).")] = None,
    unpaired: Annotated[bool, typer.Option("--unpaired", help="Compare runs that do not deal the same walls (other seeds, walls or sessions) as independent samples (Welch intervals).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object (both runs' configurations, the pairing, the rows) instead of the table.")] = False,
    out: Annotated[Path | None, typer.Option(help="Also write the rows here as Parquet, with both runs' configurations in its metadata.")] = None,
):
    """Two runs deal by deal: every fan's share of wins, wins, draws, ways of winning, the value of a win and what it
    is paid, money per deal per room and seat, reported chances of winning; B - A with 95% intervals."""
    from analysis import compare as comparing

    try:
        if out is not None:
            comparing.check_output(out, run_a, run_b)
        first = comparing.load_side(run_a)
        second = comparing.load_side(run_b)
        result = comparing.compare(first, second, unpaired=unpaired, rooms=rooms)
    except comparing.CompareError as error:
        raise UserError(str(error)) from None
    if out is not None:
        comparing.write(result, out)
    typer.echo(comparing.as_json(result) if as_json else comparing.format_comparison(result), nl=as_json)
    if out is not None and not as_json:
        typer.echo(f"wrote {out}")


@app.command()
def economics(
    run_dir: Annotated[Path, typer.Argument(help="A run directory written by mjsim run.")],
    rooms: Annotated[str | None, typer.Option(help=f"A rooms file, or `app` for seed 004's real rooms (二人); default the family's ({ROOMS_FILES}).")] = None,
    stake: Annotated[list[int] | None, typer.Option(help="Study a grid instead: stakes (repeat the option).")] = None,
    fee: Annotated[list[int] | None, typer.Option(help="With --stake: table fees (repeat the option); without: one fee charged in every room of the rooms file.")] = None,
    solve: Annotated[str | None, typer.Option(help="`fee`: find each room's largest fee that meets --target, for each purse.")] = None,
    target: Annotated[str | None, typer.Option(help="With --solve fee: median_deals_to_ruin>=N, mean_deals_played>=N, ruin_probability<=p or house_share<=x.")] = None,
    replicates: Annotated[int, typer.Option(help="With --solve: bootstrap replicates of the run for the fee's interval.")] = 40,
    bankroll: Annotated[list[int] | None, typer.Option(help="The purse: stakes a simulated player enters with (repeat for several; default 100, 300, 1,000 and 3,000).")] = None,
    horizon: Annotated[int, typer.Option(help="Deals a simulated player plays at most.")] = 2000,
    players: Annotated[int, typer.Option(help="Simulated players per room and purse.")] = 2000,
    block: Annotated[int, typer.Option(help="Consecutive deals per resampled block, and per batch of the drift's interval.")] = 50,
    seed: Annotated[int, typer.Option(help="Seed of the simulated players (the same players in every room and purse).")] = 0,
    name: Annotated[str | None, typer.Option(help="The scenario's name: its files are RUN_DIR/economics/NAME.* (default: one derived from the options).")] = None,
    plot: Annotated[bool, typer.Option("--plot", help="Also write PNG charts (needs matplotlib: pip install 'mjsim[plot]').")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the tables as one JSON object instead of text.")] = False,
    csv: Annotated[Path | None, typer.Option(help="Also write the table as CSV here (a per-player table beside it as <stem>.by-player.csv).")] = None,
):
    """House take, wins that lose money, drift, volatility, risk of ruin and how long a bankroll lasts per room (or stake x fee grid) and purse; or, with --solve fee, each room's largest fee that meets a target."""
    from sim.commands.economics import Study, run_economics

    study = Study(rooms, tuple(stake) if stake else None, tuple(fee) if fee else None,
                  tuple(bankroll) if bankroll else None, horizon, players, block, seed, target, replicates)
    typer.echo(run_economics(run_dir, study, solve, name, plot, as_json, csv), nl=False)


@app.command()
def headline(
    deals: Annotated[int, typer.Option(help="Deals per ruleset.")] = 1_000_000,
    league_walls: Annotated[int, typer.Option(help="Walls per pair of the heuristics' league.")] = 50_000,
    seed: Annotated[int, typer.Option(help="Seed of the runs and the league.")] = 1,
    results: Annotated[Path, typer.Option(help="Where the runs and README.md go.")] = Path("results"),
    ev_walls: Annotated[int, typer.Option(help="Walls per pair of the round robin of the shipped players at every table: ev's duels and the rating lists (0: no ev sections).")] = 20_000,
    ev_deals: Annotated[int, typer.Option(help="Deals of each run that checks ev's chances of winning.")] = 100_000,
):
    """Regenerate results/README.md: fan frequencies of the 二人 rulesets, the 富贵豆 table, a league of the heuristics, the fan and money tables of the 血战 rulesets, MCR's fans and winning fan totals beside human play, ev against the heuristics and the rating lists of the shipped players at every table, and ev's calibration tables."""
    from sim.commands.headline import EV_TABLES, GREEDY_TABLES, build
    from sim.core.progress import progress_bar

    within("--deals", deals, 1, LARGEST_DEALS)
    within("--league-walls", league_walls, 2, LARGEST_DUEL)
    within("--seed", seed, 0, LARGEST_SEED)
    if ev_walls:
        within("--ev-walls", ev_walls, 2, LARGEST_DUEL)
        within("--ev-deals", ev_deals, 1, LARGEST_DEALS)
    with progress_bar("deals", len(GREEDY_TABLES) * deals + (len(EV_TABLES) * ev_deals if ev_walls else 0)) as advance:
        path = build(results, deals, league_walls, seed, progress=advance, ev_walls=ev_walls, ev_deals=ev_deals)
    typer.echo(f"wrote {path}")


@app.command("calibrate-ev")
def calibrate_ev(
    deals: Annotated[int, typer.Option(help="Deals of ev against greedy per table.")] = 300_000,
    seed: Annotated[int, typer.Option(help="Seed of the fitting runs (keep it apart from the runs that check them).")] = 7,
    tables: Annotated[str | None, typer.Option(help=f"The tables to fit again, comma-separated (default all): {', '.join(name for name, _, _ in calibration_tables())}; the others' curves are kept.")] = None,
    out: Annotated[Path | None, typer.Option(help="Where the fitting runs go (default results/ev-calibration-seed<seed>); a run cut short there is resumed.")] = None,
    workers: Annotated[int, typer.Option(help="Worker processes (0: one per core).")] = 0,
    opponents: Annotated[str, typer.Option(help="The player in every seat but ev's, e.g. greedy, ev or value:speed=6: the curves then hold for ev against it.")] = "greedy",
):
    """Refit ev's calibration curves (sim/players/ev_calibration.py): ev against --opponents (default greedy) at each table, its search's chances against the outcomes; writes sim/players/ev_calibration_table.py."""
    from sim.commands import calibrate_ev
    from sim.core.progress import progress_bar

    plan = calibrate_ev.plan(deals, seed, tables, out, opponents)
    with progress_bar("deals", deals * len(plan.tables)) as advance:
        lines = calibrate_ev.refit(plan, workers, progress=advance)
    typer.echo(lines, nl=False)


@app.command()
def duel(
    first: Annotated[str, typer.Argument(help="A player, e.g. greedy or 'value:speed=6'.")],
    second: Annotated[str, typer.Argument(help="Its opponent.")],
    deals: Annotated[int, typer.Option(help="Walls; each is played twice, with the seats swapped.")] = 20_000,
    ruleset: Annotated[str, typer.Option(help=RULESET_HELP)] = "erren",
    seed: Annotated[int, typer.Option(help="Seed of the walls.")] = 1,
    room: Annotated[str | None, typer.Option(help="Room whose stake and fee price the results (default the first: 体验场, beans = fans; 血战 练习场, money = units).")] = None,
    rooms: Annotated[Path | None, typer.Option(help=f"A rooms file; default the family's ({ROOMS_FILES}).")] = None,
    seats: Annotated[int | None, typer.Option(help="Seats at the table where the ruleset allows several counts (sanren-liangfang: 2 or 3).")] = None,
    lineup: Annotated[str, typer.Option(help="At three or four seats: 'alternate' (A, B, A, B) or 'one' (A alone against B in every other seat).")] = "alternate",
    out: Annotated[Path | None, typer.Option(help="Also write each wall's results here as Parquet (refused if the file is there and is not a duel table).")] = None,
    variance_reduction: Annotated[bool, typer.Option("--variance-reduction/--no-variance-reduction", help="Take the measured luck of the draws out of the verdict (control variates): the same mean, a narrower interval.")] = True,
):
    """Two players on duplicate deals: win rates, mean beans (or money) per deal, and whether the difference is significant."""
    from sim.commands.duels import duel_text

    typer.echo(duel_text(ruleset, first, second, deals, seed, room, rooms, seats, lineup, out, variance_reduction), nl=False)


@app.command()
def league(
    players: Annotated[list[str], typer.Argument(help="Two or more players, e.g. random greedy value defensive.")],
    deals: Annotated[int, typer.Option(help="Walls per pair; each is played twice, with the seats swapped.")] = 20_000,
    ruleset: Annotated[str, typer.Option(help=RULESET_HELP)] = "erren",
    seed: Annotated[int, typer.Option(help="Seed of the walls.")] = 1,
    room: Annotated[str | None, typer.Option(help="Room whose stake and fee price the results (default the family's first room).")] = None,
    rooms: Annotated[Path | None, typer.Option(help=f"A rooms file; default the family's ({ROOMS_FILES}).")] = None,
    out: Annotated[Path | None, typer.Option(help="Write the pairwise table here as Parquet.")] = None,
    seats: Annotated[int | None, typer.Option(help="Seats at the table where the ruleset allows several counts (sanren-liangfang: 2 or 3).")] = None,
    report: Annotated[bool, typer.Option("--report", help="Also write the league's page of charts beside its table (--out, default results/league-<ruleset>-seed<seed>.parquet).")] = False,
    ratings: Annotated[bool, typer.Option("--ratings", help="Also print the rating list: one rating per player with its 95% bootstrap interval (see mjsim rate).")] = False,
    anchor: Annotated[str | None, typer.Option(help="With --ratings: the player rated 0 (default greedy where it plays, else the first player).")] = None,
    variance_reduction: Annotated[bool, typer.Option("--variance-reduction/--no-variance-reduction", help="Take the measured luck of the draws out of each pair's verdict and the ratings, as a duel does.")] = True,
):
    """A round robin of duels: the matrix of each row player's mean beans per deal less each column player's."""
    from sim.commands.duels import league_text

    typer.echo(league_text(ruleset, players, deals, seed, room, rooms, out, seats, report, ratings, anchor, variance_reduction), nl=False)


@app.command()
def rate(
    files: Annotated[list[Path], typer.Argument(help="Tables written by mjsim duel --out and mjsim league --out, of one ruleset, seat count and room.")],
    anchor: Annotated[str | None, typer.Option(help="The player rated 0 (default greedy where it plays, else the first player).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the list and its pairings as JSON.")] = False,
    out: Annotated[Path | None, typer.Option(help="Also write the list here as Parquet (refused if the file is there and is not a rating table).")] = None,
    resamples: Annotated[int, typer.Option(help="Bootstrap resamples of the walls behind the 95% intervals.")] = 1_000,
    seed: Annotated[int, typer.Option(help="Seed of the bootstrap.")] = 1,
):
    """One rating per player, in money per seat and deal against an anchor, fitted to saved duels and leagues, with 95% bootstrap intervals over the walls."""
    from sim.commands.ratings import rate_text

    typer.echo(rate_text(files, anchor, as_json, out, resamples, seed), nl=False)


@app.command()
def tune(
    player: Annotated[str, typer.Argument(help="The player to tune, e.g. greedy, 'ev:depth=1' or 'mine.py:Bot:risk=0.3'.")],
    param: Annotated[list[str], typer.Option("--param", help="A parameter to tune and its range: NAME=LO..HI, or NAME=LO..HI:int for whole numbers; repeat for more.")] = [],  # noqa: B006  (typer's list option)
    opponent: Annotated[str | None, typer.Option(help="Whom both perturbed players meet (default: PLAYER as given).")] = None,
    iterations: Annotated[int, typer.Option(help="SPSA iterations; each plays two players on walls of its own.")] = 100,
    walls_per_step: Annotated[int, typer.Option(help="Walls each iteration plays, each once per rotation of the seating.")] = 500,
    ruleset: Annotated[str, typer.Option(help=RULESET_HELP)] = "erren",
    seats: Annotated[int | None, typer.Option(help="Seats at the table where the ruleset allows several counts (sanren-liangfang: 2 or 3).")] = None,
    lineup: Annotated[str, typer.Option(help="At three or four seats: 'alternate' (A, B, A, B) or 'one' (A alone against B in every other seat).")] = "alternate",
    room: Annotated[str | None, typer.Option(help="Room whose stake and fee price the results (default the family's first room).")] = None,
    rooms: Annotated[Path | None, typer.Option(help=f"A rooms file; default the family's ({ROOMS_FILES}).")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the walls and the perturbations.")] = 1,
    confirm_walls: Annotated[int, typer.Option(help="Fresh walls (after the tuning's) of the duel of tuned against PLAYER as given.")] = 20_000,
    out: Annotated[Path | None, typer.Option(help="The trace, one row per iteration, as Parquet (default results/tune-<ruleset>-<player>-seed<seed>.parquet; refused if the file is there and is not a trace).")] = None,
    variance_reduction: Annotated[bool, typer.Option("--variance-reduction/--no-variance-reduction", help="Adjust each wall's result by the luck measured on it, where the walls carry it.")] = True,
    step_size: Annotated[float, typer.Option(help="SPSA's a: the step, in shares of each range, per standard deviation of a wall's result.")] = 2.0,
    perturbation: Annotated[float, typer.Option(help="SPSA's c: the first perturbation, as a share of each range.")] = 0.2,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as one JSON object.")] = False,
):
    """Tune a player's numeric parameters by SPSA on duplicate walls against an opponent; confirm the tuned
    player against the player as given on fresh walls, and write the trace as Parquet."""
    from sim.commands.tune import tune_command

    typer.echo(tune_command(player, param, opponent, iterations, walls_per_step, ruleset, seats, lineup, room, rooms, seed,
                            confirm_walls, out, variance_reduction, step_size, perturbation, as_json), nl=False)


@app.command()
def sprt(
    first: Annotated[str, typer.Argument(help="The candidate, e.g. 'value:speed=6'.")],
    second: Annotated[str, typer.Argument(help="The player it is tested against.")],
    money0: Annotated[float | None, typer.Option(help="H0: the first's money per seat and deal less the second's is at most this (in the room's money; give with --money1).")] = None,
    money1: Annotated[float | None, typer.Option(help="H1: it is at least this.")] = None,
    elo0: Annotated[float | None, typer.Option(help="H0: the first's Elo over the second, from each wall's score (1 won more, 0.5 equal, 0 less), is at most this; default 0.")] = None,
    elo1: Annotated[float | None, typer.Option(help="H1: it is at least this; default 10.")] = None,
    alpha: Annotated[float, typer.Option(help="Chance of accepting H1 when H0 holds.")] = 0.05,
    beta: Annotated[float, typer.Option(help="Chance of accepting H0 when H1 holds.")] = 0.05,
    batch: Annotated[int, typer.Option(help="Walls between two looks of the test; the verdict depends on it (and on the seed) only.")] = 200,
    max_walls: Annotated[int, typer.Option(help="Walls at most: past them the test is inconclusive.")] = 100_000,
    ruleset: Annotated[str, typer.Option(help=RULESET_HELP)] = "erren",
    seed: Annotated[int, typer.Option(help="Seed of the walls.")] = 1,
    room: Annotated[str | None, typer.Option(help="Room whose stake and fee price the results (default the family's first room).")] = None,
    rooms: Annotated[Path | None, typer.Option(help=f"A rooms file; default the family's ({ROOMS_FILES}).")] = None,
    seats: Annotated[int | None, typer.Option(help="Seats at the table where the ruleset allows several counts (sanren-liangfang: 2 or 3).")] = None,
    lineup: Annotated[str, typer.Option(help="At three or four seats: 'alternate' (A, B, A, B) or 'one' (A alone against B in every other seat).")] = "alternate",
    variance_reduction: Annotated[bool, typer.Option("--variance-reduction/--no-variance-reduction", help="Take the luck measured on each wall out of its value (control variates fitted on the earlier batches), where the walls carry it.")] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object: configuration, verdict, estimate, and the LLR after every batch.")] = False,
):
    """A sequential test on duplicate walls: play batches until H0 (no better than the lower bound) or H1 (at least
    the upper) is accepted; the LLR after each batch on a terminal, then the walls used, the verdict and the estimate."""
    from sim.commands.sprt import sprt_text

    typer.echo(sprt_text(first, second, money0, money1, elo0, elo1, alpha, beta, batch, max_walls, ruleset, seed, room,
                         rooms, seats, lineup, variance_reduction, as_json), nl=False)


@app.command()
def challenge(
    levels: Annotated[Path | None, typer.Option(help="A levels file (default sim/erren/challenge/levels.toml: its figures are assumptions).")] = None,
    players: Annotated[str, typer.Option(help="The player and the computer, e.g. 'greedy,greedy' or 'value:speed=6,greedy'.")] = "greedy,greedy",
    runs: Annotated[int, typer.Option(help="Runs of the campaign, each from level 1 to its end.")] = 2_000,
    seed: Annotated[int, typer.Option(help="Seed; run r is a pure function of (seed, r).")] = 1,
    ruleset: Annotated[str, typer.Option(help="A scoring = 'challenge' ruleset id or .toml file.")] = "erren-challenge",
    effects: Annotated[bool, typer.Option("--effects/--no-effects", help="Also play the runs without each assist, on the same seeds.")] = True,
    out: Annotated[Path | None, typer.Option(help="Output directory (default results/challenge-<ruleset>-<player>-v-<computer>-seed<seed>-runs<runs>).")] = None,
    workers: Annotated[int, typer.Option(help="Worker processes (0: one per core).")] = 0,
    validate: Annotated[bool, typer.Option("--validate", help="Check the table after every action of every deal (slower); violations are counted in the tables.")] = False,
):
    """004's 闯关 campaign: the share of runs clearing each level (Wilson intervals), the deals each level takes, the
    score at its end, and what each assist does; written as Parquet."""
    from sim.core.progress import progress_bar
    from sim.core.ruleset import load_ruleset
    from sim.erren.challenge import runs as challenges
    from sim.erren.challenge.levels import DEFAULT_LEVELS, load_levels
    from sim.players.player_text import split_players

    within("--runs", runs, 1, LARGEST_RUNS)
    within("--seed", seed, 0, LARGEST_SEED)
    if workers < 0:
        raise UserError("--workers must not be negative")
    chosen = challenges.parse_players(players)
    chosen.close()
    config = challenges.ChallengeConfig(ruleset, str(levels or DEFAULT_LEVELS), tuple(chosen.names), runs, seed, effects)
    challenges.check_ruleset(load_ruleset(ruleset))
    campaign_levels = load_levels(config.levels)
    n_variants = len(challenges.variants(campaign_levels, effects))
    check_memory(challenges.campaign_memory(runs, len(campaign_levels.levels), n_variants),
                 f"{runs:,} runs of {len(campaign_levels.levels)} levels in {n_variants} variants", "give fewer --runs", UserError)
    directory = out if out is not None else challenges.default_directory(config)
    challenges.check_directory(directory, config)
    with progress_bar("runs", runs * n_variants) as advance:
        result = challenges.play(config, workers, progress=advance, validate=validate)
    paths = challenges.write(result, directory, config)
    player, computer = split_players(players)  # as given: parameters left at their defaults are not shown
    typer.echo(f"{runs:,} runs of {player} (the player) against {computer} (the computer) on {ruleset}, seed {seed}: "
               f"{result.deals:,} deals in {result.seconds:.0f} s")
    typer.echo(result.text(), nl=False)
    if validate:
        typer.echo(f"validating mode: {int(result.runs['violations'].sum()):,} deals broke a rule of the table")
    typer.echo(f"written: {', '.join(str(path) for path in paths)}")


@app.command(name="rules")
def rules_table(
    ruleset: Annotated[str, typer.Argument(help=RULESET_HELP)],
    as_json: Annotated[bool, typer.Option("--json", help="Print the ruleset as one JSON object.")] = False,
    as_toml: Annotated[bool, typer.Option("--toml", help="Print the ruleset's file to start a variant from: a shipped ruleset under an id of its own (mjsim rules erren --toml > my-erren.toml).")] = False,
):
    """Print a ruleset's settings and its fan table: seed name, id, value and what each fan excludes (不计);
    the rules book (docs/rules/) says what they mean."""
    from sim.commands import rules_book
    from sim.core.ruleset import load_ruleset

    if as_json and as_toml:
        raise UserError("give --json or --toml, not both")
    rules = load_ruleset(ruleset)
    if as_toml:
        typer.echo(rules_book.variant_toml(rules), nl=False)
    elif as_json:
        typer.echo(json.dumps(rules_book.ruleset_data(rules), ensure_ascii=False))
    else:
        typer.echo(rules_book.format_text(rules), nl=False)


def main() -> None:
    if signal.getsignal(signal.SIGINT) is sim._abort_while_starting:  # started: Ctrl-C is KeyboardInterrupt again
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        # typer turns Ctrl-C into Exit(130), which standalone_mode=False returns instead of raising
        if app(standalone_mode=False) == 130:
            raise typer.Abort()
    except (
        UserError, NotationError, kernels.InvalidHandError, RulesetError, ScoringError, PlayerError, RunError, RoomsError,
        OutputPathError, LevelsError, ReportError, OSError,
    ) as error:
        _print_error(str(error))
        sys.exit(2)
    except (typer.Abort, KeyboardInterrupt):
        # The command has stopped its workers and kept what it finished. A further Ctrl-C is ignored from
        # here on: Python's shutdown resets its own handler to the default, so a Ctrl-C then would end the
        # process by the signal instead of with status 130 (an ignored signal stays ignored).
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        typer.echo("aborted", err=True)
        sys.exit(130)
    except Exception as error:
        # With standalone_mode=False, usage errors (an unknown option, a bad integer) arrive here as
        # exceptions that know how to show themselves; anything else is a bug and keeps its traceback.
        if type(error).__name__ == "NoArgsIsHelpError":  # `mjsim` alone, or a group without its command: the help
            typer.echo(error.format_message(), err=True)
            sys.exit(error.exit_code)
        if hasattr(error, "format_message") and hasattr(error, "exit_code"):
            message = error.format_message()
            # typer carries its own copy of click, so the class is known by name
            if type(error).__name__ == "NoSuchOption" and str(getattr(error, "option_name", ""))[1:2].isdigit():
                message += " (a hand cannot start with '-'; put -- before it)"
            _print_error(f"{message} (see {_command_path(error)} --help)")
            sys.exit(error.exit_code)
        raise


def _print_error(message: str) -> None:
    """The one `error:` line: a line break or other control character in what the user typed (a path, a
    value) is shown escaped, so that the message stays one line."""
    shown = "".join(character if character.isprintable() else repr(character)[1:-1] for character in message)
    typer.echo(f"error: {shown}", err=True)


def _command_path(error: Exception) -> str:
    """`mjsim COMMAND` for the help hint: click gives some usage errors no context (an option missing its
    value), and then the command is the first argument that names one."""
    context = getattr(error, "ctx", None)
    if context is not None:
        return context.command_path
    commands = typer.main.get_command(app).commands
    named = next((argument for argument in sys.argv[1:] if argument in commands), None)
    return f"mjsim {named}" if named else "mjsim"


if __name__ == "__main__":
    main()
