"""The fairness audit as one self-contained HTML page, in English, Japanese or Chinese.

``audit_html(result, lang)`` words the typed ``AuditResult`` the CLI builds (``pywall
audit --html FILE``) and the page's worker builds ("Export audit"): the same Python,
so both reports agree. The page has no script and loads nothing, and says so to the
browser (``CSP``: a Content-Security-Policy that runs no script and loads nothing, inline
style only): its style is inline and its charts are inline SVG (the chosen player's and everyone's cumulative effective
draws above or below fair, each platform's wall tests against the threshold), so it
opens offline in any browser. Every number comes from the result; this module only
words and draws it (the words of ``words``). Every text that comes from the games
(players' names, platforms, paths, seats) is escaped, whatever its source: a record
read back from the page is any text.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from pywall.analysis.draws import sums_dict
from pywall.analysis.stats import Z95, ZScore, reading
from pywall.audits.draw_wall_tests import DrawAudit, WallAudit
from pywall.audits.tally import AuditTally
from pywall.audits.verdicts import ALPHA, AuditResult, GroupAudit, hand_seen
from pywall.audits.words import LANGS, WORDS, count, pick

STYLE = """
body{font:15px/1.5 system-ui,sans-serif;max-width:52rem;margin:0 auto;padding:1rem;color:#1b1b1b;background:#fff;overflow-wrap:break-word}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem;border-top:1px solid #ccc;padding-top:.8rem}
.ok{color:#14622e}.bad{color:#a0161b;font-weight:bold}.few{color:#8a5a00;font-weight:bold}.hint{color:#555;font-size:.9rem}
.headline{font-size:1.15rem}
li{margin:.3rem 0}svg{width:100%;height:auto;max-width:36rem;display:block}figure{margin:1rem 0}
summary{cursor:pointer;padding:.3rem 0}details{margin:.6rem 0;border-top:1px solid #ccc;padding-top:.3rem}
table{border-collapse:collapse;width:100%;font-size:.9rem}td,th{border-bottom:1px solid #ddd;padding:.25rem .2rem;text-align:left;vertical-align:top}
@media (max-width:30rem){body{padding:.6rem}td .word{display:none}}
.scroll{overflow-x:auto}.n{white-space:nowrap;font-variant-numeric:tabular-nums;text-align:right}
.usual{color:#14622e}.unusual{color:#8a5a00}.very_unusual{color:#a0161b;font-weight:bold}
""".strip()
#: No script runs and nothing loads: no default source, inline style only, no base or
#: form target (a meta policy cannot set frame-ancestors; nothing here needs it).
CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"


#: Fewer verified games than this: the report's headline says "too few to tell" (the
#: page says the same below two games: ``audit.needTwo``).
FEW_GAMES = 2


@dataclass(frozen=True, slots=True)
class AuditGames:
    """What the report says of the games: how many counted, their hands and draws,
    how many were left out (and of each kind: ``Exclusion.kind``, sorted), and the
    counted games' names (their files)."""

    used: int
    hands: int
    draws: int
    excluded: int
    ids: tuple[str, ...] = ()
    left_out: tuple[tuple[str, int], ...] = ()


def games_of(tally: AuditTally) -> AuditGames:
    """The games of an audit's tally, for the report: the files of the copies that count,
    sorted (the same list whatever order the files came in)."""
    counted = sorted(g.best.path for g in tally.copies.values() if g.best is not None)
    kinds = tuple(sorted(Counter(e.kind for e in tally.excluded).items()))
    return AuditGames(
        tally.games, tally.hands, tally.draws, len(tally.excluded), tuple(counted), kinds
    )


def audit_html(
    result: AuditResult,
    lang: str = "en",
    games: AuditGames | None = None,
    player: str | None = None,
) -> str:
    """The audit as a standalone HTML document in ``lang`` (en, ja or zh); ``player``, if
    one of the result's players, is named "you" (``audit_html_pieces``, joined)."""
    return "".join(audit_html_pieces(result, lang, games, player))


def audit_html_pieces(
    result: AuditResult,
    lang: str = "en",
    games: AuditGames | None = None,
    player: str | None = None,
) -> Iterator[str]:
    """``audit_html``'s text in pieces, each made when asked (a group's section, its
    charts; the files counted, a chunk at a time): what writes them holds one at a time.

    It opens as a forum reader needs it: what was tested and on how many games, the
    verdict, then who; everyone's tests follow in full, then the chosen player's and any
    flagged group's; every other group is one folded line (``<details>``), so the report
    is a few screens long on a phone however many players the games had."""
    w = WORDS[lang if lang in LANGS else "en"]
    chosen = next((g for g in result.players if g.label == player), None)
    yield (
        f"<!doctype html><html lang='{escape(w['lang'])}'><head><meta charset='utf-8'>"
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{w['title']}</title><style>{STYLE}</style></head><body>"
    )
    yield from _lines(_body(result, games, chosen, w))
    yield "</body></html>\n"


def _lines(parts: Iterable[Iterable[str]]) -> Iterator[str]:
    """Each part's pieces, the parts apart by a newline."""
    for number, part in enumerate(parts):
        if number:
            yield "\n"
        yield from part


def _body(
    result: AuditResult, games: AuditGames | None, chosen: GroupAudit | None, w: dict[str, str]
) -> Iterator[Iterable[str]]:
    """The report's parts in order, each as its pieces."""
    yield (f"<h1>{w['title']}</h1>",)
    yield from ((part,) for part in _opening(result, games, chosen, w))
    yield (_group(result.overall, w["everyone"], w),)
    if chosen is not None:
        yield (_group(chosen, pick(w, "you", name=escape(chosen.label)), w),)
    for g in result.platforms if len(result.platforms) > 1 else ():
        yield (_group(g, _platform(g, w), w, folded=not g.rejects(ALPHA)),)
    others = sorted((g for g in result.players if g is not chosen), key=lambda g: -g.hands)
    for g in others:
        if g.rejects(ALPHA):  # a flagged player's evidence is never folded away
            yield (_group(g, escape(g.label), w),)
    yield (_table(w["seats"], "groups_n", [(_seat(g.label, w), g) for g in result.seats], w),)
    yield from ((part,) for part in _mirrors(result.seats, w))
    yield (_table(w["others"], "players_n", [(escape(g.label), g) for g in others], w),)
    yield (_folded(w["method_heading"], f"<p>{w['method']}</p>"),)
    if games is not None and games.ids:
        yield _game_list(games.ids, w)
    yield (f"<p class='hint'>{w['made_by']}</p>",)


def _game_list(ids: Sequence[str], w: dict[str, str], chunk: int = 1024) -> Iterator[str]:
    """The files counted, folded: ``_folded`` of their list, ``chunk`` files a piece."""
    yield f"<details><summary>{pick(w, 'game_list', n=count(len(ids)))}</summary><ul>"
    for start in range(0, len(ids), chunk):
        yield "".join(f"<li>{_path(i)}</li>" for i in ids[start : start + chunk])
    yield "</ul></details>"


def _path(name: str) -> str:
    """A file's path that a narrow screen may end a line after any "/" (never mid-name)."""
    return "/<wbr>".join(escape(part) for part in name.split("/"))


def _folded(summary: str, inside: str) -> str:
    return f"<details><summary>{summary}</summary>{inside}</details>"


def _opening(
    result: AuditResult, games: AuditGames | None, chosen: GroupAudit | None, w: dict[str, str]
) -> list[str]:
    """What was tested and on how many games, the verdict over everyone, then who."""
    hands = games.hands if games else result.overall.hands
    draws = games.draws if games else (result.overall.draws.draws if result.overall.draws else 0)
    figures = {
        "hands": pick(w, "hands_n", n=count(hands)),
        "draws": pick(w, "draws_n", n=count(draws)),
    }
    if games is None:
        tested = pick(w, "tested_hands", **figures)
    else:
        tested = pick(w, "tested", games=pick(w, "games_n", n=count(games.used)), **figures)
    if games is not None and games.excluded:
        tested += " " + _left_out(games, w)
    return [f"<p>{tested}</p>", _headline(result.overall, games, w), _who(result, chosen, w)]


def _left_out(games: AuditGames, w: dict[str, str]) -> str:
    kinds = w["list_sep"].join(pick(w, "kind_" + k, n=count(n)) for k, n in games.left_out)
    text = pick(w, "left_out", n=count(games.excluded))
    return f"{text}{w['colon']}{kinds}{w['stop']}" if kinds else f"{text}{w['stop']}"


def _headline(g: GroupAudit, games: AuditGames | None, w: dict[str, str]) -> str:
    """The verdict over everyone in plain words, the figures after them; "too few to
    tell" first when the games are too few for any verdict."""
    if games is not None and games.used < FEW_GAMES:
        return f"<p class='headline few'>⚠ {w['too_few']}</p>"
    return _verdict(g, w, "headline ")


def _who(result: AuditResult, chosen: GroupAudit | None, w: dict[str, str]) -> str:
    flagged = [escape(g.label) for g in result.players if g.rejects(ALPHA)]
    parts = [pick(w, "who_players", n=count(len(result.players)))]
    if chosen is not None:
        verdict = w["short_bad"] if chosen.rejects(ALPHA) else w["short_ok"]
        parts.append(pick(w, "who_you", name=escape(chosen.label), verdict=verdict))
    if flagged:
        parts.append(
            pick(w, "who_flagged", names=w["list_sep"].join(flagged), n=count(len(flagged)))
        )
    return f"<p>{' '.join(parts)}</p>"


def _verdict(g: GroupAudit, w: dict[str, str], extra: str = "") -> str:
    ps = g.p_values
    flagged = g.rejects(ALPHA)
    words = w["verdict_bad"] if flagged else w["verdict_ok"]
    detail = pick(w, "verdict_detail", p=p_is(min(ps)), k=count(len(ps)), each=_p(ALPHA / len(ps)))
    mark = "⚠" if flagged else "✓"
    return f"<p class='{extra}{'bad' if flagged else 'ok'}'>{mark} {words} <span class='hint'>({detail})</span></p>"


def _group(g: GroupAudit, label: str, w: dict[str, str], folded: bool = False) -> str:
    """A group's tests in full: its counts, verdict, each test's line, its charts; folded:
    one line (its name and verdict) that opens onto them."""
    each = ALPHA / len(g.p_values)
    seen = [
        _detectable_html(t.name, t.to_dict(each), w) for t in (g.draws.tests if g.draws else ())
    ]
    hands, seen_hands = _hand_lines(g, each, w)
    lines = [*draw_lines(g.draws, each, w, _calm(g)), *hands]
    seen = [s for s in (*seen, *seen_hands) if s]
    if seen:  # what these games could catch: one folded line, so a phone reads a few screens
        inside = "".join(f"<p>{s}</p>" for s in seen)
        lines.append(
            f"<details class='seen'><summary>{w['seen_summary']}</summary>{inside}</details>"
        )
    counts = pick(
        w, "group_counts", hands=count(g.hands), draws=count(g.draws.draws if g.draws else 0)
    )
    parts = [
        f"<p class='hint'>{counts}</p>",
        _verdict(g, w),
        "<ul>" + "".join(f"<li>{line}</li>" for line in lines) + "</ul>",
    ]
    if len(g.series) > 1:
        title = pick(w, "chart_title", who=label)
        parts.append(f"<figure><figcaption><b>{title}</b></figcaption>")
        parts.append(cumulative_svg(g.series, w, label) + "</figure>")
    if g.walls is not None:
        parts.append(_walls(g.walls, w, each))
    if folded:
        short = w["short_bad"] if g.rejects(ALPHA) else w["short_ok"]
        line = f"<b>{label}</b>{w['colon']}{short}"
        return f"<section>{_folded(line, ''.join(parts))}</section>"
    return f"<section><h2>{label}</h2>{''.join(parts)}</section>"


def _reading_word(p: float | None, each: float, w: dict[str, str], calm: int = 0) -> str:
    """A test's reading ("usual", "unusual", ...); in a group that is not flagged
    (``calm``: its number of tests), an unusual reading is one sentence that explains both
    the amber word and the green verdict, as the page words it."""
    r = reading(p, each)
    if calm and r != "usual":
        sentence = pick(w, "reading_not_flag", k=count(calm), each=_p(each))
        return f"<b class='{r}' data-not-flag='true'>{sentence}</b>"
    return f"<b class='{r}'>{w['reading_' + r]}</b>"


def draw_line(
    name: str, test: dict[str, object], w: dict[str, str], each: float, calm: int = 0
) -> str:
    """One draw test in words: what it counts, the hits, the fair range, where they fall."""
    n = int(test["n"])  # type: ignore[call-overload]
    if not n:
        return f"{w['draw_' + name]}: {w['no_draws']}"
    words = pick(
        w,
        "draw_line",
        what=w["draw_" + name],
        obs=count(int(test["observed"])),  # type: ignore[call-overload]
        n=count(n),
        fair=count(round(float(test["expected"]))),  # type: ignore[arg-type]
        low=count(int(test["low"])),  # type: ignore[call-overload]
        high=count(int(test["high"])),  # type: ignore[call-overload]
    )
    p = test["p"]
    if not isinstance(p, float):
        return words
    figures = f"z = {_z(float(test['z']))}, {p_is(p)}"  # type: ignore[arg-type]
    return f"{words} {_reading_word(p, each, w, calm)} <span class='hint'>({figures})</span>"


def detectable_words(name: str, test: Mapping[str, Any], w: dict[str, str]) -> str | None:
    """What a draw test can see, in a player's words (``draws.detectable``): "With these
    21,518 draws, a rigged shuffle that took away (or added) 1 effective tile in every 86
    draws would be caught 8 times in 10"; None when the test has no ``detectable`` (no
    draw, or no variance)."""
    if test.get("detectable") is None:
        return None
    n = count(int(test["n"]))
    k = test["detectable_one_in"]
    if k is None:
        return pick(w, f"few_{name}", n=n)
    return pick(w, f"detect_{name}", n=n, k=count(int(k)))


def _detectable_html(
    name: str, test: Mapping[str, Any], w: dict[str, str], key: str = "", part: str = ""
) -> str:
    """``detectable_words`` (of the words ``key``, else ``name``) as an element, with
    its figure on the element; ``part``: ``hands`` for a starting-hand test."""
    text = detectable_words(key or name, test, w)
    if text is None:
        return ""
    where = f" data-part='{part}'" if part else ""
    return (
        f"<span class='detectable hint' data-test='{name}'{where} "
        f"data-detectable='{test['detectable']!r}'>{text}</span>"
    )


def draw_lines(draws: DrawAudit | None, each: float, w: dict[str, str], calm: int = 0) -> list[str]:
    if draws is None:
        return [w["no_draws_tested"]]
    return [draw_line(t.name, sums_dict(t.sums, each), w, each, calm) for t in draws.tests]


def _calm(g: GroupAudit) -> int:
    """A group's number of tests when it is not flagged (its unusual readings are worded as
    not enough to flag), else 0."""
    return 0 if g.rejects(ALPHA) else len(g.p_values)


def _hand_lines(g: GroupAudit, each: float, w: dict[str, str]) -> tuple[list[str], list[str]]:
    """A group's starting-hand lines, and what each of those tests could see (its
    ``detectable`` sentence, or "")."""
    z = g.shanten_z
    seen = [
        _detectable_html("shanten_sum", hand_seen("shanten_sum", z, g.hands, each), w, part="hands")
    ]
    lines = [
        _lean(
            "mean_line",
            z,
            w,
            each,
            obs=f"{z.observed / max(1, g.hands):.3f}",
            fair=f"{z.expected / max(1, g.hands):.3f}",
            higher="lean_worse",
            lower="lean_better",
            calm=_calm(g),
        )
    ]
    if g.dora is not None:
        d = g.dora
        lines.append(
            _lean(
                "dora_line",
                d,
                w,
                each,
                obs=count(round(d.observed)),
                fair=f"{d.expected:,.1f}",
                higher="lean_more",
                lower="lean_fewer",
                calm=_calm(g),
            )
        )
        seen.append(
            _detectable_html(
                "dora", hand_seen("dora", d, g.hands, each), w, "hand_dora", part="hands"
            )
        )
    return lines, seen


def _lean(
    key: str,
    z: ZScore,
    w: dict[str, str],
    each: float,
    higher: str,
    lower: str,
    calm: int = 0,
    **figures: str,
) -> str:
    """A hand test's line: "close to fair" within chance, else which way it leans."""
    r = reading(z.p_value, each)
    lean = w["close"] if r == "usual" else w[higher if z.z > 0 else lower]
    text = pick(w, key, lean=lean, **figures)
    return f"{text} {_reading_word(z.p_value, each, w, calm)} <span class='hint'>(z = {_z(z.z)}, {p_is(z.p_value)})</span>"


def _table(
    heading: str, unit: str, rows: Sequence[tuple[str, GroupAudit]], w: dict[str, str]
) -> str:
    """Groups as one folded table: its line says how many and which are flagged; a row
    is a group's numbers (each on one line) and its verdict in two words."""
    if not rows:
        return ""
    body = []
    for label, g in rows:
        effective = g.draws.tests[0].sums if g.draws else None
        hits = count(int(effective.observed)) if effective else "–"
        fair = count(round(effective.expected)) if effective else "–"
        bad = g.rejects(ALPHA)  # a phone shows the mark alone (the line names the flagged)
        verdict = (
            f"{'⚠' if bad else '✓'} <span class='word'>{w['cell_bad' if bad else 'cell_ok']}</span>"
        )
        body.append(
            f"<tr><th scope='row'>{label}</th><td class='n'>{count(g.hands)}</td>"
            f"<td class='n'>{hits}</td><td class='n'>{fair}</td><td>{verdict}</td></tr>"
        )
    head = "".join(
        f"<th scope='col'>{w[k]}</th>"
        for k in ("col_who", "col_hands", "col_draws", "col_fair", "col_verdict")
    )
    flagged = [label for label, g in rows if g.rejects(ALPHA)]
    state = (
        pick(w, "flagged_n", n=count(len(flagged)), names=w["list_sep"].join(flagged))
        if flagged
        else w["none_flagged"]
    )
    summary = (
        f"<b>{heading}</b>{w['colon']}{pick(w, unit, n=count(len(rows)))}{w['list_sep']}{state}"
    )
    table = (
        f"<div class='scroll'><table><thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )
    return f"<section>{_folded(summary, table)}</section>"


def _platform(g: GroupAudit, w: dict[str, str]) -> str:
    name = w.get("platform_" + (g.platform or ""), escape(g.platform or g.label))
    return pick(w, "platform_group", platform=name, players=escape(str(g.players)))


def _mirrors(seats: Sequence[GroupAudit], w: dict[str, str]) -> list[str]:
    """A sentence for each flagged seat group that one flagged player explains, shown
    beside the seats' folded table: that seat only mirrors that player."""
    return [
        f"<p class='mirror'>{pick(w, 'mirror', seat=_seat(g.label, w), name=escape(g.explained_by))}</p>"
        for g in seats
        if g.explained_by is not None
    ]


def _seat(label: str, w: dict[str, str]) -> str:
    if label.startswith("seat "):
        return pick(w, "seat_n", n=escape(label[5:]))
    return w.get(label, escape(label))


def _p(p: float) -> str:
    return "&lt; 1e-6" if p < 1e-6 else f"{p:.3g}"


def p_is(p: float) -> str:
    """ "p < 1e-6" or "p = 0.0123" (never "p = < 1e-6")."""
    return "p &lt; 1e-6" if p < 1e-6 else f"p = {p:.3g}"


def _z(z: float) -> str:
    return f"+{z:.2f}" if z >= 0 else f"−{-z:.2f}"


# --- pictures -------------------------------------------------------------------------


def nice_ticks(top: float, most: int = 6, whole: bool = False) -> list[float]:
    """Round tick values from 0 to at least ``top`` (at most about ``most`` of them);
    ``whole``: counts (games), never a tick between two."""
    if top <= 0:
        return [0.0, 1.0]
    raw = top / most
    step = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * step >= raw:
            step *= m
            break
    if whole:
        step = max(1, step)
    return [i * step for i in range(math.ceil(top / step - 1e-9) + 1)]


def _text_width(text: str, size: float) -> float:
    """A generous width of ``text`` at font ``size`` (a wide CJK character a full em,
    any other about two thirds of one: system-ui's digits and letters are narrower)."""
    return sum(size if ord(c) > 0x2E7F else size * 0.66 for c in text)


def _num(v: float) -> str:
    return f"{v:,.0f}" if abs(v) >= 10 or v == int(v) else f"{v:.1f}"


def cumulative_svg(points: Sequence[tuple[float, float]], w: dict[str, str], who: str) -> str:
    """Cumulative effective hits − fair over games, inside the 95% band of a fair shuffle."""
    # 480 units wide with 15-unit labels: 11 px and more on a phone (about 360 px wide);
    # the margins hold the widest labels: the y labels on the left, on the right half of
    # the last game's tick (centred under the chart's end)
    width, height, top, bottom = 480, 280, 54, 50
    o = v = 0.0
    line, band = [0.0], [0.0]
    for d, var in points:
        o += d
        v += var
        line.append(o)
        band.append(Z95 * math.sqrt(v))
    games = len(points)
    ymax = nice_ticks(max(1.0, *map(abs, line), *band), 3)[-1]
    left = 8 + _text_width("−" + _num(ymax), 15)
    right = 4 + _text_width(count(games), 15) / 2
    pw, ph = width - left - right, height - top - bottom

    def x(i: float) -> float:
        return left + i / games * pw

    def y(val: float) -> float:
        return top + ph / 2 - val / ymax * ph / 2

    out = [
        (
            f"<svg viewBox='0 0 {width} {height}' role='img' xmlns='http://www.w3.org/2000/svg' "
            f"font-family='system-ui,sans-serif' font-size='15'><title>{pick(w, 'chart_title', who=who)}</title>"
        )
    ]
    for t in nice_ticks(ymax, 3):
        for val in {t, -t}:
            out.append(
                f"<line x1='{left}' x2='{width - right}' y1='{y(val):.1f}' y2='{y(val):.1f}' stroke='{'#555' if val == 0 else '#ddd'}'/>"
                f"<text x='{left - 6}' y='{y(val) + 4:.1f}' text-anchor='end'>{_num(val)}</text>"
            )
    for t in nice_ticks(games, 6, whole=True):
        if t <= games:
            out.append(
                f"<line x1='{x(t):.1f}' x2='{x(t):.1f}' y1='{top + ph}' y2='{top + ph + 5}' stroke='#555'/>"
                f"<text x='{x(t):.1f}' y='{top + ph + 19}' text-anchor='middle'>{count(int(t))}</text>"
            )
    upper = " ".join(f"{x(i):.1f},{y(b):.1f}" for i, b in enumerate(band))
    lower = " ".join(f"{x(i):.1f},{y(-b):.1f}" for i, b in reversed(list(enumerate(band))))
    out.append(f"<polygon points='{upper} {lower}' fill='#9cc3e6' fill-opacity='.45'/>")
    pts = " ".join(f"{x(i):.1f},{y(val):.1f}" for i, val in enumerate(line))
    out.append(f"<polyline points='{pts}' fill='none' stroke='#a0161b' stroke-width='2.5'/>")
    out.append(
        f"<text x='{left + pw / 2}' y='{height - 8}' text-anchor='middle'>{w['chart_x']}</text>"
        f"<line x1='{left}' x2='{left + 22}' y1='13' y2='13' stroke='#a0161b' stroke-width='2.5'/>"
        f"<text x='{left + 28}' y='18'>{w['chart_line']}</text>"
        f"<rect x='{left}' y='28' width='22' height='13' fill='#9cc3e6' fill-opacity='.45'/>"
        f"<text x='{left + 28}' y='40'>{w['chart_band']}</text></svg>"
    )
    return "".join(out)


def walls_svg(walls: WallAudit, w: dict[str, str], each: float) -> str:
    """Each wall test's p-value as a bar of -log10 p, against the line of ``each``, the p
    one test needs to flag its group (the threshold split over the group's tests)."""
    tests = walls.tests
    limit = -math.log10(each)
    top_value = max(limit + 1, *(min(12.0, -math.log10(max(t.p, 1e-12))) for t in tests))
    width, row, left = 480, 30, 190
    height = 34 + row * len(tests) + 26
    room = 8 + max(_text_width(p_is(t.p).replace("&lt;", "<"), 13) for t in tests)
    scale = (width - left - room) / top_value
    out = [
        (
            f"<svg viewBox='0 0 {width} {height}' role='img' xmlns='http://www.w3.org/2000/svg' "
            f"font-family='system-ui,sans-serif' font-size='13'><title>{w['walls_title']}</title>"
        )
    ]
    for i, t in enumerate(tests):
        yy = 24 + i * row
        value = min(12.0, -math.log10(max(t.p, 1e-12)))
        colour = "#a0161b" if t.p < each else "#4a7fb0"
        out.append(
            f"<text x='{left - 8}' y='{yy + 15}' text-anchor='end'>{w['wall_' + t.name]}</text>"
            f"<rect x='{left}' y='{yy + 3}' width='{value * scale:.1f}' height='16' fill='{colour}'/>"
            f"<text x='{left + value * scale + 4:.1f}' y='{yy + 15}'>{p_is(t.p)}</text>"
        )
    lx = left + limit * scale
    label = pick(w, "walls_threshold", each=_p(each))
    tx = min(lx, width - 2 - _text_width(label.replace("&lt;", "<"), 13) / 2)
    out.append(
        f"<line x1='{lx:.1f}' x2='{lx:.1f}' y1='18' y2='{height - 26}' stroke='#a0161b' stroke-dasharray='4 3'/>"
        f"<text x='{tx:.1f}' y='14' text-anchor='middle'>{label}</text>"
        f"<text x='{left}' y='{height - 6}'>{w['walls_axis']}</text></svg>"
    )
    return "".join(out)


def _walls(walls: WallAudit, w: dict[str, str], each: float) -> str:
    head = pick(w, "walls_head", walls=count(walls.walls), games=count(walls.games))
    if not walls.walls:
        return f"<p>{w['walls_none']}</p>"
    if not walls.tests:
        return f"<p>{head} {w['walls_few']}</p>"
    return f"<p>{head}</p>{walls_svg(walls, w, each)}"
