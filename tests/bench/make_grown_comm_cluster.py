#!/usr/bin/env python3
"""Builds a large rank for the cluster reader's memory cases (issue 29 item 9): a copy of the real Qwen3
4-rank cluster whose rank 0 communication.json is grown to about MB megabytes by repeating its one step
(step13) under "step1", "step2", ... The other files are the sample's.

`ascend-timeline --prepare ROOT/rank_0_ascend_pt --cache DIR` then writes a prepared summary of about the
same size (docs/PERFORMANCE.md, "Prepared summaries under --memory-limit").

usage: make_grown_comm_cluster.py SAMPLES ROOT [--mb 48]
       (SAMPLES: the samples folder, e.g. /work/shared/samples)
"""
import argparse
import os
import shutil

QWEN3 = "msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("samples")
    parser.add_argument("root")
    parser.add_argument("--mb", type=float, default=48)
    args = parser.parse_args()
    shutil.copytree(os.path.join(args.samples, QWEN3), args.root)
    for folder, _, files in os.walk(args.root):
        for name in files:
            os.chmod(os.path.join(folder, name), 0o644)
        os.chmod(folder, 0o755)
    path = os.path.join(args.root, "rank_0_ascend_pt", "ASCEND_PROFILER_OUTPUT", "communication.json")
    with open(path, "rb") as f:
        text = f.read().strip()
    colon = text.index(b":")
    assert text.startswith(b'{"step13"') and text.endswith(b"}")
    step = text[colon + 1:-1].strip()
    target = int(args.mb * 1024 * 1024)
    with open(path, "wb") as f:
        f.write(b"{")
        written, steps = 0, 0
        while written < target:
            steps += 1
            member = (b", " if steps > 1 else b"") + b'"step%d": ' % steps + step
            f.write(member)
            written += len(member)
        f.write(b"}")
    print(f"{path}: {written + 2} bytes, {steps} steps")


if __name__ == "__main__":
    main()
