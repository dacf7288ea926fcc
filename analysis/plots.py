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


def plot_economics(records: pd.DataFrame, rooms: list[Room], table: pd.DataFrame, directory: Path, money) -> list[Path]:
    """Two charts: each room's distribution of a seat's bean change per deal (in stakes, so rooms compare),
    and the risk of ruin against the fee, one line per stake. Returns the files written. `money` is the
    family's money module (``sim.erren.money`` or ``sim.xuezhan.money``)."""
    pyplot = _pyplot()
    cjk = _has_cjk_font()
    figure, axes = pyplot.subplots(figsize=(8, 4.5))
    data = [money.seat_changes(records, room).ravel() / room.stake for room in rooms]
    axes.boxplot(data, whis=(1, 99), showfliers=False)
    axes.set_xticks(np.arange(1, len(rooms) + 1), [_label(room, cjk) for room in rooms], rotation=30, ha="right")
    axes.set_ylabel("change per deal, in stakes (1%-99%)")
    axes.set_title("Money per deal and seat, by room")
    figure.tight_layout()
    beans_path = directory / "bean_distribution.png"
    figure.savefig(beans_path, dpi=120)
    pyplot.close(figure)

    figure, axes = pyplot.subplots(figsize=(8, 4.5))
    for stake, group in table.groupby("stake"):
        group = group.sort_values("fee")
        below = np.clip(group["ruin_probability"] - group["ruin_low"], 0, None)  # rounding can go just below 0
        above = np.clip(group["ruin_high"] - group["ruin_probability"], 0, None)
        axes.errorbar(group["fee"], group["ruin_probability"], yerr=[below, above], marker="o", capsize=3, label=f"stake {stake}")
    axes.set_xlabel("table fee per player and deal")
    axes.set_ylabel(f"ruin within {int(table['horizon'].iloc[0]):,} deals")
    axes.set_ylim(-0.02, 1.02)
    axes.legend()
    figure.tight_layout()
    ruin_path = directory / "ruin_by_fee.png"
    figure.savefig(ruin_path, dpi=120)
    pyplot.close(figure)
    return [beans_path, ruin_path]
