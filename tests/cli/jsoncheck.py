#!/usr/bin/env python3
"""Render pprof-c's -json output back into its text report and print it:
jsoncheck.py top|tree|traces|tags|flame < JSON. tests/cli/json.sh compares the result
with the text report of the same command and options, byte for byte (for
flame: with `folded`, line for line), so the JSON carries every number the
text shows, formatted the same way."""
import json
import sys

SEP = "----------------------------------------------------------+-------------"
LEGEND = "      flat  flat%   sum%        cum   cum%   calls calls% + context \t \t "


def pct(s):
    return s.rjust(6)


def top(d):
    out = list(d["labels"])
    out.append("%10s %5s%% %5s%% %10s %5s%%" % ("flat", "flat", "sum", "cum", "cum"))
    for r in d["rows"]:
        inl = " (%s)" % r["inline"] if r["inline"] else ""
        out.append("%10s %s %s %10s %s  %s%s" % (r["flat_str"], pct(r["flat_pct"]), pct(r["sum_pct"]),
                                                r["cum_str"], pct(r["cum_pct"]), r["name"], inl))
    return out


def tree(d):
    out = list(d["labels"]) + [SEP, LEGEND]
    for n in d["nodes"]:
        out.append(SEP)
        for e in n["callers"]:
            out.append("%50s %s |   %s%s" % (e["value_str"], pct(e["pct"]), e["name"], " (inline)" if e["inline"] else ""))
        out.append("%10s %s %s %10s %s                | %s" % (n["flat_str"], pct(n["flat_pct"]), pct(n["sum_pct"]),
                                                             n["cum_str"], pct(n["cum_pct"]), n["name"]))
        for e in n["callees"]:
            out.append("%50s %s |   %s%s" % (e["value_str"], pct(e["pct"]), e["name"], " (inline)" if e["inline"] else ""))
    if d["nodes"]:
        out.append(SEP)
    return out


def flame(d):
    fields = d["fields"]
    ix = {f: i for i, f in enumerate(fields)}
    path, out = [], []
    for n in d["nodes"]:
        depth = n[ix["depth"]]
        del path[depth:]
        path.append(d["names"][n[ix["name"]]])
        if depth > 0 and n[ix["self"]] != 0:
            out.append("%s %d" % (";".join(path[1:]), n[ix["self"]]))
    return sorted(out)


def traces(d):
    sep = "-----------+-------------------------------------------------------"
    out = list(d["labels"])
    for t in d["traces"]:
        out.append(sep)
        out.extend(t["labels"])
        out.extend(t["num_labels"])
        for i, f in enumerate(t["frames"]):
            name = f["name"] + (" (inline)" if f["inline"] else "")
            out.append(("%10s   " % t["value_str"] if i == 0 else " " * 13) + name)
    out.append(sep)
    return out


def tags(d):
    out = []
    for k in d["tags"]:
        w0 = len(k["key"]) + 1
        cells = [("%s (%s):" % (v["value_str"], pct(v["pct"]))) if k["total"] > 0 else v["value_str"] + ":"
                 for v in k["values"]]
        w1 = max([len(c) for c in cells] or [0])
        out.append("%*s: Total %s" % (w0, k["key"], k["total_str"]))
        for c, v in zip(cells, k["values"]):
            out.append("%*s%*s %s" % (w0 + 1, " ", w1 + 1, c, v["name"]))
        out.append("")
    return out


def main():
    d = json.load(sys.stdin)
    lines = {"top": top, "tree": tree, "flame": flame, "traces": traces, "tags": tags}[sys.argv[1]](d)
    sys.stdout.write("".join(l + "\n" for l in lines))


if __name__ == "__main__":
    main()
