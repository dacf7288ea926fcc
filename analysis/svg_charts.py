"""Charts as inline SVG text, for the self-contained HTML reports of analysis.report.

Each chart function returns one ``<svg class="chart">`` element as a string: horizontal bars (one series
or several per group) with interval whiskers, a histogram, lines with intervals, and a heatmap. Every bar,
point and cell carries a ``<title>`` (the browser's tooltip) with its exact figures. The SVG has no
namespace declaration and references nothing outside itself: it is meant to sit inside an HTML page, whose
fonts it inherits. All text passes through ``html.escape``.

Widths of text are estimated (a CJK character is one em, anything else about 0.6 em), since the layout is
fixed here, before any font is known; margins are generous for that reason.
"""

import html
import math
import unicodedata
from collections.abc import Sequence

FONT_SIZE = 12
WIDTH = 760
# Okabe and Ito's palette: colours that stay distinct to colour-blind readers.
PALETTE = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#7f7f7f", "#b8a500")
INK, GRID, INTERVAL = "#222222", "#dddddd", "#333333"


def escape(text) -> str:
    return html.escape(str(text), quote=True)


def text_width(text: str, size: float = FONT_SIZE) -> float:
    """An estimate of the width `text` takes in a proportional font of `size` pixels."""
    return size * sum(1.0 if unicodedata.east_asian_width(character) in "WF" else 0.6 for character in str(text))


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values (steps of 1, 2, 2.5 or 5 times a power of ten) covering [low, high]."""
    if not (math.isfinite(low) and math.isfinite(high)):
        low, high = 0.0, 1.0
    if high <= low:  # one value only (often all zeros): an axis from 0 to it, or to 1
        low, high = min(0.0, low), max(0.0, high) if max(0.0, high) > min(0.0, low) else min(0.0, low) + 1.0
    raw = (high - low) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(multiple * power for multiple in (1, 2, 2.5, 5, 10) if multiple * power >= raw * (1 - 1e-9))
    first, last = math.floor(low / step + 1e-9), math.ceil(high / step - 1e-9)
    return [index * step for index in range(first, last + 1)]


def tick_text(value: float, ticks: Sequence[float], percent: bool = False) -> str:
    """A tick's label, with as many decimals as the step between ticks needs."""
    step = abs(ticks[1] - ticks[0]) if len(ticks) > 1 else 1.0
    if percent:
        value, step = value * 100, step * 100
    decimals = next(places for places in range(10) if abs(round(step, places) - step) < 1e-9 * max(1.0, step))
    shown = f"{0.0 if abs(value) < step * 1e-9 else value:,.{decimals}f}"
    return shown + ("%" if percent else "")


def linear(domain: tuple[float, float], pixels: tuple[float, float]):
    """The function that maps the interval `domain` onto `pixels`."""
    (low, high), (start, end) = domain, pixels
    span = (high - low) or 1.0
    return lambda value: start + (value - low) / span * (end - start)


def svg(width: float, height: float, body: list[str], label: str) -> str:
    return (f'<svg class="chart" role="img" aria-label="{escape(label)}" viewBox="0 0 {width:.0f} {height:.0f}" '
            f'width="{width:.0f}" height="{height:.0f}" font-size="{FONT_SIZE}">\n' + "\n".join(body) + "\n</svg>")


def label_text(x: float, y: float, text: str, anchor: str = "start", extra: str = "") -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" fill="{INK}"{extra}>{escape(text)}</text>'


def legend(names: Sequence[str], x: float, y: float, width: float) -> tuple[list[str], float]:
    """Colour swatches and names, wrapped into lines within `width`; returns the elements and the height."""
    elements, left, top = [], x, y
    for index, name in enumerate(names):
        needed = 18 + text_width(name) + 16
        if left > x and left + needed > x + width:
            left, top = x, top + 18
        colour = PALETTE[index % len(PALETTE)]
        elements.append(f'<rect class="swatch" x="{left:.1f}" y="{top:.1f}" width="12" height="12" fill="{colour}"/>')
        elements.append(label_text(left + 17, top + 10.5, name))
        left += needed
    return elements, top - y + 18


