#!/usr/bin/env python3
"""Prints the expected values of Tests/WebImageTests/PlaceholderTests.swift.

ThumbHash: a line-for-line port of evanw/thumbhash's JavaScript reference (doubles,
Math.round as floor(x + 0.5), decoded channels truncated as a Uint8Array stores them).
BlurHash: woltapp's own C implementation through its Python binding, blurhash-python.

    python3 -m venv /tmp/placeholders && /tmp/placeholders/bin/pip install blurhash-python pillow
    /tmp/placeholders/bin/python scripts/placeholder_reference.py

The tests do not run this script; it documents where their expected values come from.
"""
import base64
import math

import blurhash
from PIL import Image


def js_round(value):
    return math.floor(value + 0.5)


def gradient(width, height, alpha):
    """The fixture PlaceholderTests builds: integer gradients, optionally a transparent corner."""
    pixels = []
    for y in range(height):
        for x in range(width):
            red = x * 255 // (width - 1)
            green = y * 255 // (height - 1)
            blue = (x * 7 + y * 13) % 256
            opacity = 255
            if alpha:
                opacity = min(255, (x + y) * 255 // (width + height - 2) * 2)
            pixels += [red, green, blue, opacity]
    return pixels


def thumbhash_encode(w, h, rgba):
    avg_r = avg_g = avg_b = avg_a = 0.0
    for i in range(0, w * h * 4, 4):
        alpha = rgba[i + 3] / 255
        avg_r += alpha / 255 * rgba[i]
        avg_g += alpha / 255 * rgba[i + 1]
        avg_b += alpha / 255 * rgba[i + 2]
        avg_a += alpha
    if avg_a:
        avg_r /= avg_a
        avg_g /= avg_a
        avg_b /= avg_a
    has_alpha = avg_a < w * h
    l_limit = 5 if has_alpha else 7
    lx = max(1, js_round(l_limit * w / max(w, h)))
    ly = max(1, js_round(l_limit * h / max(w, h)))
    l, p, q, a = [], [], [], []
    for i in range(0, w * h * 4, 4):
        alpha = rgba[i + 3] / 255
        r = avg_r * (1 - alpha) + alpha / 255 * rgba[i]
        g = avg_g * (1 - alpha) + alpha / 255 * rgba[i + 1]
        b = avg_b * (1 - alpha) + alpha / 255 * rgba[i + 2]
        l.append((r + g + b) / 3)
        p.append((r + g) / 2 - b)
        q.append(r - g)
        a.append(alpha)

    def encode_channel(channel, nx, ny):
        dc, ac, scale = 0.0, [], 0.0
        fx = [0.0] * w
        for cy in range(ny):
            cx = 0
            while cx * ny < nx * (ny - cy):
                f = 0.0
                for x in range(w):
                    fx[x] = math.cos(math.pi / w * cx * (x + 0.5))
                for y in range(h):
                    fy = math.cos(math.pi / h * cy * (y + 0.5))
                    for x in range(w):
                        f += channel[x + y * w] * fx[x] * fy
                f /= w * h
                if cx or cy:
                    ac.append(f)
                    scale = max(scale, abs(f))
                else:
                    dc = f
                cx += 1
        if scale:
            ac = [0.5 + 0.5 / scale * value for value in ac]
        return dc, ac, scale

    l_dc, l_ac, l_scale = encode_channel(l, max(lx, 3), max(ly, 3))
    p_dc, p_ac, p_scale = encode_channel(p, 3, 3)
    q_dc, q_ac, q_scale = encode_channel(q, 3, 3)
    a_dc, a_ac, a_scale = encode_channel(a, 5, 5) if has_alpha else (1.0, [], 1.0)
    landscape = w > h
    header24 = (js_round(63 * l_dc) | js_round(31.5 + 31.5 * p_dc) << 6 | js_round(31.5 + 31.5 * q_dc) << 12
                | js_round(31 * l_scale) << 18 | int(has_alpha) << 23)
    header16 = ((ly if landscape else lx) | js_round(63 * p_scale) << 3 | js_round(63 * q_scale) << 9
                | int(landscape) << 15)
    hash_bytes = [header24 & 255, (header24 >> 8) & 255, header24 >> 16, header16 & 255, header16 >> 8]
    if has_alpha:
        hash_bytes.append(js_round(15 * a_dc) | js_round(15 * a_scale) << 4)
    odd = False
    for ac in [l_ac, p_ac, q_ac] + ([a_ac] if has_alpha else []):
        for f in ac:
            u = js_round(15 * f)
            if odd:
                hash_bytes[-1] |= u << 4
            else:
                hash_bytes.append(u)
            odd = not odd
    return bytes(hash_bytes)


def thumbhash_average(hash_bytes):
    header = hash_bytes[0] | hash_bytes[1] << 8 | hash_bytes[2] << 16
    l = (header & 63) / 63
    p = ((header >> 6) & 63) / 31.5 - 1
    q = ((header >> 12) & 63) / 31.5 - 1
    a = (hash_bytes[5] & 15) / 15 if header >> 23 else 1
    b = l - 2 / 3 * p
    r = (3 * l - b + q) / 2
    return [js_round(255 * min(1, max(0, value))) for value in (r, r - q, b, a)]


def thumbhash_decode(hash_bytes):
    header24 = hash_bytes[0] | hash_bytes[1] << 8 | hash_bytes[2] << 16
    header16 = hash_bytes[3] | hash_bytes[4] << 8
    l_dc = (header24 & 63) / 63
    p_dc = ((header24 >> 6) & 63) / 31.5 - 1
    q_dc = ((header24 >> 12) & 63) / 31.5 - 1
    l_scale = ((header24 >> 18) & 31) / 31
    has_alpha = header24 >> 23
    p_scale = ((header16 >> 3) & 63) / 63
    q_scale = ((header16 >> 9) & 63) / 63
    landscape = header16 >> 15
    lx = max(3, (5 if has_alpha else 7) if landscape else header16 & 7)
    ly = max(3, header16 & 7 if landscape else (5 if has_alpha else 7))
    a_dc = (hash_bytes[5] & 15) / 15 if has_alpha else 1
    a_scale = (hash_bytes[5] >> 4) / 15 if has_alpha else 1
    start = 6 if has_alpha else 5
    index = [0]

    def decode_channel(nx, ny, scale):
        ac = []
        for cy in range(ny):
            cx = 0 if cy else 1
            while cx * ny < nx * (ny - cy):
                byte = hash_bytes[start + (index[0] >> 1)]
                ac.append((((byte >> ((index[0] & 1) << 2)) & 15) / 7.5 - 1) * scale)
                index[0] += 1
                cx += 1
        return ac

    l_ac = decode_channel(lx, ly, l_scale)
    p_ac = decode_channel(3, 3, p_scale * 1.25)
    q_ac = decode_channel(3, 3, q_scale * 1.25)
    a_ac = decode_channel(5, 5, a_scale) if has_alpha else []
    ratio = (5 if has_alpha else 7) / (header16 & 7) if landscape else (header16 & 7) / (5 if has_alpha else 7)
    w = js_round(32 if ratio > 1 else 32 * ratio)
    h = js_round(32 / ratio if ratio > 1 else 32)
    rgba = []
    for y in range(h):
        for x in range(w):
            l, p, q, a = l_dc, p_dc, q_dc, a_dc
            fx = [math.cos(math.pi / w * (x + 0.5) * cx) for cx in range(max(lx, 5 if has_alpha else 3))]
            fy = [math.cos(math.pi / h * (y + 0.5) * cy) for cy in range(max(ly, 5 if has_alpha else 3))]
            j = 0
            for cy in range(ly):
                cx = 0 if cy else 1
                while cx * ly < lx * (ly - cy):
                    l += l_ac[j] * fx[cx] * fy[cy] * 2
                    j += 1
                    cx += 1
            j = 0
            for cy in range(3):
                cx = 0 if cy else 1
                while cx < 3 - cy:
                    f = fx[cx] * fy[cy] * 2
                    p += p_ac[j] * f
                    q += q_ac[j] * f
                    j += 1
                    cx += 1
            if has_alpha:
                j = 0
                for cy in range(5):
                    cx = 0 if cy else 1
                    while cx < 5 - cy:
                        a += a_ac[j] * fx[cx] * fy[cy] * 2
                        j += 1
                        cx += 1
            b = l - 2 / 3 * p
            r = (3 * l - b + q) / 2
            g = r - q
            rgba += [int(max(0, 255 * min(1, value))) for value in (r, g, b, a)]
    return w, h, bytes(rgba)


def blurhash_encode(w, h, rgba, x_components, y_components):
    rgb = bytes(value for i, value in enumerate(rgba) if i % 4 != 3)
    return blurhash.encode(Image.frombytes("RGB", (w, h), rgb), x_components, y_components)


def blurhash_decode(hash_string, w, h, punch):
    return blurhash.decode(hash_string, w, h, punch, mode=blurhash.PixelMode.RGBA).tobytes()


def main():
    opaque = gradient(100, 75, alpha=False)
    clear = gradient(60, 90, alpha=True)
    for name, (w, h, pixels) in {"opaque 100x75": (100, 75, opaque), "alpha 60x90": (60, 90, clear)}.items():
        thumb = thumbhash_encode(w, h, pixels)
        dw, dh, decoded = thumbhash_decode(thumb)
        print(f"ThumbHash {name}: {base64.b64encode(thumb).decode()}, average {thumbhash_average(thumb)}")
        print(f"  decoded {dw}x{dh}: {base64.b64encode(decoded).decode()}")
    for components in [(4, 3), (1, 1), (9, 9), (3, 5)]:
        print(f"BlurHash opaque 100x75 {components}: {blurhash_encode(100, 75, opaque, *components)}")
    for hash_string, w, h, punch in [("LEHV6nWB2yk8pyo0adR*.7kCMdnj", 16, 12, 1), ("LGF5]+Yk^6#M@-5c,1J5@[or[Q6.", 12, 9, 2)]:
        decoded = blurhash_decode(hash_string, w, h, punch)
        print(f"BlurHash decode {hash_string} {w}x{h} punch {punch}: {base64.b64encode(decoded).decode()}")


if __name__ == "__main__":
    main()
