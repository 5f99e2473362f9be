"""Requests every URL of a list once, N at a time (aiohttp), and prints the requests per
second and the 99th-percentile latency in milliseconds. Exits 1 if any answer is not 200,
after naming each such answer's status and the first line of its body.
For scripts/benchmark-server.sh; benchmarks only."""
import asyncio
import sys
import time

import aiohttp


async def main(list_path, concurrency):
    urls = [line.strip() for line in open(list_path) if line.strip()]
    latencies, failures = [], []
    queue = asyncio.Queue()
    for url in urls:
        queue.put_nowait(url)

    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=300)) as session:
        async def worker():
            while not queue.empty():
                url = queue.get_nowait()
                start = time.perf_counter()
                async with session.get(url) as response:
                    body = await response.read()
                    if response.status != 200:
                        first_line = body[:200].decode("utf-8", "replace").splitlines()[:1]
                        failures.append(f"{response.status} {first_line[0] if first_line else ''}: {url}")
                latencies.append(time.perf_counter() - start)

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.perf_counter() - start
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    print(f"{len(urls) / elapsed:.1f} {p99 * 1000:.0f}ms")
    if failures:
        print(f"{len(failures)} answers were not 200:", *failures, sep="\n  ", file=sys.stderr)
        sys.exit(1)


asyncio.run(main(sys.argv[1], int(sys.argv[2])))
