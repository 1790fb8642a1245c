#!/usr/bin/env python3
"""Compare pprof-c's DOT output with `go tool pprof -dot`'s.

    dotcheck.py GOLDEN OURS

Both are split into statements: the legend, nodes (N1, N1_0 nodelets) and
edges (N1 -> N2), each with its attributes. The check: the same set of
nodes with the same attributes (label, id, fontsize, shape, tooltip,
colours), the same set of edges with the same attributes (label = value
and "(inline)", weight, penwidth, colour, tooltips, dotted style, minlen),
and the same legend. The one allowance: the legend's "Time:" line, which Go
1.19 prints as "Jan 2, 2006 at 3:04pm (MST)" and pprof-c as
"2006-01-02 15:04:05 MST", is compared at the minute. Order of statements
is not compared. Prints the differences; exit status 1 if any.

    dotcheck.py --tree GOLDEN OURS

For call trees (-call_tree), whose node numbers pprof itself deals out at
random among nodes of equal weight and name (its tree nodes come from a
map, sorted by an unstable sort): each node is named by its path of
labels from its root instead of its number (nodelets by their node's path
and their own label), so the check is the same tree with the same nodes,
edges and attributes, whatever the numbering. One allowance there: with
-base or -diff_base, pprof's tree keeps edges into nodes worth exactly
zero, which its graph leaves out, and prints them as edges to a node "N0"
that does not exist (several times over); pprof-c leaves them out, so
they are dropped from the golden.
"""
import re
import sys

MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()


def canonical_time(text):
    def go(m):
        mon, day, year, h, mi, ampm, zone = m.groups()
        h = int(h) % 12 + (12 if ampm == "pm" else 0)
        return "Time: %s-%02d-%02d %02d:%s %s" % (year, MONTHS.index(mon) + 1, int(day), h, mi, zone)

    text = re.sub(r"Time: ([A-Z][a-z]{2}) (\d+), (\d+) at (\d+):(\d\d)([ap]m) \(([^)]*)\)", go, text)
    return re.sub(r"Time: (\d{4}-\d\d-\d\d \d\d:\d\d):\d\d (\S+?)(?=\\l)", r"Time: \1 \2", text)


def statements(path):
    nodes, edges, other = {}, {}, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = canonical_time(line.rstrip("\n"))
            m = re.match(r"^(N?N[0-9_]+) -> (N?N[0-9_]+) \[(.*)\]$", line)
            if m:
                key = (m.group(1), m.group(2))
                if key in edges:
                    other.append("duplicate edge " + line)
                edges[key] = m.group(3)
                continue
            m = re.match(r"^(N?N[0-9_]+) \[(.*)\]$", line)
            if m:
                if m.group(1) in nodes:
                    other.append("duplicate node " + line)
                nodes[m.group(1)] = m.group(2)
                continue
            other.append(line)
    return nodes, edges, other


def tree_names(nodes, edges):
    """Node id -> the labels on its path from the root, for call trees."""
    label = {}
    for n, attrs in nodes.items():
        m = re.search(r'label ?= ?"((?:[^"\\]|\\.)*)"', attrs)
        label[n] = m.group(1) if m else attrs
    parent = {}
    for (src, dst) in edges:
        if "_" not in dst:
            parent[dst] = src
    names, seen = {}, {}
    for n in nodes:
        if "_" in n:
            continue
        path, at = [], n
        while at is not None and len(path) <= len(nodes):
            path.append(label.get(at, at))
            at = parent.get(at)
        name = " <- ".join(path)
        seen[name] = seen.get(name, 0) + 1
        names[n] = name if seen[name] == 1 else "%s #%d" % (name, seen[name])
    for n in nodes:
        if "_" in n:
            owner = re.match(r"^N?(N[0-9]+)_", n).group(1)
            kind = "NN" if n.startswith("NN") else "N"
            names[n] = "%s / %s %s" % (names.get(owner, owner), kind, label[n])
    return names


def renamed(nodes, edges):
    names = tree_names(nodes, edges)
    strip = lambda a: re.sub(r'id="(node[0-9]+|N?N[0-9]+_[0-9]+)"', 'id="?"', a)
    return ({names[n]: strip(a) for n, a in nodes.items()},
            {(names.get(s, s), names.get(d, d)): a for (s, d), a in edges.items()})


def compare(kind, want, got):
    bad = 0
    for k in sorted(set(want) - set(got), key=str):
        print("missing %s %s [%s]" % (kind, k, want[k]))
        bad += 1
    for k in sorted(set(got) - set(want), key=str):
        print("extra %s %s [%s]" % (kind, k, got[k]))
        bad += 1
    for k in sorted(set(want) & set(got), key=str):
        if want[k] != got[k]:
            print("%s %s differs:\n  want [%s]\n  got  [%s]" % (kind, k, want[k], got[k]))
            bad += 1
    return bad


def main():
    args = sys.argv[1:]
    tree = args[0] == "--tree"
    if tree:
        args = args[1:]
    wn, we, wo = statements(args[0])
    gn, ge, go = statements(args[1])
    if tree:
        we = {k: v for k, v in we.items() if k[1] != "N0"}
        wo = [o for o in wo if not re.match(r"^duplicate edge N[0-9]+ -> N0 ", o)]
        wn, we = renamed(wn, we)
        gn, ge = renamed(gn, ge)
    bad = compare("node", wn, gn) + compare("edge", we, ge)
    if sorted(wo) != sorted(go):
        print("legend or framing differs:\n  want %s\n  got  %s" % (wo, go))
        bad += 1
    if bad:
        print("%d differences (%d nodes, %d edges wanted)" % (bad, len(wn), len(we)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
