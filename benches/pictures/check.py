"""Renders each SVG in a directory with headless Chromium and checks, sticker by
sticker, that the browser painted the fill the SVG gives it (sampled at the polygon's
centroid). Prints one line per file and exits 1 on any mismatch.

    python3 check.py DIR
"""
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

from PIL import Image

NS = "{http://www.w3.org/2000/svg}"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--force-device-scale-factor=1"]


def render(svg: Path, png: Path, w: int, h: int, profile: str) -> None:
    # An HTML page with the SVG at its natural size at the top left, no margin.
    page = png.with_suffix(".html")
    page.write_text(f'<html><body style="margin:0;background:#808081">'
                    f'<img src="{svg.resolve().as_uri()}"></body></html>')
    subprocess.run(["chromium", *FLAGS, f"--user-data-dir={profile}",
                    "--virtual-time-budget=3000", f"--screenshot={png}",
                    f"--window-size={max(w, 400)},{max(h, 300)}", page.as_uri()],
                   check=True, capture_output=True, timeout=120)


def check(svg: Path, profile: str) -> tuple[int, list[str]]:
    root = ET.parse(svg).getroot()
    w, h = int(float(root.get("width"))), int(float(root.get("height")))
    with tempfile.TemporaryDirectory() as d:
        png = Path(d) / "shot.png"
        render(svg, png, w, h, profile)
        img = Image.open(png).convert("RGB")
    bad, n = [], 0
    for poly in root.iter(NS + "polygon"):
        if poly.get("class") != "sticker":
            continue
        pts = [tuple(map(float, p.split(","))) for p in poly.get("points").split()]
        cx = sum(p[0] for p in pts) / len(pts)
        cy = sum(p[1] for p in pts) / len(pts)
        fill = poly.get("fill").lstrip("#")
        want = tuple(int(fill[i:i + 2], 16) for i in (0, 2, 4))
        got = img.getpixel((int(cx), int(cy)))
        n += 1
        # Text drawn on diagram cells may cover the centre: then look just above it.
        if max(abs(a - b) for a, b in zip(got, want)) > 3:
            got2 = img.getpixel((int(cx), int(cy) - 12))
            if max(abs(a - b) for a, b in zip(got2, want)) > 3:
                bad.append(f"{poly.get('id')}: painted {got}, fill {want}")
    # Bar charts: each bar tall enough to sample, at its centre.
    for rect in root.iter(NS + "rect"):
        x, y = float(rect.get("x")), float(rect.get("y"))
        rw, rh = float(rect.get("width")), float(rect.get("height"))
        if rh < 4:
            continue
        fill = rect.get("fill").lstrip("#")
        want = tuple(int(fill[i:i + 2], 16) for i in (0, 2, 4))
        got = img.getpixel((int(x + rw / 2), int(y + rh / 2)))
        n += 1
        if max(abs(a - b) for a, b in zip(got, want)) > 3:
            bad.append(f"{rect.get('id')}: painted {got}, fill {want}")
    return n, bad


def main() -> int:
    d = Path(sys.argv[1])
    failed = 0
    with tempfile.TemporaryDirectory() as profile:
        for svg in sorted(d.glob("*.svg")):
            n, bad = check(svg, profile)
            status = "ok" if not bad else f"{len(bad)} WRONG: {bad[:3]}"
            print(f"{svg.name:32} {n:4} shapes painted as their fill: {status}")
            failed += bool(bad)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
