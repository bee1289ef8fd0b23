"""Tenhou's mjlog read as tags, safely: bytes -> text -> ``Tag`` values.

``pywall.formats.mjlog`` builds the game from these tags.

Theory of operation: an mjlog is a flat sequence of tags inside ``<mjloggm>``
(plain XML, or gzip as ``.mjlog``). Real logs are not always well-formed XML
(one has a duplicate ``owari=`` attribute; copies are truncated mid-game), so
this module reads tags with a small tolerant tokenizer instead of an XML
parser: it never expands entities, refuses any DTD outright, and caps sizes
before and after decompression, which makes XML and gzip bombs harmless.
Everything it cannot make sense of raises ``LogFormatError`` saying where.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from pywall.core.archives import MAX_INPUT_BYTES, MAX_XML_BYTES, gunzip_bounded, is_gzip
from pywall.core.errors import InputTooLargeError, LogFormatError

#: A run of draws and discards (``<T23/><D45/>...``: nine tags in ten) matches the
#: first branch as a whole and skips the general tag reader; anything else, the second.
#: A run of draws and discards is taken at most 512 tags at a time: a longer repeat makes
#: the regex engine keep a backtracking mark per tag (a log of 3 M draws took 700 MB).
_TAG_RE = re.compile(r"((?:<[DEFGTUVW][0-9]{1,3}/>\s*){1,512})|<([^<>]*)(>?)")
_MOVE_RE = re.compile(r"<([DEFGTUVW][0-9]{1,3})/>")
_NAME_RE = re.compile(r"\s*(/?)([A-Za-z_][\w.-]*)")
#: Linear time: a name starts only where no name character precedes it, and its
#: possessive ``*+`` never gives characters back (``<UN aaa...a=/>`` was quadratic).
_ATTR_RE = re.compile(r"""(?<![\w.:-])([A-Za-z_][\w.:-]*+)\s*+=\s*+(?:"([^"]*+)"|'([^']*+)')""")
_ENTITY_RE = re.compile(r"&(#[xX][0-9A-Fa-f]{1,8}|#[0-9]{1,8}|amp|lt|gt|quot|apos);")
#: No real tag comes near this (the longest, ``<UN>`` with four names, is a few hundred).
MAX_TAG_CHARS = 64 * 1024
_ENTITIES = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}


@dataclass(frozen=True, slots=True)
class Tag:
    name: str
    attrs: dict[str, str]
    index: int  # 1-based position among the log's tags
    duplicates: tuple[str, ...] = ()


def text_from_bytes(data: bytes) -> str:
    """Decompress (gzip) if needed, decode UTF-8, drop a BOM; bounded in size."""
    if len(data) > MAX_INPUT_BYTES:
        raise InputTooLargeError(
            f"the file is {len(data):,} bytes; pywall reads logs up to {MAX_INPUT_BYTES:,} bytes"
        )
    if is_gzip(data):
        data = gunzip_bounded(data, MAX_XML_BYTES)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LogFormatError("the file is not UTF-8 text", f"byte {exc.start}") from None
    return text.lstrip("\ufeff")


def _unescape(value: str) -> str:
    def one(m: re.Match[str]) -> str:
        ent = m.group(1)
        if ent[0] != "#":
            return _ENTITIES[ent]
        code = int(ent[2:], 16) if ent[1] in "xX" else int(ent[1:])  # noqa: FURB166
        return chr(code) if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else "\ufffd"

    return _ENTITY_RE.sub(one, value) if "&" in value else value


def iter_tags(text: str) -> Iterator[Tag]:
    """Opening and empty tags in order; closing tags, comments and the XML
    declaration are skipped. A DTD is refused."""
    for t in tokens(text):
        if isinstance(t, Tag):
            yield t
        else:
            yield from run_tags(*t)


def run_tags(run: str, first: int) -> Iterator[Tag]:
    """The tags of a run of draws and discards, numbered from ``first``."""
    for i, name in enumerate(_MOVE_RE.findall(run)):
        yield Tag(name, {}, first + i)


#: A run of draw and discard tags as ``tokens`` yields it: (the run's text, the
#: index of its first tag).
Moves = tuple[str, int]


def tokens(text: str) -> Iterator[Tag | Moves]:
    """``iter_tags``' reading, with runs of draws and discards as plain ``Moves``
    tuples (building a Tag for each was most of the time spent parsing)."""
    index = 0
    for m in _TAG_RE.finditer(text):
        run, body, closed = m.groups()
        if run:
            yield run, index + 1
            index += run.count("<")
            continue
        if not closed:
            if text[m.end() :].strip():
                raise LogFormatError("a tag is not closed", f"character {m.start() + 1}")
            return  # a copy cut off inside its last tag: what came before still counts
        if body.startswith("!"):
            if body[1:8].upper() in ("DOCTYPE", "ENTITY") or body[1:].lstrip().startswith("["):
                raise LogFormatError("the log declares a DTD or entities, which pywall refuses")
            continue
        if body.startswith("?"):
            continue
        head = _NAME_RE.match(body)
        if head is None:
            raise LogFormatError("malformed tag", f"character {m.start() + 1}")
        if head.group(1):
            continue
        index += 1
        if len(body) > MAX_TAG_CHARS:
            raise LogFormatError(f"a tag of over {MAX_TAG_CHARS:,} characters", f"tag {index}")
        if "=" not in body:  # most tags (draws, discards) have no attributes: skip the scan
            yield Tag(head.group(2), {}, index)
            continue
        # (name, "double-quoted", 'single-quoted'): the quote not used reads as "".
        pairs = _ATTR_RE.findall(body, head.end())
        attrs = {key: double or single for key, double, single in pairs}
        dups: tuple[str, ...] = ()
        if len(attrs) < len(pairs):  # a repeated attribute: the first value counts
            attrs, dups = _first_values(pairs)
        if "&" in body:
            attrs = {key: _unescape(value) for key, value in attrs.items()}
        yield Tag(head.group(2), attrs, index, dups)


def _first_values(pairs: list[tuple[str, str, str]]) -> tuple[dict[str, str], tuple[str, ...]]:
    """Attributes keeping each name's first value, and the names seen again."""
    attrs: dict[str, str] = {}
    dups: list[str] = []
    for key, double, single in pairs:
        if key in attrs:
            dups.append(key)
        else:
            attrs[key] = double or single
    return attrs, tuple(dups)
