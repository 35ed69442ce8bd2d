"""Small server-rendered SVG charts for the staff dashboard: no CDN, no JavaScript.

Every label and title goes through format_html/escape; numbers are formatted by us.

A chart is drawn in a narrow viewBox (400 units) with 14-unit text, so its labels stay at least
11 px when the figure shrinks to a phone's width. The legend is HTML under the picture (it wraps),
and every chart carries its numbers as a table — the text alternative a screen reader reads and
anyone can open.
"""
from decimal import Decimal

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

PALETTE = ("#3b5bdb", "#c25e00", "#2b8a3e", "#c92a2a", "#6741d9", "#0b7285")
WIDTH, HEIGHT = 400, 200  # text is 14 units (dashboard.css): ≥ 11 px down to a 315 px wide figure
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 44, 10, 12, 26
MAX_TICKS = 6  # x labels drawn on a line chart; the table has every day


def _number(value) -> str:
    if isinstance(value, Decimal):
        value = float(value)
    if isinstance(value, float) and not value.is_integer():
        return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.4g}"
    return f"{int(value):,}"


def _px(value: float) -> str:
    return f"{value:.1f}"


def _legend(names: list[str]) -> SafeString:
    if len(names) < 2:
        return mark_safe("")
    items = format_html_join(
        "", '<li><span class="chart-legend__key" style="background:{}"></span>{}</li>',
        ((PALETTE[i % len(PALETTE)], name) for i, name in enumerate(names)),
    )
    return format_html('<ul class="chart-legend">{}</ul>', items)


def _table(*, title: str, labels: list[str], series: dict[str, list]) -> SafeString:
    head = format_html_join("", '<th scope="col">{}</th>', ((name,) for name in series))
    rows = format_html_join(
        "", "<tr><th scope=\"row\">{}</th>{}</tr>",
        ((label, format_html_join("", "<td>{}</td>", ((_number(values[i]),) for values in series.values())))
         for i, label in enumerate(labels)),
    )
    return format_html(
        '<details class="chart-data"><summary>{}</summary><table class="table table--compact">'
        '<caption class="visually-hidden">{}</caption><thead><tr><td></td>{}</tr></thead><tbody>{}</tbody></table></details>',
        _("Show the numbers"), title, head, rows,
    )


def _frame(*, title: str, top: float, body: SafeString) -> SafeString:
    plot_h = HEIGHT - PAD_TOP - PAD_BOTTOM
    axis = format_html(
        '<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" class="axis"/>'
        '<line x1="{0}" y1="{2}" x2="{3}" y2="{2}" class="axis"/>'
        '<text x="{4}" y="{5}" text-anchor="end" class="tick">{6}</text>'
        '<text x="{4}" y="{2}" text-anchor="end" class="tick">0</text>',
        PAD_LEFT, PAD_TOP, PAD_TOP + plot_h, WIDTH - PAD_RIGHT, PAD_LEFT - 4, PAD_TOP + 10, _number(top),
    )
    return format_html(
        '<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {0} {1}" role="img" aria-label="{2}">'
        "<title>{2}</title>{3}{4}</svg>",
        WIDTH, HEIGHT, title, axis, body,
    )


def _figure(*, svg: SafeString, title: str, labels: list[str], series: dict[str, list]) -> SafeString:
    return format_html("{}{}{}", svg, _legend(list(series)), _table(title=title, labels=labels, series=series))


