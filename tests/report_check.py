#!/usr/bin/env python3
"""Checks of a --report page (spu-csim, spu-tb; docs/formats.md), standard
library only.

usage:
  tests/report_check.py html FILE [PLOT...]   the page is self-contained
      (no script, no URL, nothing fetched), its tags nest, every plot named
      (default: the six every report has) is there with bars, each plot's
      colours (data-ink) are its own
  tests/report_check.py bars FILE PLOT        the plot's bars, "label: count"
      per line (the bars' <title>s)
  tests/report_check.py png FILE.png FILE.html  a browser's screenshot of the
      page rendered: not blank, and each plot of the page has its colours'
      pixels (MIN_INK of them) in it
  tests/report_check.py selftest              the PNG reader on PNGs written
      here with every row filter, a plot's colours missing from one
Exit 0 when the check passes; else 1, saying why.
"""
import html.parser
import re
import struct
import sys
import zlib

PLOTS = ["intervals_log2", "intervals_linear", "latency", "filters", "op_types", "packets"]
FORBIDDEN = ["http", "<script", "src=", "url(", "@import", "<link", "<iframe", "<object", "<embed", "href="]
VOID = {"meta", "br", "hr", "img", "input", "link", "rect", "path", "line", "circle", "polyline"}
MIN_INK = 400       # pixels of a plot's colours in a screenshot (a legend's keys are 64 each)
TOLERANCE = 2       # per channel


class Page(html.parser.HTMLParser):
    """The tags' nesting, and the plots: their inks and bars."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.plots, self.cur = [], [], {}, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg" and "data-plot" in a:
            self.cur = a["data-plot"]
            self.plots[self.cur] = {"ink": a.get("data-ink", "").split(), "bars": 0}
        if tag == "rect" and self.cur and a.get("class") in ("bar", "seg"):
            if float(a.get("height", "0")) > 0 and float(a.get("width", "0")) > 0:
                self.plots[self.cur]["bars"] += 1
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else 'nothing'}>")
            return
        self.stack.pop()
        if tag == "svg":
            self.cur = None


def read_page(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    p = Page()
    p.feed(text)
    p.close()
    return text, p


def check_html(path, want):
    text, p = read_page(path)
    why = [f"'{w}' in the page (it must fetch and run nothing)" for w in FORBIDDEN if w in text.lower()]
    why += p.errors[:3]
    if p.stack:
        why.append(f"unclosed <{'> <'.join(p.stack)}>")
    if not text.startswith("<!DOCTYPE html>"):
        why.append("no <!DOCTYPE html>")
    for name in want:
        if name not in p.plots:
            why.append(f"no plot '{name}'")
        elif not p.plots[name]["bars"]:
            why.append(f"plot '{name}' has no bars")
    inks = [i for v in p.plots.values() for i in v["ink"]]
    if len(inks) != len(set(inks)):
        why.append(f"plots share a colour: {inks}")
    return why


def bars(path, plot):
    text, _ = read_page(path)
    m = re.search(r'<svg[^>]*data-plot="%s".*?</svg>' % re.escape(plot), text, re.S)
    if not m:
        return None
    return [html.unescape(t) for t in re.findall(r'<rect class="(?:bar|seg)"[^>]*><title>(.*?)</title>', m.group(0))]


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def unfilter(kind, line, prev, bpp):
    """One row of a PNG back from its filter (PNG spec, section 9)."""
    if kind == 0:
        return line
    if kind == 2:
        return bytearray((x + y) & 255 for x, y in zip(line, prev))
    out = bytearray(line)
    for i in range(len(out)):
        a = out[i - bpp] if i >= bpp else 0
        if kind == 1:
            out[i] = (out[i] + a) & 255
        elif kind == 3:
            out[i] = (out[i] + ((a + prev[i]) >> 1)) & 255
        else:
            out[i] = (out[i] + paeth(a, prev[i], prev[i - bpp] if i >= bpp else 0)) & 255
    return out


def read_png(path):
    """(width, height, rows of bytes, bytes per pixel) of an 8-bit RGB or RGBA PNG."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, hdr = 8, [], None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise ValueError(f"{path}: depth {depth}, colour type {ctype}, interlace {interlace}: not read here")
    bpp = 3 if ctype == 2 else 4
    raw, stride, rows, prev = zlib.decompress(b"".join(idat)), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        start = y * (stride + 1)
        prev = unfilter(raw[start], bytearray(raw[start + 1:start + 1 + stride]), prev, bpp)
        rows.append(bytes(prev))
    return w, h, rows, bpp


