#!/usr/bin/env python3
"""Checks a DhtLoadTest report page as headless Chromium rendered it.

usage: report_page.py DOM.html SCREENSHOT.png FLAME_GRAPH...
  DOM.html     chromium --dump-dom of the page (after its scripts ran)
  SCREENSHOT   chromium --screenshot of the page
Checks: the DOM has the latency chart (an SVG with the run's curve and the baseline's), the
comparison table, and one framed flame graph per name given; the screenshot is not blank, and the
flame graphs' saturated colours cover a real area of it (they are drawn by the frames' scripts, on
canvas, so only the pixels show that they rendered). Exit 1 with the reasons otherwise.
"""
import re
import sys

from PIL import Image

dom_path, png_path, flames = sys.argv[1], sys.argv[2], sys.argv[3:]
dom = open(dom_path, encoding="utf-8", errors="replace").read()
problems = []
if not re.search(r"<svg[^>]*>.*<polyline[^>]*>.*</svg>", dom, re.S):
    problems.append("no latency chart (svg with a polyline)")
if 'id="baseline-curve"' not in dom:
    problems.append("no baseline curve in the chart")
if 'id="comparison"' not in dom:
    problems.append("no comparison table")
frames = re.findall(r'<iframe[^>]*src="([^"]+)"', dom)
missing = [f for f in flames if f not in frames]
if missing:
    problems.append("flame graphs not framed in the page: %s (frames: %s)" % (missing, frames))

img = Image.open(png_path).convert("RGB")
w, h = img.size
px = img.getdata()
total = w * h
ink = sum(1 for r, g, b in px if r < 235 or g < 235 or b < 235)
# async-profiler's palettes are saturated (greens for JIT-compiled Java, yellows for C++, reds for
# native, aqua for inlined); the rest of the page is black text on white and grey table lines
flame = sum(1 for r, g, b in px if max(r, g, b) - min(r, g, b) > 80)
print("    screenshot %dx%d: %.1f%% non-white, %d flame-coloured pixels" % (w, h, 100.0 * ink / total, flame))
if ink < 0.02 * total:
    problems.append("the screenshot is (nearly) blank: %.2f%% non-white" % (100.0 * ink / total))
if flames and flame < 12000:  # measured: ~30k with six frames drawn, ~1k without
    problems.append("too few flame-graph pixels in the screenshot (%d): the frames did not render" % flame)
if problems:
    sys.exit("; ".join(problems))
print("    rendered page: chart with baseline, comparison, %d flame graphs framed and drawn" % len(flames))
