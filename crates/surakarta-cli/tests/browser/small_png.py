"""Makes a screenshot small for the documents: a PNG of at most 256
colours (indexed), in pure Python (zlib only), so the pictures in docs/ stay
a few tens of KB. Not a test (pytest does not collect it)."""

import struct
import zlib


def _chunks(data):
    pos = 8
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        yield kind, data[pos + 8:pos + 8 + length]
        pos += 12 + length


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def decode_rgb(data):
    """(width, height, rows of RGB bytes) of an 8-bit RGB or RGBA PNG (as Chromium writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    idat = b""
    for kind, body in _chunks(data):
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), "an 8-bit RGB or RGBA PNG"
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows = []
    prev = bytearray(stride)
    pos = 0
    for _ in range(height):
        f = raw[pos]
        line = bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif f == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                up_left = prev[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + _paeth(left, prev[i], up_left)) & 255
        prev = line
        if bpp == 4:
            rgb = bytearray(width * 3)
            rgb[0::3], rgb[1::3], rgb[2::3] = line[0::4], line[1::4], line[2::4]
            rows.append(bytes(rgb))
        else:
            rows.append(bytes(line))
    return width, height, rows


def quantize(png_bytes, colours=128):
    """The picture as an indexed PNG of at most `colours` colours: the most
    frequent colours (pixels grouped by their top 4 bits a channel, each
    group's mean colour) with every pixel mapped to its nearest."""
    width, height, rows = decode_rgb(png_bytes)
    counts = {}
    sums = {}
    for row in rows:
        for i in range(0, len(row), 3):
            r, g, b = row[i], row[i + 1], row[i + 2]
            key = (r >> 4, g >> 4, b >> 4)
            counts[key] = counts.get(key, 0) + 1
            acc = sums.get(key)
            if acc is None:
                sums[key] = [r, g, b]
            else:
                acc[0] += r
                acc[1] += g
                acc[2] += b
    # Each bucket's colour is the mean of its pixels (not its corner).
    mean = {k: tuple(round(v / counts[k]) for v in sums[k]) for k in counts}
    top = sorted(counts, key=counts.get, reverse=True)[:colours]
    palette = [mean[k] for k in top]
    nearest = {}
    for key in counts:
        r, g, b = mean[key]
        nearest[key] = min(range(len(palette)), key=lambda j: (palette[j][0] - r) ** 2
                           + (palette[j][1] - g) ** 2 + (palette[j][2] - b) ** 2)
    raw = bytearray()
    for row in rows:
        raw.append(0)
        raw.extend(nearest[(row[i] >> 4, row[i + 1] >> 4, row[i + 2] >> 4)] for i in range(0, len(row), 3))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0))
            + chunk(b"PLTE", bytes(c for p in palette for c in p))
            + chunk(b"IDAT", zlib.compress(bytes(raw), 9))
            + chunk(b"IEND", b""))
