"""Ours ÷ thumbor from the figures scripts/bulk/server-bench-lib.sh's `report` writes, one line a
server and run: NAME COLD_RPS CACHED_RPS RSS_MIB ALL_PROCESSES_RSS_MIB CPU_SECONDS..., where
NAME is `ours-RUN` or `theirs-RUN`, or `ours-GROUP-RUN` / `theirs-GROUP-RUN` (a group is, say,
a source format).
Prints each group's paired cold and cached ratios (minimum, median, maximum), names the runs
where thumbor ran on one core (its second-busiest process did under a quarter of the busiest
one's cold work: one worker took every connection) and gives the ratios again without them.
With --table, prints instead one Markdown row a group, with each side's CPU seconds in the
cold phase (all its processes) and their ratio, thumbor's over ours: the work each did for
the same requests, whether or not thumbor used both cores; --requests N adds the
milliseconds a request. For scripts/benchmark-server.sh and scripts/benchmark-formats.sh;
benchmarks only."""
import statistics
import sys


def load(path):
    groups, one_core = {}, {}
    for line in open(path):
        name, cold, cached, rss, all_rss, *cpu = line.split()
        side, rest = name.split("-", 1)
        group, run = rest.rsplit("-", 1) if "-" in rest else ("", rest)
        cpu_total = sum(float(seconds) for seconds in cpu)
        groups.setdefault(group, {}).setdefault(run, {})[side] = (float(cold), float(cached), int(rss), int(all_rss), cpu_total)
        busiest = sorted((float(seconds) for seconds in cpu), reverse=True)
        if side == "theirs" and len(busiest) >= 2 and busiest[1] < 0.25 * busiest[0]:
            one_core.setdefault(group, set()).add(run)
    return groups, one_core


def ratios(rows, index, runs):
    return sorted(rows[run]["ours"][index] / rows[run]["theirs"][index] for run in runs if "theirs" in rows[run])


def summary(prefix, label, index, rows, runs):
    values = ratios(rows, index, runs)
    if not values:
        print(f"{prefix}{label}: no paired run left")
    else:
        print(f"{prefix}{label} req/s, ours / thumbor over {len(values)} paired runs: "
              f"min {values[0]:.2f}, median {statistics.median(values):.2f}, max {values[-1]:.2f}")


def text(groups, one_core):
    for group, rows in groups.items():
        prefix = f"{group}: " if group else ""
        if not any("theirs" in sides for sides in rows.values()):
            print(f"{prefix}ours alone, no ratios")
            continue
        for index, label in ((0, "cold"), (1, "cached")):
            summary(prefix, label, index, rows, rows)
        if group in one_core:
            print(f"{prefix}thumbor ran on one core (one worker took every connection) in run(s) "
                  f"{', '.join(sorted(one_core[group]))}; the same ratios over the runs where both of its workers worked:")
            for index, label in ((0, "cold"), (1, "cached")):
                summary(prefix, label, index, rows, [run for run in rows if run not in one_core[group]])


def table(groups, one_core):
    def spread(values):
        if not values:
            return "—"
        middle = f"{statistics.median(values):.2f}"
        return f"{middle}×" if len(values) == 1 else f"{values[0]:.2f}–{middle}–{values[-1]:.2f}×"

    def side_figure(rows, side, index, pick):
        values = [rows[run][side][index] for run in rows if side in rows[run]]
        return pick(values) if values else None

    requests = int(sys.argv[sys.argv.index("--requests") + 1]) if "--requests" in sys.argv else None

    def cpu_figure(rows):
        runs = [run for run in rows if "theirs" in rows[run] and rows[run]["ours"][4] > 0]
        if not runs:
            return "—"
        ours = statistics.median(rows[run]["ours"][4] for run in runs)
        theirs = statistics.median(rows[run]["theirs"][4] for run in runs)
        work = spread(sorted(rows[run]["theirs"][4] / rows[run]["ours"][4] for run in runs))
        if requests:
            return f"{ours / requests * 1000:.0f} / {theirs / requests * 1000:.0f} ms ({work})"
        return f"{ours:.1f} / {theirs:.1f} s ({work})"

    print("| format | ours cold req/s (median) | thumbor cold req/s (median) "
          "| cold ratio (min–median–max) | cold CPU ours / thumbor (thumbor's ÷ ours) "
          "| cached ratio (min–median–max) | peak RSS ours / thumbor (thumbor's processes summed) |")
    print("|---|---|---|---|---|---|---|")
    for group, rows in groups.items():
        ours_cold = side_figure(rows, "ours", 0, statistics.median)
        theirs_cold = side_figure(rows, "theirs", 0, statistics.median)
        ours_rss = side_figure(rows, "ours", 2, max)
        theirs_rss = side_figure(rows, "theirs", 2, max)
        theirs_all_rss = side_figure(rows, "theirs", 3, max)
        print(f"| {group or 'all'} | {ours_cold:.1f} | "
              f"{'—' if theirs_cold is None else f'{theirs_cold:.1f}'} | "
              f"{spread(ratios(rows, 0, rows))} | {cpu_figure(rows)} | {spread(ratios(rows, 1, rows))} | "
              f"{ours_rss} / {'—' if theirs_rss is None else f'{theirs_rss} ({theirs_all_rss})'} MiB |")
    for group, runs in one_core.items():
        print(f"\n{group or 'all'}: thumbor ran on one core in run(s) {', '.join(sorted(runs))}.")


groups, one_core = load(sys.argv[1])
(table if "--table" in sys.argv[2:] else text)(groups, one_core)
