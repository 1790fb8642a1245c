#!/usr/bin/env python3
"""Compare pprof-c's disasm with the references (tests/golden/disasm/README.md).

usage: compare.py OURS GOPPROF OBJDUMP [--intel]

OURS     pprof-c disasm's output
GOPPROF  go tool pprof -disasm's output on the same binary and profile:
         the Total line, the ROUTINE names and their flat/cum lines, each
         instruction's address and flat and cum values
OBJDUMP  objdump -d --no-show-raw-insn (-M suffix, or -M intel) of each
         routine's [start, start + size): the instruction addresses and
         their text

Every line that differs is printed; exit status 1 if any does.
"""
import re
import sys

INSN = re.compile(r'^ *(\S+) +(\S+) +([0-9a-f]+): (.*)$')
LOC = re.compile(r'^ {74};')


def parse_report(path, strip_loc):
    """Total line, then routines: [name, header, [(addr, flat, cum, text)]]."""
    total, routines = None, []
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('Total: '):
                total = line
            elif line.startswith('ROUTINE ======================== '):
                routines.append([line[33:], None, []])
            elif routines and routines[-1][1] is None:
                routines[-1][1] = line
            elif LOC.match(line):
                continue
            else:
                m = INSN.match(line)
                if not m:
                    continue
                text = m.group(4)
                if strip_loc:
                    # pprof's layout: the location after ';' at column 40
                    # of the instruction, or none
                    i = text.find(';')
                    if i >= 0 and len(text[:i]) >= 40:
                        text = text[:i]
                routines[-1][2].append((int(m.group(3), 16), m.group(1),
                                        m.group(2), text.rstrip()))
    return total, routines


def parse_objdump(path):
    """{routine start: [(addr, text)]} from objdump -d output."""
    out, cur = {}, None
    head = re.compile(r'^([0-9a-f]+) <.*>:$')
    insn = re.compile(r'^ *([0-9a-f]+):\t(.*)$')
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            m = head.match(line)
            if m:
                cur = out.setdefault(int(m.group(1), 16), [])
                continue
            m = insn.match(line)
            if m and cur is not None:
                cur.append((int(m.group(1), 16), m.group(2)))
    return out


NUM = re.compile(r'(?<![%\w])(-?)(0x[0-9a-fA-F]+|\d+)\b')


def number(m):
    v = int(m.group(2), 0)
    return '%s0x%x' % (m.group(1), v)


def normalise(text, intel):
    """The spelling differences README.md lists, and nothing else."""
    t = text.strip()
    # 1. objdump's annotation of a branch or call target: "<sym+0x6b>"
    t = re.sub(r' *<[^>]*>$', '', t)
    # 2. a comment objdump adds ("# 0x4c0 <x>", "# imm = ...")
    t = re.sub(r'\s+#.*$', '', t)
    # 3. objdump writes a branch or call target as bare hex: "jle 140b"
    t = re.sub(r'^(\S+\s+)([0-9a-f]+)$', r'\g<1>0x\2', t)
    if intel:
        # 7. Intel: size keywords in lower case
        t = re.sub(r'\b(BYTE|WORD|DWORD|QWORD|TBYTE|XMMWORD|YMMWORD|ZMMWORD|PTR)\b',
                   lambda m: m.group(1).lower(), t)
    # 4. whitespace: one space after the mnemonic, none elsewhere
    parts = t.split(None, 1)
    t = parts[0] + (' ' + re.sub(r'\s+', '', parts[1]) if len(parts) > 1 else '')
    # 5. numbers by value: capstone writes small ones in decimal, and
    # negative immediates with a minus where objdump writes the two's
    # complement at the operand's size (the mnemonic's suffix)
    t = NUM.sub(number, t)
    width = {'b': 8, 'w': 16, 'l': 32, 'q': 64}.get(t.split(' ')[0][-1:])
    if width and not intel:
        t = re.sub(r'\$-0x([0-9a-f]+)',
                   lambda m: '$0x%x' % ((1 << width) - int(m.group(1), 16)), t)
    # 6. names of the same instruction: objdump's jmpq for a direct jmp
    # (-M suffix), xchg %ax,%ax for the two-byte nop (66 90), bswap
    # without the suffix, a shift by one with its count implied
    t = re.sub(r'^(jmp|call)q 0x', r'\1 0x', t)
    t = re.sub(r'^(jmp|call)q 0x', r'\1 0x', t)
    if t in ('xchgw %ax,%ax', 'xchg ax,ax'):
        t = 'nop'
    t = re.sub(r'^bswap([lq])? ', 'bswap ', t)
    t = re.sub(r'^(sh[lr]|sa[lr]|ro[lr]|rc[lr])([bwlq]?) \$0x1,', r'\1\2 ', t)
    if intel:
        # 8. Intel: a negative displacement as the two's complement
        t = re.sub(r'\+0x([89a-f][0-9a-f]{15})\]',
                   lambda m: '-0x%x]' % ((1 << 64) - int(m.group(1), 16)), t)
        # 5. Intel: a negative immediate as the two's complement at 32 or
        # 64 bits, and (8.) a segment's absolute address without brackets
        t = re.sub(r',0x([89a-f][0-9a-f]{7}|[89a-f][0-9a-f]{15})$',
                   lambda m: ',-0x%x' % ((1 << (4 * len(m.group(1)))) -
                                         int(m.group(1), 16)), t)
        t = re.sub(r'([cdefgs]s):\[(0x[0-9a-f]+)\]', r'\1:\2', t)
        # 9. Intel: a scale of 1 and a zero displacement left out
        t = t.replace('*0x1]', ']').replace('*0x1+', '+').replace('*0x1-', '-')
        t = re.sub(r'\+0x0\]', ']', t)
    else:
        # 7. AT&T: a scale of 1 and a zero displacement left out
        t = re.sub(r',0x1\)', ')', t)
        t = re.sub(r'(^|[ ,:])0x0\(', r'\1(', t)
    return t


