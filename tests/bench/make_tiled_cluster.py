#!/usr/bin/env python3
"""Builds a cluster of RANKS torch_npu rank folders, each with a tiled real trace (issue 18, item 9).

Every rank folder ROOT/rank_<r>_ascend_pt holds profiler_info_<r>.json, ASCEND_PROFILER_OUTPUT/
trace_view.json and a step_trace_time.csv. The trace is the real step of --input (default the alexnet
level1 rank0 trace_view.json) repeated until it reaches --size bytes, as make_tiled_trace.py does, with
per-rank perturbations: the whole rank is shifted by r * 1.013 µs (a rank's clock offset), and the
slowed rank (RANKS // 2 + 1) runs 30 % slower (every ts and dur after its copy's start scaled by 13/10,
in exact integer ns). The ranks' ProfilerStep numbers, flow and connection ids follow the copies.

usage: make_tiled_cluster.py ROOT [--ranks 128] [--size 12M] [--input trace_view.json]
"""
import argparse
import json
import os
import sys
from decimal import Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_tiled_trace import DEFAULT_INPUT, HOLE, SENTINEL, STEP, encode, parse_size, ts_ns  # noqa: E402


def dur_ns(value):
    return int(Decimal(value) * 1000)


def ns_text(ns):
    return f'{ns // 1000}.{ns % 1000:03d}'


def template(e):
    """(parts, fields) as in make_tiled_trace.template, with dur a field too (the slowed rank scales it)."""
    e = dict(e)
    fields = []

    def hole(kind, value):
        fields.append((kind, value))
        return SENTINEL.format(len(fields) - 1)
    if 'ts' in e:
        e['ts'] = hole('ts', (ts_ns(e['ts']), isinstance(e['ts'], str)))
    if 'dur' in e:
        e['dur'] = hole('dur', (dur_ns(e['dur']), isinstance(e['dur'], str)))
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
    pieces = HOLE.split(encode(e))
    order = [int(k) for k in pieces[1::2]]
    return pieces[0::2], [fields[k] for k in order]


def fill(t, copy, base, shift, slow):
    """One copy of an event: times shifted by `shift` ns; for the slowed rank stretched from `base`."""
    parts, fields = t
    if not fields:
        return parts[0]
    out = [parts[0]]
    for k, (kind, value) in enumerate(fields):
        if kind == 'ts':
            ns, text = value
            if slow:
                ns = base + (ns - base) * 13 // 10
            ns += shift
            out.append(f'"{ns_text(ns)}"' if text else ns_text(ns))
        elif kind == 'dur':
            ns, text = value
            if slow:
                ns = ns * 13 // 10
            out.append(f'"{ns_text(ns)}"' if text else ns_text(ns))
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


def write_rank(root, rank, slow, templates, meta_texts, base, period, target):
    folder = os.path.join(root, f'rank_{rank}_ascend_pt')
    out_dir = os.path.join(folder, 'ASCEND_PROFILER_OUTPUT')
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(folder, f'profiler_info_{rank}.json'), 'w') as f:
        f.write(json.dumps({'rank_id': rank}))
    written = sum(len(t.encode('utf-8')) + 1 for t in meta_texts)
    copies = 0
    trace = os.path.join(out_dir, 'trace_view.json')
    stretch = 13 / 10 if slow else 1
    with open(trace + '.tmp', 'w', encoding='utf-8') as out:
        out.write('[')
        out.write(','.join(meta_texts))
        while written < target:
            copy_base = base + int(copies * period * stretch)
            chunk = [fill(t, copies, base, copy_base - base + rank * 1013, slow) for t in templates]
            text = ',' + ','.join(chunk)
            out.write(text)
            written += len(text.encode('utf-8'))
            copies += 1
        out.write(']')
    os.replace(trace + '.tmp', trace)
    step_us = Decimal(period * stretch) / 1000 / Decimal(copies or 1)
    with open(os.path.join(out_dir, 'step_trace_time.csv'), 'w') as f:
        f.write('Device_id,Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,'
                'Bubble,Communication(Not Overlapped and Exclude Receive),Preparing\n')
        for c in range(copies):
            f.write(f'{rank % 8},{c + 1},{step_us * Decimal("0.6"):.3f},{step_us * Decimal("0.1"):.3f},0,'
                    f'{step_us * Decimal("0.1"):.3f},{step_us * Decimal("0.3"):.3f},{step_us:.3f},0,'
                    f'{step_us * Decimal("0.1"):.3f},0\n')
    return copies


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('root')
    ap.add_argument('--ranks', type=int, default=128)
    ap.add_argument('--size', default='12M')
    ap.add_argument('--input', default=DEFAULT_INPUT)
    args = ap.parse_args()
    target = parse_size(args.size)
    with open(args.input, encoding='utf-8') as f:
        events = json.load(f, parse_float=Decimal)
    meta = [e for e in events if e.get('ph') == 'M']
    body = [e for e in events if e.get('ph') != 'M']
    times = [ts_ns(e['ts']) for e in body if 'ts' in e]
    ends = [ts_ns(e['ts']) + dur_ns(e.get('dur', 0)) for e in body if 'ts' in e]
    base = min(times)
    period = max(ends) - base + 1_000_000  # 1 ms gap between copies
    meta_texts = [encode(e) for e in meta]
    templates = [template(e) for e in body]
    slow_rank = args.ranks // 2 + 1
    for rank in range(args.ranks):
        copies = write_rank(args.root, rank, rank == slow_rank, templates, meta_texts, base, period, target)
        if rank == 0:
            print(f'{args.root}: {args.ranks} ranks x {copies} copies (rank {slow_rank} slowed)', file=sys.stderr)


if __name__ == '__main__':
    main()