def value_axis(ticks: Sequence[float], scale, top: float, bottom: float, caption: str, percent: bool) -> list[str]:
    """Vertical grid lines at the ticks of a horizontal value axis, their labels below, and the axis caption."""
    elements = []
    for tick in ticks:
        x = scale(tick)
        colour = "#999999" if tick == 0 else GRID
        elements.append(f'<line x1="{x:.1f}" y1="{top:.1f}" x2="{x:.1f}" y2="{bottom:.1f}" stroke="{colour}"/>')
        elements.append(label_text(x, bottom + 15, tick_text(tick, ticks, percent), "middle"))
    middle = (scale(ticks[0]) + scale(ticks[-1])) / 2
    elements.append(label_text(middle, bottom + 32, caption, "middle"))
    return elements


def interval_path(start: float, end: float, middle: float, half: float, vertical: bool = False) -> str:
    """A whisker from `start` to `end` at `middle`, with caps `half` long on either side."""
    if vertical:
        path = (f"M{middle - half:.1f} {start:.1f}H{middle + half:.1f}M{middle:.1f} {start:.1f}V{end:.1f}"
                f"M{middle - half:.1f} {end:.1f}H{middle + half:.1f}")
    else:
        path = (f"M{start:.1f} {middle - half:.1f}V{middle + half:.1f}M{start:.1f} {middle:.1f}H{end:.1f}"
                f"M{end:.1f} {middle - half:.1f}V{middle + half:.1f}")
    return f'<path class="interval" d="{path}" stroke="{INTERVAL}" stroke-width="1.2" fill="none"/>'


def finite(values) -> list[float]:
    return [float(value) for value in values if value is not None and math.isfinite(float(value))]


def grouped_bar_chart(groups: Sequence[str], series: Sequence[str], values, low=None, high=None, *, value_texts=None,
                      tooltips=None, axis_label: str = "", percent: bool = False) -> str:
    """Horizontal bars: for each group (a row label on the left) one bar per series, coloured by series.
    `values`, `low`, `high`, `value_texts` and `tooltips` are indexed [series][group]; a NaN value draws no
    bar (its value text still shows, e.g. "not met"). Whiskers run from `low` to `high`."""
    single = len(series) == 1
    row, gap = (22, 0) if single else (17, 9)
    texts = value_texts or [[f"{value:.4g}" for value in row_values] for row_values in values]
    names_width = max(text_width(group) for group in groups) + 14
    values_width = max(text_width(text) for row_texts in texts for text in row_texts) + 14
    plot = (names_width + 4, WIDTH - values_width)
    legend_elements, legend_height = ([], 0.0) if single else legend(series, plot[0], 8, plot[1] - plot[0])
    top = 10 + legend_height + (4 if legend_height else 0)
    bottom = top + len(groups) * (len(series) * row + gap) - gap
    spread = finite([value for row_values in values for value in row_values])
    for bound in (low, high):
        spread += finite([value for row_values in bound or [] for value in row_values])
    ticks = nice_ticks(min([0.0, *spread]), max([0.0, *spread]))
    scale = linear((ticks[0], ticks[-1]), plot)
    elements = [*value_axis(ticks, scale, top - 4, bottom + 4, axis_label, percent), *legend_elements]
    for group_index, group in enumerate(groups):
        group_top = top + group_index * (len(series) * row + gap)
        elements.append(label_text(plot[0] - 8, group_top + len(series) * row / 2 + 4, group, "end"))
        for index, name in enumerate(series):
            middle = group_top + index * row + row / 2
            value, text = values[index][group_index], texts[index][group_index]
            elements.append(label_text(plot[1] + 8, middle + 4, text))
            if value is None or not math.isfinite(value):
                continue
            start, end = sorted((scale(0.0), scale(value)))
            tip = tooltips[index][group_index] if tooltips else f"{group} {name}: {text}"
            colour = PALETTE[0] if single else PALETTE[index % len(PALETTE)]
            # a zero still gets a hairline, so that the row does not look forgotten
            elements.append(f'<rect class="bar" x="{start:.1f}" y="{middle - row * 0.35:.1f}" width="{max(end - start, 0.5):.1f}" '
                            f'height="{row * 0.7:.1f}" fill="{colour}"><title>{escape(tip)}</title></rect>')
            if low is not None and high is not None and math.isfinite(low[index][group_index]):
                elements.append(interval_path(scale(low[index][group_index]), scale(high[index][group_index]), middle, row * 0.22))
    return svg(WIDTH, bottom + 44, elements, axis_label)