def ink_counts(path, inks):
    """Pixels that are not white, and per colour "#rrggbb" its pixels."""
    w, h, rows, bpp = read_png(path)
    want = {i: tuple(int(i[k:k + 2], 16) for k in (1, 3, 5)) for i in inks}
    counts = dict.fromkeys(inks, 0)
    ink = 0
    for row in rows:
        for x in range(0, w * bpp, bpp):
            r, g, b = row[x], row[x + 1], row[x + 2]
            if r > 250 and g > 250 and b > 250:
                continue
            ink += 1
            for name, (cr, cg, cb) in want.items():
                if abs(r - cr) <= TOLERANCE and abs(g - cg) <= TOLERANCE and abs(b - cb) <= TOLERANCE:
                    counts[name] += 1
    return ink, w * h, counts


def check_png(png, page):
    _, p = read_page(page)
    inks = [i for v in p.plots.values() for i in v["ink"]]
    ink, total, counts = ink_counts(png, inks)
    why = []
    if ink < total // 100:
        why.append(f"blank: {ink} of {total} pixels are not white")
    for name, v in p.plots.items():
        n = sum(counts[i] for i in v["ink"])
        if n < MIN_INK:
            why.append(f"plot '{name}': {n} pixels of its colours {' '.join(v['ink'])} (want {MIN_INK})")
    return why


def write_png(path, w, h, rects, bpp=3):
    """A white PNG with filled rects (x, y, w, h, "#rrggbb"), row filters 0..4 in turn."""
    img = [bytearray(b"\xff" * (w * bpp)) for _ in range(h)]
    for x0, y0, rw, rh, c in rects:
        px = bytes(int(c[k:k + 2], 16) for k in (1, 3, 5)) + (b"\xff" if bpp == 4 else b"")
        for y in range(y0, y0 + rh):
            img[y][x0 * bpp:(x0 + rw) * bpp] = px * rw
    out, prev = bytearray(), bytearray(w * bpp)
    for y, row in enumerate(img):
        kind = y % 5
        f = bytearray(len(row))
        for i in range(len(row)):
            a = row[i - bpp] if i >= bpp else 0
            c = prev[i - bpp] if i >= bpp else 0
            pred = [0, a, prev[i], (a + prev[i]) >> 1, paeth(a, prev[i], c)][kind]
            f[i] = (row[i] - pred) & 255
        out += bytes([kind]) + f
        prev = row

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2 if bpp == 3 else 6, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(bytes(out))) + chunk(b"IEND", b""))


def selftest(tmp):
    """The reader finds each plot's colours through every filter, RGB and
    RGBA; a plot whose bars are missing is reported."""
    page = f"{tmp}/selftest.html"
    with open(page, "w") as f:
        f.write('<!DOCTYPE html><html><body><svg data-plot="a" data-ink="#1f77b4"><rect class="bar" width="1" '
                'height="1"/></svg><svg data-plot="b" data-ink="#ff7f0e #2ca02c"><rect class="bar" width="1" '
                'height="1"/></svg></body></html>')
    why = []
    for bpp in (3, 4):
        full = [(10, 10, 30, 40, "#1f77b4"), (50, 5, 20, 20, "#ff7f0e"), (70, 5, 20, 20, "#2ca02c"),
                (0, 60, 120, 20, "#222222")]
        write_png(f"{tmp}/full.png", 120, 90, full, bpp)
        ink, _, counts = ink_counts(f"{tmp}/full.png", ["#1f77b4", "#ff7f0e", "#2ca02c"])
        if counts != {"#1f77b4": 1200, "#ff7f0e": 400, "#2ca02c": 400} or ink != 1200 + 800 + 2400:
            why.append(f"bpp {bpp}: counted {ink} ink, {counts}")
        if check_png(f"{tmp}/full.png", page):
            why.append(f"bpp {bpp}: the full picture fails: {check_png(f'{tmp}/full.png', page)}")
        write_png(f"{tmp}/empty.png", 120, 90, [r for r in full if r[4] != "#1f77b4"], bpp)
        if not any("plot 'a'" in w for w in check_png(f"{tmp}/empty.png", page)):
            why.append(f"bpp {bpp}: plot 'a' without its bars passes")
        write_png(f"{tmp}/blank.png", 120, 90, [], bpp)
        if not any("blank" in w for w in check_png(f"{tmp}/blank.png", page)):
            why.append(f"bpp {bpp}: a blank picture passes")
    return why


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    cmd, args = argv[1], argv[2:]
    if cmd == "html" and args:
        why = check_html(args[0], args[1:] or PLOTS)
    elif cmd == "bars" and len(args) == 2:
        b = bars(args[0], args[1])
        if b is None:
            sys.exit(f"{args[0]}: no plot '{args[1]}'")
        print("\n".join(b))
        return 0
    elif cmd == "png" and len(args) == 2:
        why = check_png(args[0], args[1])
    elif cmd == "selftest" and len(args) == 1:
        why = selftest(args[0])
    else:
        sys.exit(__doc__)
    for w in why:
        print(f"{cmd}: {w}")
    return 1 if why else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except (OSError, ValueError, zlib.error, struct.error) as e:
        sys.exit(f"report_check: {e}")
