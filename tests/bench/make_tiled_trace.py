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
    copy = 0
    with open(args.out, 'w', encoding='utf-8') as out:
        out.write('[')
        out.write(','.join(texts))
        while written < target:
            shift = copy * period
            chunk = []
            for e in body:
                e = dict(e)
                if 'ts' in e:
                    e['ts'] = shift_ts(e['ts'], shift)
                m = STEP.match(str(e.get('name', '')))
                if m:
                    e['name'] = f'ProfilerStep#{int(m.group(1)) + copy}'
                if 'id' in e:
                    if e.get('cat') == 'async_npu':
                        e['id'] = int(e['id']) + shift  # the id is the kernel start in ns
                    elif isinstance(e['id'], str):
                        e['id'] = f"{e['id']}_{copy}"
                    else:
                        e['id'] = int(e['id']) + copy * 10_000_000
                if isinstance(e.get('args'), dict) and 'connection_id' in e['args']:
                    e['args'] = dict(e['args'])
                    e['args']['connection_id'] = int(e['args']['connection_id']) + copy * 10_000_000
                chunk.append(encode(e))
            text = ',' + ','.join(chunk)
            out.write(text)
            written += len(text.encode('utf-8'))
            copy += 1
        out.write(']')
    print(f'{args.out}: {copy} copies, {os.path.getsize(args.out)} bytes', file=sys.stderr)


if __name__ == '__main__':
    main()
