"""The baseline of scripts/benchmark-bulk.sh: what a Python user writes to download and
decode a list of images, with a disk cache.

aiohttp with 6 connections downloads every URL of the list; each body is written to a
file in the cache folder, as a disk cache would, and decoded by Pillow (`load()`) on a
pool of two threads. Prints the count of decoded images. For benchmarks only: the
project never depends on Python.
"""
import asyncio
import hashlib
import io
import os
import sys
from concurrent.futures import ThreadPoolExecutor

import aiohttp
from PIL import Image


def store_and_decode(folder, url, body):
    name = hashlib.md5(url.encode()).hexdigest()
    path = os.path.join(folder, name)
    with open(path + ".tmp", "wb") as file:
        file.write(body)
    os.rename(path + ".tmp", path)
    with Image.open(io.BytesIO(body)) as image:
        image.load()
        return image.size


async def main(list_path, folder):
    with open(list_path) as file:
        urls = [line.strip() for line in file if line.strip() and not line.startswith("#")]
    os.makedirs(folder, exist_ok=True)
    loop = asyncio.get_running_loop()
    decoders = ThreadPoolExecutor(max_workers=2)
    connector = aiohttp.TCPConnector(limit=6)
    decoded = 0

    async with aiohttp.ClientSession(connector=connector) as session:
        async def fetch(url):
            nonlocal decoded
            async with session.get(url) as response:
                body = await response.read()
            await loop.run_in_executor(decoders, store_and_decode, folder, url, body)
            decoded += 1

        await asyncio.gather(*(fetch(url) for url in urls))
    print(decoded)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
