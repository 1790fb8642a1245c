#!/usr/bin/env python3
"""Check pprof-c's folded output against `go tool pprof -traces`.

    foldedcheck.py TRACES_GOLDEN FOLDED_OUTPUT

The traces list every sample: label lines ("%10s:  value"), then the stack,
leaf first, the first line carrying the sample's value ("%10s   name", so a
value wider than 10 shifts the name). Stacks are reversed
to root-first, " (inline)" marks dropped, and values of equal stacks summed;
stacks whose values sum to zero are left out, as folded leaves them out.
The check: the same set of stacks, the same value for each, and the folded
values adding up to the total of the samples. Prints what differs; exit
status 1 if anything does.
"""
import re
import sys

SEP = "-----------+-------------------------------------------------------"


def parse_value(text):
    m = re.match(r"^(-?\d+)([A-Za-z]*)$", text)
    if not m:
        raise ValueError("value %r is not an exact integer (use -unit=ns/b)" % text)
    return int(m.group(1))


def traces(path):
    stacks, total = {}, 0
    with open(path, encoding="utf-8") as f:
        blocks = f.read().split(SEP + "\n")[1:]
    for b in blocks:
        frames, value = [], None
        for line in b.splitlines():
            if line.startswith(" " * 13):
                v, name = "", line[13:]
            elif re.match(r"^\s*\S+:  ", line):
                continue  # a label line
            else:
                v, _, name = line.lstrip().partition("   ")
            if name.endswith(" (inline)"):
                name = name[: -len(" (inline)")]
            if v:
                value = parse_value(v)
            frames.append(name.replace(";", ":"))
        if not frames:
            continue
        key = ";".join(reversed(frames))
        stacks[key] = stacks.get(key, 0) + value
        total += value
    return {k: v for k, v in stacks.items() if v != 0}, total


def folded(path):
    stacks, total = {}, 0
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            stack, sep, v = line.rpartition(" ")
            if not sep or not stack:
                raise ValueError("line %d is not 'stack value': %r" % (n, line))
            if stack in stacks:
                raise ValueError("line %d repeats a stack: %r" % (n, stack))
            stacks[stack] = int(v)
            total += int(v)
    return stacks, total


def main():
    want, want_total = traces(sys.argv[1])
    got, got_total = folded(sys.argv[2])
    bad = 0
    for k in sorted(set(want) - set(got)):
        print("missing stack: %s %d" % (k, want[k]))
        bad += 1
    for k in sorted(set(got) - set(want)):
        print("extra stack: %s %d" % (k, got[k]))
        bad += 1
    for k in sorted(set(got) & set(want)):
        if got[k] != want[k]:
            print("value differs: %s: got %d, want %d" % (k, got[k], want[k]))
            bad += 1
    if got_total != want_total:
        print("total differs: got %d, want %d" % (got_total, want_total))
        bad += 1
    if bad:
        print("%d differences (%d stacks wanted, %d got)" % (bad, len(want), len(got)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