def bar_chart(labels: Sequence[str], values, low=None, high=None, *, value_texts=None, tooltips=None,
              axis_label: str = "", percent: bool = False) -> str:
    """Horizontal bars, one per label, with optional whiskers from `low` to `high`."""
    def wrap(sequence):
        return None if sequence is None else [list(sequence)]

    return grouped_bar_chart(labels, [""], [list(values)], wrap(low), wrap(high), value_texts=wrap(value_texts),
                             tooltips=wrap(tooltips), axis_label=axis_label, percent=percent)


def histogram(labels: Sequence[str], counts: Sequence[int], *, x_label: str, y_label: str = "share of all",
              tooltips=None) -> str:
    """Vertical bars of each value's share of all counts; labels under the bars, thinned to fit."""
    total = sum(counts) or 1
    shares = [count / total for count in counts]
    ticks = nice_ticks(0.0, max(shares, default=1.0))
    left, right, top, bottom = 60, WIDTH - 12, 12, 250
    scale = linear((0.0, ticks[-1]), (bottom, top))
    slot = (right - left) / max(len(counts), 1)
    every = max(1, math.ceil((max((text_width(label) for label in labels), default=0) + 6) / slot))
    # Every `every`-th bar is labelled, and the last (often the pooled tail) always, so its neighbours give way.
    last = len(counts) - 1
    labelled = {index for index in range(0, last - every + 1, every)} | {last}
    elements = []
    for tick in ticks:
        y = scale(tick)
        elements.append(f'<line x1="{left}" y1="{y:.1f}" x2="{right}" y2="{y:.1f}" stroke="{GRID}"/>')
        elements.append(label_text(left - 6, y + 4, tick_text(tick, ticks, percent=True), "end"))
    middle = (top + bottom) / 2
    elements.append(label_text(16, middle, y_label, "middle", f' transform="rotate(-90 16 {middle:.1f})"'))
    for index, (label, count, share) in enumerate(zip(labels, counts, shares)):
        x = left + index * slot
        tip = tooltips[index] if tooltips else f"{label}: {count:,} ({share:.2%})"
        elements.append(f'<rect class="bar" x="{x + slot * 0.1:.1f}" y="{scale(share):.1f}" width="{slot * 0.8:.1f}" '
                        f'height="{bottom - scale(share):.1f}" fill="{PALETTE[0]}"><title>{escape(tip)}</title></rect>')
        if index in labelled:
            elements.append(label_text(x + slot / 2, bottom + 15, label, "middle"))
    elements.append(f'<line x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="#999999"/>')
    elements.append(label_text((left + right) / 2, bottom + 34, x_label, "middle"))
    return svg(WIDTH, bottom + 44, elements, x_label)


def line_chart(series: Sequence[dict], *, x_label: str, y_label: str, x_range=None, y_range=None,
               diagonal: bool = False, x_percent: bool = False, y_percent: bool = False) -> str:
    """Lines through points, one per series: dicts with name, x, y and optionally low and high (vertical
    whiskers) and tips (one tooltip per point). `diagonal` draws y = x, dashed."""
    xs = finite([value for line in series for value in line["x"]])
    ys = finite([value for line in series for key in ("y", "low", "high") for value in line.get(key) or []])
    x_ticks = nice_ticks(*(x_range or (min(xs, default=0.0), max(xs, default=1.0))))
    y_ticks = nice_ticks(*(y_range or (min(ys, default=0.0), max(ys, default=1.0))))
    names = [line["name"] for line in series]
    legend_elements, legend_height = legend(names, 70, 8, WIDTH - 90) if len(series) > 1 else ([], 0.0)
    left, right, top = 70, WIDTH - 20, 14 + legend_height
    bottom = top + 300
    x_scale, y_scale = linear((x_ticks[0], x_ticks[-1]), (left, right)), linear((y_ticks[0], y_ticks[-1]), (bottom, top))
    elements = [*legend_elements, *value_axis(x_ticks, x_scale, top, bottom, x_label, x_percent)]
    for tick in y_ticks:
        y = y_scale(tick)
        elements.append(f'<line x1="{left}" y1="{y:.1f}" x2="{right}" y2="{y:.1f}" stroke="{GRID}"/>')
        elements.append(label_text(left - 6, y + 4, tick_text(tick, y_ticks, y_percent), "end"))
    middle = (top + bottom) / 2
    elements.append(label_text(16, middle, y_label, "middle", f' transform="rotate(-90 16 {middle:.1f})"'))
    if diagonal:
        start, end = max(x_ticks[0], y_ticks[0]), min(x_ticks[-1], y_ticks[-1])
        elements.append(f'<line class="diagonal" x1="{x_scale(start):.1f}" y1="{y_scale(start):.1f}" x2="{x_scale(end):.1f}" '
                        f'y2="{y_scale(end):.1f}" stroke="#888888" stroke-dasharray="5 4"/>')
    for index, line in enumerate(series):
        colour = PALETTE[index % len(PALETTE)]
        points = [(x, y, position) for position, (x, y) in enumerate(zip(line["x"], line["y"])) if math.isfinite(x) and math.isfinite(y)]
        path = "".join(f"{'M' if number == 0 else 'L'}{x_scale(x):.1f} {y_scale(y):.1f}" for number, (x, y, _) in enumerate(points))
        elements.append(f'<path class="line" d="{path}" stroke="{colour}" stroke-width="2" fill="none"/>')
        for x, y, position in points:
            if line.get("low") is not None:
                elements.append(interval_path(y_scale(line["low"][position]), y_scale(line["high"][position]), x_scale(x), 3, vertical=True))
            tip = line["tips"][position] if line.get("tips") else f"{line['name']}: ({x:.4g}, {y:.4g})"
            elements.append(f'<circle class="point" cx="{x_scale(x):.1f}" cy="{y_scale(y):.1f}" r="4" fill="{colour}">'
                            f'<title>{escape(tip)}</title></circle>')
    return svg(WIDTH, bottom + 44, elements, y_label)