UNITS = {'ns': 1e-9, 'us': 1e-6, 'ms': 1e-3, 's': 1, 'mins': 60, 'hrs': 3600,
         'B': 1, 'kB': 1024, 'MB': 1024 ** 2, 'GB': 1024 ** 3, 'TB': 1024 ** 4}


def value(s):
    if s == '.':
        return 0.0
    m = re.match(r'^(-?[0-9.]+)([a-zA-Z]*)$', s)
    return float(m.group(1)) * UNITS.get(m.group(2), 1)


def header_less(ours, last, go, gtail):
    """ours's flat and cum less its last instruction's equal go's less its
    instructions from there on (as rounded for print)."""
    o, g = ours.split(), go.split()
    for i in (0, 1):
        want = value(g[i]) - sum(value(t[1 + i]) for t in gtail)
        got = value(o[i]) - value(last[1 + i])
        if abs(want - got) > 0.01 * abs(want) + 1e-12:
            return False
    return True


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    intel = '--intel' in sys.argv
    ours_total, ours = parse_report(args[0], True)
    go_total, gos = parse_report(args[1], True)
    dumps = parse_objdump(args[2])
    bad = []
    if ours_total != go_total:
        bad.append('Total: %r, go tool pprof %r' % (ours_total, go_total))
    if [r[0] for r in ours] != [r[0] for r in gos]:
        bad.append('routines %s, go tool pprof %s' %
                   ([r[0] for r in ours], [r[0] for r in gos]))
    for o, g in zip(ours, gos):
        name = o[0]
        # Go's pprof decodes [start, start + size - 1): the last
        # instruction is cut off, missing (one byte long: ret, int3) or
        # shown as "?" and its bytes' garbage, and the samples of the last
        # byte are left out. Go's listing is compared up to the start of
        # the last instruction; the headers may differ by what lies there.
        last = o[2][-1][0] if o[2] else 0
        gtail = [i for i in g[2] if i[0] >= last]
        ghead = [i for i in g[2] if i[0] < last]
        if o[1] != g[1] and not header_less(o[1], o[2][-1], g[1], gtail):
            bad.append('%s: %r, go tool pprof %r' % (name, o[1], g[1]))
        start = o[2][0][0] if o[2] else None
        dump = dumps.get(start)
        if dump is None:
            bad.append('%s: no objdump listing at %x' % (name, start or 0))
            continue
        oa = [i[0] for i in o[2]]
        if oa != [d[0] for d in dump]:
            bad.append('%s: addresses differ from objdump\'s' % name)
        if oa[:-1] != [i[0] for i in ghead]:
            bad.append('%s: addresses differ from go tool pprof\'s' % name)
        for oi, gi in zip(o[2], ghead):
            if oi[1:3] != gi[1:3]:
                bad.append('%s: %x: flat, cum %s %s, go tool pprof %s %s' %
                           (name, oi[0], oi[1], oi[2], gi[1], gi[2]))
        for oi, (_, dt) in zip(o[2], dump):
            a, b = normalise(oi[3], intel), normalise(dt, intel)
            if a != b:
                bad.append('%s: %x: %r, objdump %r' % (name, oi[0], oi[3], dt))
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
