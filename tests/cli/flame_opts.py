#!/usr/bin/env python3
"""Check a flame graph SVG against folded stacks.

    flame_opts.py frames SVG FOLDED [--reverse]
        every frame drawn (with -minwidth=0) is one distinct path of the
        folded stacks (leaf first with --reverse), with its value summed
    flame_opts.py row1 SVG
        print "NAME VALUE" for the frames on the row above the root
"""
import re
import sys

FRAME = re.compile(r'<g class="f"><title>(.*?) \(([^,]*), [^)]*\)</title>'
                   r'<rect x="([0-9.]+)" y="([0-9.]+)"')


def frames(svg):
    text = open(svg, encoding='utf-8').read()
    out = [(m.group(1), m.group(2), float(m.group(4)))
           for m in FRAME.finditer(text)]
    return out


def unescape(s):
    return (s.replace('&lt;', '<').replace('&gt;', '>')
            .replace('&quot;', '"').replace('&amp;', '&'))


def main():
    mode, svg = sys.argv[1], sys.argv[2]
    fr = frames(svg)
    root_y = fr[0][2]
    if mode == 'row1':
        for name, value, y in fr:
            if y == root_y - 16:
                print(unescape(name), value)
        return 0
    reverse = '--reverse' in sys.argv
    paths = set()
    for line in open(sys.argv[3], encoding='utf-8'):
        stack = line.rsplit(' ', 1)[0].split(';')
        if reverse:
            stack.reverse()
        for i in range(1, len(stack) + 1):
            paths.add(tuple(stack[:i]))
    drawn = len(fr) - 1  # the root
    if drawn != len(paths):
        print(f'{drawn} frames drawn, {len(paths)} distinct paths')
        return 1
    return 0


sys.exit(main())
