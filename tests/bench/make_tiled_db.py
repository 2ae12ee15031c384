#!/usr/bin/env python3
"""Tiles a torch_npu profiler database K times in time (benchmark input for bench_load_db).

The input (by default the alexnet level1 rank0 ascend_pytorch_profiler_0.db from ../shared/samples) is
copied, then every event, counter and kernel table gets K-1 more copies of its rows, each shifted by the
span of the data plus 1 ms, with globalTaskId / connection ids / CONNECTION_IDS ids offset so that joins
and flows stay within one copy. The sample itself is only read.
usage: make_tiled_db.py OUT.db --copies K [--input DB]
"""
import argparse
import os
import shutil
import sqlite3

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_INPUT = os.path.join(HERE, '..', '..', '..', 'shared', 'samples', 'msinsight_alexnet_1step_levels', 'test',
                             'data', 'pytorch', 'db', 'level1', 'rank0_ascend_pt', 'ASCEND_PROFILER_OUTPUT',
                             'ascend_pytorch_profiler_0.db')

TIME_COLUMNS = {'startNs', 'endNs', 'timestampNs'}
ID_COLUMNS = {'globalTaskId', 'connectionId', 'opId'}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('out')
    ap.add_argument('--copies', type=int, default=10)
    ap.add_argument('--input', default=DEFAULT_INPUT)
    args = ap.parse_args()
    shutil.copyfile(args.input, args.out)
    os.chmod(args.out, 0o644)
    db = sqlite3.connect(args.out)
    lo, hi = db.execute('SELECT min(CAST(startNs AS INTEGER)), max(CAST(endNs AS INTEGER)) FROM TASK').fetchone()
    lo2, hi2 = db.execute('SELECT min(CAST(startNs AS INTEGER)), max(CAST(endNs AS INTEGER)) FROM PYTORCH_API').fetchone()
    period = max(hi, hi2) - min(lo, lo2) + 1_000_000
    id_step = 1 << 28
    tables = ['TASK', 'COMPUTE_TASK_INFO', 'TASK_PMU_INFO', 'CANN_API', 'PYTORCH_API', 'CONNECTION_IDS',
              'COMMUNICATION_OP', 'COMMUNICATION_TASK_INFO', 'OVERLAP_ANALYSIS', 'AICORE_FREQ', 'HBM', 'LLC',
              'NPU_MEM', 'ACC_PMU', 'SOC_BANDWIDTH_LEVEL']
    for table in tables:
        columns = [r[1] for r in db.execute(f'PRAGMA table_info("{table}")')]
        if not columns:
            continue
        original = db.execute(f'SELECT max(rowid) FROM "{table}"').fetchone()[0] or 0
        for k in range(1, args.copies):
            exprs = []
            for c in columns:
                if c in TIME_COLUMNS:
                    exprs.append(f'CAST("{c}" AS INTEGER) + {k * period}')
                elif c in ID_COLUMNS or c == 'id':
                    exprs.append(f'CASE WHEN "{c}" IS NULL THEN NULL ELSE "{c}" + {k * id_step} END')
                else:
                    exprs.append(f'"{c}"')
            names = ', '.join(f'"{c}"' for c in columns)
            db.execute(f'INSERT INTO "{table}" ({names}) SELECT {", ".join(exprs)} FROM "{table}" '
                       f'WHERE rowid <= {original}')
    db.execute("UPDATE STEP_TIME SET endNs = endNs + %d" % ((args.copies - 1) * period))
    db.commit()
    db.execute('VACUUM')
    db.close()
    print(f'{args.out}: {args.copies} copies, {os.path.getsize(args.out) / 1e6:.1f} MB')


if __name__ == '__main__':
    main()