def bar_chart(*, title: str, labels: list[str], series: dict[str, list]) -> SafeString:
    """Grouped bars: one group per label, one bar per series; labels thinned to stay readable."""
    top = max([float(v) for values in series.values() for v in values] + [0]) or 1
    plot_w, plot_h = WIDTH - PAD_LEFT - PAD_RIGHT, HEIGHT - PAD_TOP - PAD_BOTTOM
    group_w = plot_w / max(len(labels), 1)
    bar_w = max(group_w * 0.8 / max(len(series), 1), 1)
    every = max(-(-len(labels) // MAX_TICKS), 1)
    parts = []
    for g, label in enumerate(labels):
        x0 = PAD_LEFT + g * group_w + group_w * 0.1
        for s, (name, values) in enumerate(series.items()):
            value = values[g]
            h = plot_h * float(value) / top
            parts.append(format_html(
                '<rect x="{}" y="{}" width="{}" height="{}" fill="{}"><title>{}: {} {}</title></rect>',
                _px(x0 + s * bar_w), _px(PAD_TOP + plot_h - h), _px(bar_w), _px(h), PALETTE[s % len(PALETTE)],
                label, name, _number(value),
            ))
        if g % every == 0:
            parts.append(format_html(
                '<text x="{}" y="{}" text-anchor="middle" class="tick">{}</text>',
                _px(x0 + group_w * 0.4), PAD_TOP + plot_h + 17, label,
            ))
    svg = _frame(title=title, top=top, body=mark_safe("".join(parts)))
    return _figure(svg=svg, title=title, labels=labels, series=series)


def hbar_chart(*, title: str, labels: list[str], values: list, name: str) -> SafeString:
    """One horizontal bar per label, the label on the left and the value at the bar's end."""
    top = max([float(v) for v in values] + [0]) or 1
    label_w, row_h = 120, 28
    height = PAD_TOP + row_h * max(len(labels), 1) + 4
    plot_w = WIDTH - label_w - 50
    parts = []
    for i, (label, value) in enumerate(zip(labels, values)):
        y = PAD_TOP + i * row_h
        w = plot_w * float(value) / top
        parts.append(format_html(
            '<text x="{}" y="{}" text-anchor="end" class="tick">{}</text>'
            '<rect x="{}" y="{}" width="{}" height="{}" fill="{}"><title>{}: {}</title></rect>'
            '<text x="{}" y="{}" class="tick">{}</text>',
            label_w - 6, y + 18, label, label_w, y + 5, _px(w), row_h - 10, PALETTE[0], label, _number(value),
            _px(label_w + w + 5), y + 18, _number(value),
        ))
    svg = format_html(
        '<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {0} {1}" role="img" aria-label="{2}">'
        "<title>{2}</title>{3}</svg>",
        WIDTH, height, title, mark_safe("".join(parts)),
    )
    return _figure(svg=svg, title=title, labels=labels, series={name: values})


def line_chart(*, title: str, labels: list[str], series: dict[str, list]) -> SafeString:
    """One polyline per series over evenly spaced labels, with a dot (and tooltip) per point."""
    top = max([float(v) for values in series.values() for v in values] + [0]) or 1
    plot_w, plot_h = WIDTH - PAD_LEFT - PAD_RIGHT - 14, HEIGHT - PAD_TOP - PAD_BOTTOM
    step = plot_w / max(len(labels) - 1, 1)
    parts = []
    for s, (name, values) in enumerate(series.items()):
        color = PALETTE[s % len(PALETTE)]
        points = [(PAD_LEFT + 14 + i * step, PAD_TOP + plot_h - plot_h * float(v) / top) for i, v in enumerate(values)]
        parts.append(format_html(
            '<polyline fill="none" stroke="{}" stroke-width="2" points="{}"/>',
            color, " ".join(f"{_px(x)},{_px(y)}" for x, y in points),
        ))
        parts.extend(
            format_html('<circle cx="{}" cy="{}" r="3" fill="{}"><title>{}: {} {}</title></circle>',
                        _px(x), _px(y), color, labels[i], name, _number(values[i]))
            for i, (x, y) in enumerate(points)
        )
    every = max(-(-len(labels) // MAX_TICKS), 1)  # keep tick labels readable on long windows
    parts.extend(
        format_html('<text x="{}" y="{}" text-anchor="middle" class="tick">{}</text>',
                    _px(PAD_LEFT + 14 + i * step), PAD_TOP + plot_h + 17, label)
        for i, label in enumerate(labels) if i % every == 0
    )
    svg = _frame(title=title, top=top, body=mark_safe("".join(parts)))
    return _figure(svg=svg, title=title, labels=labels, series=series)
