#!/usr/bin/env python3
"""Builds a big torch_npu rank folder whose timeline is a kernel table: a real kernel_details.csv tiled.

The input (by default the Qwen3 rank 0 kernel_details.csv from ../shared/samples: 2,463 rows, 825 KB) is
repeated TILES times; each copy's "Start Time(us)" is shifted by the span of the original plus 1 ms (the
decimal text is kept exact: only the integer µs part changes), so the copies do not pile up on the same
starts. Writes OUT/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv, and with --trace a one-slice
trace_view.json beside it (then the kernel table is read by the summary tables reader; without it the
device tasks are drawn from the rows, docs/PERFORMANCE.md "Kernel table in blocks").

usage: make_tiled_kernel_details.py OUT TILES [--trace] [--input kernel_details.csv]
"""
import argparse
import csv
import os

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_INPUT = os.path.join(HERE, '..', '..', '..', 'shared', 'samples', 'msinsight_qwen3_0.6b_4rank_pp2_level2',
                             'test', 'st', 'level2', 'rank_0_ascend_pt', 'ASCEND_PROFILER_OUTPUT',
                             'kernel_details.csv')


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('out')
    parser.add_argument('tiles', type=int)
    parser.add_argument('--trace', action='store_true')
    parser.add_argument('--input', default=DEFAULT_INPUT)
    args = parser.parse_args()
    folder = os.path.join(args.out, 'rank0_ascend_pt', 'ASCEND_PROFILER_OUTPUT')
    os.makedirs(folder, exist_ok=True)
    with open(args.input, newline='') as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    column = header.index('Start Time(us)')
    whole_us = [int(r[column].strip().partition('.')[0]) for r in body if len(r) > column]
    span = max(whole_us) - min(whole_us) + 1000
    with open(os.path.join(folder, 'kernel_details.csv'), 'w', newline='') as f:
        writer = csv.writer(f, lineterminator='\n')
        writer.writerow(header)
        for tile in range(args.tiles):
            for row in body:
                shifted = list(row)
                whole, _, fraction = shifted[column].strip().partition('.')
                shifted[column] = '%d.%s\t' % (int(whole) + tile * span, fraction)
                writer.writerow(shifted)
    if args.trace:
        with open(os.path.join(folder, 'trace_view.json'), 'w') as f:
            f.write('[{"ph":"X","name":"step","pid":1,"tid":1,"ts":"1764246877073569.640","dur":1}]')


if __name__ == '__main__':
    main()
