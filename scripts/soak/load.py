"""The load of scripts/soak-server.sh: six clients without pause for a number of seconds.

Usage: load.py SERVER SOURCES SECONDS SERVER_PID BOUND_MIB. Prints the server's resident
memory every 30 s, then the statuses by kind and every well-formed request that did not
answer 200; exits 1 when one did not or when the peak passed BOUND_MIB.
"""
import collections
import http.client
import random
import sys
import threading
import time
import urllib.parse

CLIENTS = 6
HOSTILE = ["tall.png", "wide.png", "pages.tiff", "truncated.jpg", "not-an-image.png", "missing.png", "slow.png"]
SIGNED_SPECS = ["resize=300x300,fill|format=webp,q=80", "crop=300x300,smart", "resize=512|format=jpeg,q=80", "resize=16384x1,stretch"]
DOCUMENTED = {200, 304, 400, 403, 404, 413, 422, 502, 503, 504}


def memory(pid):
    values = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                values[key] = int(value.split()[0]) // 1024
    return values


def well_formed_spec(rng, index):
    width = rng.randrange(40, 1400)
    height = rng.randrange(40, 1400)
    steps = [rng.choice([f"resize={width}", f"resize={width}x{height}", f"resize={width}x{height},fill", f"crop={width}x{height},smart"])]
    if rng.random() < 0.15:
        steps.append(f"blur={rng.choice(['1', '2.5', '6'])}")
    steps.append(rng.choice(["format=jpeg", "format=webp", "format=png", "format=auto", "format=avif"]) + f",q={rng.randrange(50, 95)}")
    steps.append(f"cachebuster={index}")
    return "|".join(steps)


def main():
    server, sources, seconds, pid, bound = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    host = urllib.parse.urlparse(server)
    deadline = time.monotonic() + seconds
    lock = threading.Lock()
    statuses = collections.Counter()
    failures = []
    samples = []
    counter = iter(range(10**9))

    def client(seed):
        rng = random.Random(seed)
        connection = http.client.HTTPConnection(host.hostname, host.port, timeout=120)
        while time.monotonic() < deadline:
            with lock:
                index = next(counter)
            if rng.random() < 0.2:
                kind, name, spec = "hostile", rng.choice(HOSTILE), rng.choice(SIGNED_SPECS)
            else:
                extension = rng.choice(["jpg", "png", "webp"])
                photo = rng.randrange(20) * 3 + ["jpg", "png", "webp"].index(extension)
                kind, name, spec = "well-formed", f"photo-{photo}.{extension}", well_formed_spec(rng, index)
            path = "/_/" + urllib.parse.quote(spec, safe="") + "/plain/" + urllib.parse.quote(f"{sources}/{name}", safe="")
            try:
                connection.request("GET", path, headers={"Accept": "image/avif,image/webp,*/*"})
                response = connection.getresponse()
                response.read()
                status = response.status
            except (OSError, http.client.HTTPException) as error:
                connection.close()
                connection = http.client.HTTPConnection(host.hostname, host.port, timeout=120)
                status = f"no answer ({type(error).__name__})"
            with lock:
                statuses[(kind, status)] += 1
                if (kind == "well-formed" and status != 200) or (kind == "hostile" and status not in DOCUMENTED):
                    failures.append((kind, status, name, spec))

    threads = [threading.Thread(target=client, args=(seed,), daemon=True) for seed in range(CLIENTS)]
    start = time.monotonic()
    for thread in threads:
        thread.start()
    while time.monotonic() < deadline:
        time.sleep(min(30, max(0.1, deadline - time.monotonic() + 0.1)))
        try:
            sample = memory(pid)
        except FileNotFoundError:
            print("the server is gone")
            return 1
        with lock:
            answered = sum(statuses.values())
        samples.append(sample["VmRSS"])
        print(f"{time.monotonic() - start:6.0f} s  RSS {sample['VmRSS']:5d} MiB  peak {sample['VmHWM']:5d} MiB  {answered} answers", flush=True)
    for thread in threads:
        thread.join()  # the requests sent before the deadline are answered
    peak = memory(pid)["VmHWM"]
    print("statuses:")
    for (kind, status), count in sorted(statuses.items(), key=lambda item: (item[0][0], str(item[0][1]))):
        print(f"  {kind:12s} {status}: {count}")
    late = samples[len(samples) // 2:]
    print(f"peak RSS {peak} MiB (bound {bound} MiB); RSS over the second half {min(late)}–{max(late)} MiB")
    for failure in failures[:20]:
        print("  not as expected:", failure)
    print(f"{len(failures)} requests not as expected")
    return 1 if failures or peak > bound else 0


if __name__ == "__main__":
    sys.exit(main())
