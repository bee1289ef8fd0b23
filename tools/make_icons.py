"""Write the installed app's icons (web/icon-192.png, icon-512.png, icon-maskable-512.png,
apple-touch-icon.png): the page's tile (web/icon.svg: a white tile with a red 中) on the
page's green, as PNG written with zlib alone (no imaging library). The maskable icon keeps
the tile inside the central 80% circle a launcher may crop to.

Run: python3 tools/make_icons.py (the PNGs are committed; tests/unit/test_manifest.py
checks they are what this script writes).
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

WEB = Path(__file__).resolve().parents[1] / "web"
GREEN = (0x1B, 0x6E, 0x35)
TILE = (0xFF, 0xFE, 0xF8)
EDGE = (0x8D, 0x84, 0x71)
RED = (0xB3, 0x26, 0x1E)
SAMPLES = 3  # per side, per pixel: edges drawn smooth


def rounded(x: float, y: float, box: tuple[float, float, float, float], r: float) -> bool:
    """Whether (x, y) is inside the rectangle ``box`` (x0, y0, x1, y1) with corners of radius r."""
    x0, y0, x1, y1 = box
    if not (x0 <= x <= x1 and y0 <= y <= y1):
        return False
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def colour_at(x: float, y: float, scale: float) -> tuple[int, int, int]:
    """The icon at (x, y) in 0..1, the tile shrunk by ``scale`` around the centre."""
    u, v = 0.5 + (x - 0.5) / scale, 0.5 + (y - 0.5) / scale
    if not rounded(u, v, (0.2, 0.08, 0.8, 0.92), 0.09):
        return GREEN
    if not rounded(u, v, (0.235, 0.115, 0.765, 0.885), 0.065):
        return EDGE
    # 中: a box and a stroke through it
    box = 0.3 <= u <= 0.7 and 0.36 <= v <= 0.64
    inner = 0.365 <= u <= 0.635 and 0.42 <= v <= 0.58
    stroke = 0.465 <= u <= 0.535 and 0.2 <= v <= 0.8
    return RED if (box and not inner) or stroke else TILE


def pixels(size: int, scale: float) -> bytes:
    rows = bytearray()
    n = SAMPLES * SAMPLES
    for py in range(size):
        rows.append(0)  # filter: none
        for px in range(size):
            r = g = b = 0
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    c = colour_at(
                        (px + (sx + 0.5) / SAMPLES) / size,
                        (py + (sy + 0.5) / SAMPLES) / size,
                        scale,
                    )
                    r, g, b = r + c[0], g + c[1], b + c[2]
            rows += bytes((round(r / n), round(g / n), round(b / n)))
    return bytes(rows)


def png(size: int, scale: float) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(pixels(size, scale), 9))
        + chunk(b"IEND", b"")
    )


#: file name -> (pixels per side, tile scale): the maskable one within the safe circle.
ICONS = {
    "icon-192.png": (192, 1.0),
    "icon-512.png": (512, 1.0),
    "icon-maskable-512.png": (512, 0.72),
    "apple-touch-icon.png": (180, 0.9),
}


def main() -> None:
    for name, (size, scale) in ICONS.items():
        (WEB / name).write_bytes(png(size, scale))
        print(f"wrote web/{name}")


if __name__ == "__main__":
    main()
