#!/usr/bin/env python3
"""Check a speedscope file against the fields of speedscope's published
file-format schema (https://www.speedscope.app/file-format-schema.json),
for sampled profiles, and against what speedscope's importer accepts:
every weight positive (one negative weight fails the whole file).

    speedscope_check.py FILE [TOTAL]          one profile, weights summing to TOTAL
    speedscope_check.py FILE NAME=TOTAL...    these profiles, in this order
"""
import json
import sys

UNITS = {"none", "nanoseconds", "microseconds", "milliseconds", "seconds", "bytes"}


def fail(msg):
    print("speedscope_check: " + msg)
    sys.exit(1)


def check_profile(p, nframes, want):
    for k in ("type", "name", "unit", "startValue", "endValue", "samples", "weights"):
        if k not in p:
            fail("profile lacks %s" % k)
    if p["type"] != "sampled":
        fail("type is %r" % p["type"])
    if p["unit"] not in UNITS:
        fail("unit %r is not one of the schema's" % p["unit"])
    if len(p["samples"]) != len(p["weights"]):
        fail("%d samples but %d weights" % (len(p["samples"]), len(p["weights"])))
    for s in p["samples"]:
        if not s or any(not isinstance(x, int) or x < 0 or x >= nframes for x in s):
            fail("sample %r refers to a missing frame" % s)
    if any(not isinstance(w, (int, float)) or w <= 0 for w in p["weights"]):
        fail("a weight is not a positive number (speedscope refuses the file)")
    total = sum(p["weights"])
    if p["endValue"] - p["startValue"] != total:
        fail("endValue - startValue = %d, weights sum to %d" % (p["endValue"] - p["startValue"], total))
    if want is None:
        return
    name, _, value = want.rpartition("=")
    if "=" in want and p["name"] != name:
        fail("profile named %r, want %r" % (p["name"], name))
    if total != int(value):
        fail("profile %r: weights sum to %d, want %s" % (p["name"], total, value))


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        d = json.load(f)
    if d.get("$schema") != "https://www.speedscope.app/file-format-schema.json":
        fail("$schema is %r" % d.get("$schema"))
    frames = d.get("shared", {}).get("frames")
    if not isinstance(frames, list) or not frames:
        fail("shared.frames missing or empty")
    for i, fr in enumerate(frames):
        if not isinstance(fr.get("name"), str):
            fail("frame %d has no name" % i)
        if "file" in fr and not isinstance(fr["file"], str):
            fail("frame %d: file is not a string" % i)
        for k in ("line", "col"):
            if k in fr and not isinstance(fr[k], int):
                fail("frame %d: %s is not a number" % (i, k))
        extra = set(fr) - {"name", "file", "line", "col"}
        if extra:
            fail("frame %d: unknown fields %s" % (i, sorted(extra)))
    profiles = d.get("profiles")
    want = sys.argv[2:]
    if not isinstance(profiles, list) or not profiles:
        fail("no profiles")
    if not any("=" in w for w in want) and len(profiles) != 1:
        fail("want one profile, have %d" % len(profiles))
    if any("=" in w for w in want) and len(profiles) != len(want):
        fail("want %d profiles, have %d" % (len(want), len(profiles)))
    for i, p in enumerate(profiles):
        check_profile(p, len(frames), want[i] if i < len(want) else None)
    if not isinstance(d.get("activeProfileIndex", 0), int) or not \
            0 <= d.get("activeProfileIndex", 0) < len(profiles):
        fail("activeProfileIndex is not a profile's")
    if not isinstance(d.get("exporter", ""), str) or not isinstance(d.get("name", ""), str):
        fail("exporter/name are not strings")


if __name__ == "__main__":
    main()
