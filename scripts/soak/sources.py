"""The sources of scripts/soak-server.sh: photographs and hostile files on loopback.

Usage: sources.py FOLDER PORT. Makes the files in FOLDER, then serves them; /ready answers
once they are made, /missing.png answers 404, and /slow.png sends its headers and then one
byte every 2 s.
"""
import os
import random
import struct
import sys
import time
import zlib
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

from PIL import Image, ImageDraw, ImageFilter

PHOTOS = 60


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def grey_png(width, height):
    """A greyscale PNG of any shape, compressed a row at a time (a tall one never exists whole)."""
    compressor = zlib.compressobj(9)
    row = bytes(1 + width)
    body = b"".join(compressor.compress(row) for _ in range(height)) + compressor.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", body) + png_chunk(b"IEND", b"")


def make(folder):
    os.makedirs(folder, exist_ok=True)
    random.seed(39)
    base = Image.effect_noise((1200, 800), 40).convert("RGB").filter(ImageFilter.GaussianBlur(1))
    for index in range(PHOTOS):
        megapixels = random.uniform(1, 5)
        width = int((megapixels * 1e6 * 1.5) ** 0.5)
        height = int(width / 1.5)
        tint = Image.new("RGB", base.size, tuple(random.randrange(256) for _ in range(3)))
        picture = Image.blend(base, tint, 0.5).resize((width, height))
        ImageDraw.Draw(picture).ellipse((width // 3, height // 3, width // 2, height // 2), fill=(240, 200, 40))
        kind = ("jpg", "png", "webp")[index % 3]
        picture.save(os.path.join(folder, f"photo-{index}.{kind}"), quality=85)
    with open(os.path.join(folder, "tall.png"), "wb") as file:
        file.write(grey_png(1, 30_000_000))
    with open(os.path.join(folder, "wide.png"), "wb") as file:
        file.write(grey_png(30_000_000, 1))
    page = Image.new("L", (1, 1), 128)
    page.save(os.path.join(folder, "pages.tiff"), save_all=True, append_images=[page] * 999)
    with open(os.path.join(folder, "photo-0.jpg"), "rb") as file:
        photo = file.read()
    with open(os.path.join(folder, "truncated.jpg"), "wb") as file:
        file.write(photo[: len(photo) // 3])
    with open(os.path.join(folder, "not-an-image.png"), "wb") as file:
        file.write(b"<html>not an image</html>" * 40)


class Handler(SimpleHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/ready":
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif self.path == "/missing.png":
            self.send_error(404)
        elif self.path == "/slow.png":
            body = grey_png(64, 64)
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            try:
                for byte in body:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(2)
            except (BrokenPipeError, ConnectionResetError):
                pass
        else:
            super().do_GET()

    def log_message(self, *arguments):
        pass


if __name__ == "__main__":
    folder, port = sys.argv[1], int(sys.argv[2])
    make(folder)
    os.chdir(folder)
    ThreadingHTTPServer.daemon_threads = True
    ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
