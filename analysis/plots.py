"""PNG charts of a run's economics (`mjsim economics --plot`); matplotlib is an optional extra."""

from pathlib import Path

import numpy as np
import pandas as pd

from sim.core.rooms import Room


def _pyplot():
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only: no display needed
        import matplotlib.pyplot as pyplot
    except ImportError:
        raise RuntimeError("--plot needs matplotlib: pip install 'mjsim[plot]'") from None
    return pyplot


def _has_cjk_font() -> bool:
    from matplotlib import font_manager

    wanted = ("Noto Sans CJK", "Noto Serif CJK", "WenQuanYi", "SimHei", "Source Han", "AR PL", "Droid Sans Fallback")
    return any(any(name in font.name for name in wanted) for font in font_manager.fontManager.ttflist)


def _label(room: Room, cjk: bool) -> str:
    """The room's name where a font can draw it, else its stake and fee."""
    return room.name if cjk or room.name.isascii() else f"s={room.stake} f={room.fee}"


def check_plotting() -> None:
    """A RuntimeError saying how to install matplotlib when it is missing (before any work is done)."""
    _pyplot()


def plot_beans(records: pd.DataFrame, rooms: list[Room], path: Path, money) -> Path:
    """Each room's distribution of a seat's bean change per deal, in stakes (so rooms compare), at its fee.
    `money` is the family's money module (``sim.erren.money`` or ``sim.xuezhan.money``)."""
    pyplot = _pyplot()
    cjk = _has_cjk_font()
    figure, axes = pyplot.subplots(figsize=(8, 4.5))
    data = [money.seat_changes(records, room).ravel() / room.stake for room in rooms]
    axes.boxplot(data, whis=(1, 99), showfliers=False)
    axes.set_xticks(np.arange(1, len(rooms) + 1), [_label(room, cjk) for room in rooms], rotation=30, ha="right")
    axes.set_ylabel("change per deal, in stakes (1%-99%)")
    axes.set_title("Money per deal and seat, by room")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=120)
    pyplot.close(figure)
    return path


PANELS = (("median_deals_to_ruin", "median deals to ruin\n(none past the horizon)"), ("mean_deals_played", "mean deals played"),
          ("ruin_probability", "ruined within the horizon"), ("house_share", "house share of the money moved"))


def plot_fee_curves(curves: pd.DataFrame, target, prefix: Path, currency: str = "beans") -> list[Path]:
    """One PNG per purse (``<prefix>.fee-curves-purse<K>.png``) of four panels: the median and mean deals
    played, the ruin probability and the house share against the fee in stakes, a line per room, from
    ``sim.commands.economics.fee_curves`` (the same simulated players at every fee); with a `target`
    (``analysis.fee_solver.Target``), its bound drawn on its panel."""
    pyplot = _pyplot()
    cjk = _has_cjk_font()
    paths = []
    for purse, group in curves.groupby("purse_stakes"):
        figure, panels = pyplot.subplots(len(PANELS), 1, figsize=(8, 11), sharex=True)
        for room_name, rows in group.groupby("room", sort=False):
            stake = int(rows["stake"].iloc[0])
            label = room_name if cjk or str(room_name).isascii() else f"stake {stake:,}"
            for axes, (column, _) in zip(panels, PANELS):
                values = rows[column].replace(np.inf, np.nan)
                axes.plot(rows["fee"] / stake, values, marker=".", label=label)
        for axes, (column, title) in zip(panels, PANELS):
            axes.set_ylabel(title)
            if target is not None and target.metric == column:
                axes.axhline(target.bound, color="black", linestyle="--", linewidth=1, label=f"target {target}")
        panels[2].set_ylim(-0.02, 1.02)
        panels[3].set_ylim(bottom=0)
        panels[0].set_title(f"Entering with {purse:,} stakes: each room against its fee")
        panels[-1].set_xlabel(f"table fee, stakes per player and deal ({currency} / stake)")
        panels[0].legend(fontsize="small")
        if target is not None:
            for axes, (column, _) in zip(panels, PANELS):
                if target.metric == column:
                    axes.legend(fontsize="small")
        figure.tight_layout()
        path = Path(f"{prefix}.fee-curves-purse{purse}.png")
        path.parent.mkdir(parents=True, exist_ok=True)
        figure.savefig(path, dpi=110)
        pyplot.close(figure)
        paths.append(path)
    return paths
