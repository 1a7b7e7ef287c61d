#!/usr/bin/env python3
"""Prints the closing-note table from the `kope eval --json` reports bench/suite_table.sh leaves in OUT.

Per task: the best shipped kernel (correct, highest geometric-mean speedup over the naive baseline), its
speedup over the naive baseline and over the library baseline (geometric means over all cases and over the
memory-bound cases; library ratios are of medians measured in separate runs), whether the library baseline
itself passes the fp64 golden, and the fraction of the memory-bound floor (hw_bound_ns / median, geometric mean
over the memory-bound cases) that the best kernel, the library and the naive baseline reach."""
import glob, json, math, os, sys


def geo(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def fx(v, unit="x"):
    return "-" if v is None else f"{v:.2f}{unit}"


def load(p):
    try:
        with open(p) as f:
            return json.load(f)
    except Exception:
        return None


def main():
    out = sys.argv[1]
    tasks = sys.argv[2:]
    rows = []
    for t in tasks:
        task = load(f"{out}/{t}.task.json")
        if not task:
            continue
        mem = {c["name"]: c.get("memory_bound", False) for c in task["cases"]}
        lib = load(f"{out}/{t}.library.json")
        best, best_g = None, None
        for p in sorted(glob.glob(f"{out}/{t}.kernel.*.json")):
            r = load(p)
            if not r or not r.get("correct"):
                continue
            g = r.get("speedup")
            if g and (best_g is None or g > best_g):
                best, best_g = r, g
        naive = best or lib

        def med(r, key="kernel_median_ns"):
            return {c["name"]: c.get(key) for c in (r or {}).get("cases", [])}

        names = [c["name"] for c in task["cases"]]
        mnames = [n for n in names if mem.get(n)]
        # The naive baseline's medians: since the library became the judge's baseline, baseline_median_ns is the
        # library's, so the naive one is naive_median_ns (reports older than that only have baseline_median_ns).
        nb = {n: v for n, v in med(naive, "naive_median_ns").items() if v}
        for n, v in med(naive, "baseline_median_ns").items():
            nb.setdefault(n, v)
        bk = med(best)
        lb = med(lib)
        hw = {c["name"]: c.get("hw_bound_ns") for c in (naive or {}).get("cases", [])}

        def ratio(a, b, which):
            return geo([a[n] / b[n] for n in which if a.get(n) and b.get(n)])

        def floor(m, which):
            return geo([hw[n] / m[n] for n in which if hw.get(n) and m.get(n)])

        lib_ok = None if not lib else ("yes" if lib.get("correct") else
                                       "no (" + ", ".join(c["name"] for c in lib["cases"] if not c["correct"]) + ")")
        if lib and not lib.get("compiled"):
            lib_ok = "did not build"
        rows.append([
            t, f"L{task['level']}", (best["kernel"]["name"].split("/")[-1] if best else "none correct"),
            f"{fx(ratio(nb, bk, names))} / {fx(ratio(nb, bk, mnames))}",
            f"{fx(ratio(nb, lb, names))} / {fx(ratio(nb, lb, mnames))}",
            f"{fx(ratio(lb, bk, names))} / {fx(ratio(lb, bk, mnames))}",
            lib_ok or "no library",
            f"{fx(floor(bk, mnames), '')} / {fx(floor(lb, mnames), '')} / {fx(floor(nb, mnames), '')}",
        ])
    head = ["task", "level", "best shipped kernel", "best vs naive (all / mem)", "library vs naive (all / mem)",
            "best vs library (all / mem)", "library correct", "floor fraction mem: best / library / naive"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        print("| " + " | ".join(r) + " |")


if __name__ == "__main__":
    main()