def diverging_colour(value: float, largest: float) -> str:
    """White at 0, deepening to blue for positive values and to red for negative ones, at `largest`."""
    if not math.isfinite(value) or largest <= 0:
        return "#f2f2f2"
    strength = min(abs(value) / largest, 1.0)
    target = (33, 102, 172) if value > 0 else (178, 24, 43)
    red, green, blue = (round(255 + (channel - 255) * strength) for channel in target)
    return f"#{red:02x}{green:02x}{blue:02x}"


def heatmap(row_labels: Sequence[str], column_labels: Sequence[str], values, marked=None, *, value_texts=None,
            tooltips=None, label: str = "") -> str:
    """A grid of cells coloured by `values` (rows x columns; NaN: grey), each with its value text; cells
    where `marked` is true get a black border and bold text."""
    texts = value_texts or [[f"{value:+.3g}" if math.isfinite(value) else "" for value in row] for row in values]
    cell_width = max(70.0, max(text_width(text) for row in texts for text in row) + 16)
    cell_height = 34
    left = max(text_width(text) for text in row_labels) + 16
    # Column names are written at an angle, so that long ones do not run into each other.
    top = max(text_width(text) for text in column_labels) * 0.6 + 20
    largest = max((abs(value) for row in values for value in row if math.isfinite(value)), default=0.0)
    elements = []
    for column, name in enumerate(column_labels):
        x, y = left + (column + 0.5) * cell_width, top - 8
        elements.append(label_text(x, y, name, "start", f' transform="rotate(-35 {x:.1f} {y:.1f})"'))
    for row, name in enumerate(row_labels):
        y = top + row * cell_height
        elements.append(label_text(left - 8, y + cell_height / 2 + 4, name, "end"))
        for column, value in enumerate(values[row]):
            x = left + column * cell_width
            strong = bool(marked is not None and marked[row][column])
            border = ' stroke="#000000" stroke-width="2.5"' if strong else ' stroke="#ffffff" stroke-width="1"'
            tip = tooltips[row][column] if tooltips else f"{name} against {column_labels[column]}: {texts[row][column]}"
            elements.append(f'<rect class="cell{" significant" if strong else ""}" x="{x:.1f}" y="{y:.1f}" width="{cell_width:.1f}" '
                            f'height="{cell_height}" fill="{diverging_colour(value, largest)}"{border}><title>{escape(tip)}</title></rect>')
            dark = math.isfinite(value) and largest > 0 and abs(value) / largest > 0.55
            weight = ' font-weight="bold"' if strong else ""
            elements.append(f'<text x="{x + cell_width / 2:.1f}" y="{y + cell_height / 2 + 4:.1f}" text-anchor="middle" '
                            f'fill="{"#ffffff" if dark else INK}"{weight}>{escape(texts[row][column])}</text>')
    overhang = max(0.0, text_width(column_labels[-1]) * 0.82 - cell_width / 2) if column_labels else 0.0
    width = left + len(column_labels) * cell_width + 12 + overhang
    return svg(width, top + len(row_labels) * cell_height + 12, elements, label)
