"""Small server-rendered SVG charts for the staff dashboard: no CDN, no JavaScript.

Every label and title goes through format_html/escape; numbers are formatted by us.
"""
from decimal import Decimal

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

PALETTE = ("#4c6ef5", "#f59f00", "#37b24d", "#e03131", "#7048e8", "#1098ad")
WIDTH, HEIGHT = 640, 220
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 48, 12, 16, 40


def _number(value) -> str:
    if isinstance(value, Decimal):
        value = float(value)
    if isinstance(value, float) and not value.is_integer():
        return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.4g}"
    return f"{int(value):,}"


def _px(value: float) -> str:
    return f"{value:.1f}"


def _frame(*, title: str, top: float, body: SafeString, legend: list[tuple[str, str]]) -> SafeString:
    plot_h = HEIGHT - PAD_TOP - PAD_BOTTOM
    axis = format_html(
        '<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" class="axis"/>'
        '<line x1="{0}" y1="{2}" x2="{3}" y2="{2}" class="axis"/>'
        '<text x="{4}" y="{5}" text-anchor="end" class="tick">{6}</text>'
        '<text x="{4}" y="{2}" text-anchor="end" class="tick">0</text>',
        PAD_LEFT, PAD_TOP, PAD_TOP + plot_h, WIDTH - PAD_RIGHT, PAD_LEFT - 4, PAD_TOP + 4, _number(top),
    )
    keys = format_html_join(
        "", '<rect x="{0}" y="{1}" width="10" height="10" fill="{2}"/><text x="{3}" y="{4}" class="legend">{5}</text>',
        ((PAD_LEFT + i * 110, HEIGHT - 14, color, PAD_LEFT + i * 110 + 14, HEIGHT - 5, label)
         for i, (label, color) in enumerate(legend)),
    )
    return format_html(
        '<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {0} {1}" role="img" aria-label="{2}">'
        "<title>{2}</title>{3}{4}{5}</svg>",
        WIDTH, HEIGHT, title, axis, body, keys,
    )


def bar_chart(*, title: str, labels: list[str], series: dict[str, list]) -> SafeString:
    """Grouped bars: one group per label, one bar per series."""
    top = max([float(v) for values in series.values() for v in values] + [0]) or 1
    plot_w, plot_h = WIDTH - PAD_LEFT - PAD_RIGHT, HEIGHT - PAD_TOP - PAD_BOTTOM
    group_w = plot_w / max(len(labels), 1)
    bar_w = max(group_w * 0.8 / max(len(series), 1), 1)
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
        parts.append(format_html(
            '<text x="{}" y="{}" text-anchor="middle" class="tick">{}</text>',
            _px(x0 + group_w * 0.4), PAD_TOP + plot_h + 14, label,
        ))
    legend = [(name, PALETTE[i % len(PALETTE)]) for i, name in enumerate(series)] if len(series) > 1 else []
    return _frame(title=title, top=top, body=mark_safe("".join(parts)), legend=legend)


def line_chart(*, title: str, labels: list[str], series: dict[str, list]) -> SafeString:
    """One polyline per series over evenly spaced labels, with a dot (and tooltip) per point."""
    top = max([float(v) for values in series.values() for v in values] + [0]) or 1
    plot_w, plot_h = WIDTH - PAD_LEFT - PAD_RIGHT, HEIGHT - PAD_TOP - PAD_BOTTOM
    step = plot_w / max(len(labels) - 1, 1)
    parts = []
    for s, (name, values) in enumerate(series.items()):
        color = PALETTE[s % len(PALETTE)]
        points = [(PAD_LEFT + i * step, PAD_TOP + plot_h - plot_h * float(v) / top) for i, v in enumerate(values)]
        parts.append(format_html(
            '<polyline fill="none" stroke="{}" stroke-width="2" points="{}"/>',
            color, " ".join(f"{_px(x)},{_px(y)}" for x, y in points),
        ))
        parts.extend(
            format_html('<circle cx="{}" cy="{}" r="3" fill="{}"><title>{}: {} {}</title></circle>',
                        _px(x), _px(y), color, labels[i], name, _number(values[i]))
            for i, (x, y) in enumerate(points)
        )
    every = max(len(labels) // 8, 1)  # keep tick labels readable on long windows
    parts.extend(
        format_html('<text x="{}" y="{}" text-anchor="middle" class="tick">{}</text>',
                    _px(PAD_LEFT + i * step), PAD_TOP + plot_h + 14, label)
        for i, label in enumerate(labels) if i % every == 0
    )
    legend = [(name, PALETTE[i % len(PALETTE)]) for i, name in enumerate(series)]
    return _frame(title=title, top=top, body=mark_safe("".join(parts)), legend=legend)
