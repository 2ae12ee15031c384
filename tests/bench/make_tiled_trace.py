#!/usr/bin/env python3
"""Builds a large, realistic Chrome trace by tiling a real torch_npu step.

The input (by default the alexnet level1 rank0 trace_view.json from ../shared/samples) is repeated
K times until the output reaches --size bytes. Each copy is shifted in time by the span of the
original plus a gap (ts stays in the original's text form: 3-decimal strings stay strings),
ProfilerStep#N is renumbered, and flow ids and connection ids are made unique per copy (ids above
2^53 stay exact: they are handled as integers, never floats). Metadata (M) events are written once.

usage: make_tiled_trace.py --size 100M OUT.json [--input trace_view.json]
"""
import argparse
import json
import os
import re
import sys
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_INPUT = os.path.join(HERE, '..', '..', '..', 'shared', 'samples', 'msinsight_alexnet_1step_levels', 'test',
                             'data', 'pytorch', 'text', 'level1', 'rank0_ascend_pt', 'ASCEND_PROFILER_OUTPUT',
                             'trace_view.json')
STEP = re.compile(r'^ProfilerStep#(\d+)$')


def parse_size(text):
    m = re.fullmatch(r'(\d+)([KMG]?)', text.upper())
    if not m:
        raise SystemExit(f'bad size {text}')
    return int(m.group(1)) * {'': 1, 'K': 1 << 10, 'M': 1 << 20, 'G': 1 << 30}[m.group(2)]


def encode(value):
    """JSON text of a value, writing Decimals as their exact digits."""
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dict):
        return '{' + ','.join(json.dumps(k, ensure_ascii=False) + ':' + encode(v) for k, v in value.items()) + '}'
    if isinstance(value, list):
        return '[' + ','.join(encode(v) for v in value) + ']'
    return json.dumps(value, ensure_ascii=False)


def ts_ns(value):
    return int(Decimal(value) * 1000)


def shift_ts(value, shift_ns):
    if isinstance(value, str):
        if '.' in value:
            ns = ts_ns(value) + shift_ns
            return f'{ns // 1000}.{ns % 1000:03d}'
        return str(int(value) + shift_ns // 1000)
    return Decimal(value) + Decimal(shift_ns) / 1000


SENTINEL = '\x00@{}@\x00'
HOLE = re.compile(r'"\\u0000@(\d+)@\\u0000"')


def template(e):
    """(parts, fields): the event's text cut at the changing values, and how to make each value."""
    e = dict(e)
    fields = []

    def hole(kind, value):
        fields.append((kind, value))
        return SENTINEL.format(len(fields) - 1)
    if 'ts' in e:
        ts = e['ts']
        if isinstance(ts, str) and '.' in ts:
            e['ts'] = hole('ts_ns', ts_ns(ts))
        elif isinstance(ts, str):
            e['ts'] = hole('ts_int', int(ts))
        else:
            e['ts'] = hole('ts_num', Decimal(ts))
    m = STEP.match(str(e.get('name', '')))
    if m:
        e['name'] = hole('step', int(m.group(1)))
    if 'id' in e:
        if e.get('cat') == 'async_npu':
            e['id'] = hole('id_shift', int(e['id']))
        elif isinstance(e['id'], str):
            e['id'] = hole('id_str', e['id'])
        else:
            e['id'] = hole('id_int', int(e['id']))
    if isinstance(e.get('args'), dict) and 'connection_id' in e['args']:
        e['args'] = dict(e['args'])
        e['args']['connection_id'] = hole('id_int', int(e['args']['connection_id']))
    pieces = HOLE.split(encode(e))  # text, index, text, index, ..., text (in text order)
    order = [int(k) for k in pieces[1::2]]
    return pieces[0::2], [fields[k] for k in order]


def fill(t, copy, shift):
    parts, fields = t
    if not fields:
        return parts[0]
    out = [parts[0]]
    for k, (kind, value) in enumerate(fields):
        if kind == 'ts_ns':
            ns = value + shift
            out.append(f'"{ns // 1000}.{ns % 1000:03d}"')
        elif kind == 'ts_int':
            out.append(f'"{value + shift // 1000}"')
        elif kind == 'ts_num':
            out.append(str(value + Decimal(shift) / 1000))
        elif kind == 'step':
            out.append(json.dumps(f'ProfilerStep#{value + copy}'))
        elif kind == 'id_shift':
            out.append(str(value + shift))  # the id is the kernel start in ns
        elif kind == 'id_str':
            out.append(json.dumps(f'{value}_{copy}', ensure_ascii=False))
        else:
            out.append(str(value + copy * 10_000_000))
        out.append(parts[k + 1])
    return ''.join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('out')
    ap.add_argument('--size', default='100M')
    ap.add_argument('--input', default=DEFAULT_INPUT)
    args = ap.parse_args()
    target = parse_size(args.size)
    with open(args.input, encoding='utf-8') as f:
        events = json.load(f, parse_float=Decimal)
    meta = [e for e in events if e.get('ph') == 'M']
    body = [e for e in events if e.get('ph') != 'M']
    times = [ts_ns(e['ts']) for e in body if 'ts' in e]
    ends = [ts_ns(e['ts']) + int(Decimal(e.get('dur', 0)) * 1000) for e in body if 'ts' in e]
    period = max(ends) - min(times) + 1_000_000  # 1 ms gap between copies
    texts = [encode(e) for e in meta]
    written = sum(len(t.encode('utf-8')) + 1 for t in texts)
    # Each body event is encoded once as a template: its text split around the fields that change
    # per copy (ts, ProfilerStep#N, id, args.connection_id), so a copy costs a few formats per event.
    templates = [template(e) for e in body]
    copy = 0
    with open(args.out, 'w', encoding='utf-8') as out:
        out.write('[')
        out.write(','.join(texts))
        while written < target:
            shift = copy * period
            chunk = [fill(t, copy, shift) for t in templates]
            text = ',' + ','.join(chunk)
            out.write(text)
            written += len(text.encode('utf-8'))
            copy += 1
        out.write(']')
    print(f'{args.out}: {copy} copies, {os.path.getsize(args.out)} bytes', file=sys.stderr)


if __name__ == '__main__':
    main()
