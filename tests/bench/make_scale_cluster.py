#!/usr/bin/env python3
"""Builds the scale cases of issue 29 item 7: a cluster of two torch_npu rank folders with many steps or many
parallel groups per rank (summary files only, as the cluster page reads them).

ROOT/rank_<r>_ascend_pt holds profiler_info_<r>.json, ASCEND_PROFILER_OUTPUT/step_trace_time.csv with STEPS
rows (the Qwen3 sample's column layout; times vary with the step and the rank) and, with --groups, a
profiler_metadata.json whose parallel_group_info lists GROUPS groups of both ranks.

usage: make_scale_cluster.py ROOT [--steps 1] [--groups 0]   (the issue: --steps 200000; --groups 100000)
"""
import argparse
import json
import os

HEADER = ("Device_id,Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
          "Communication(Not Overlapped and Exclude Receive),Preparing\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root")
    parser.add_argument("--steps", type=int, default=1)
    parser.add_argument("--groups", type=int, default=0)
    args = parser.parse_args()
    for rank in range(2):
        folder = os.path.join(args.root, f"rank_{rank}_ascend_pt")
        output = os.path.join(folder, "ASCEND_PROFILER_OUTPUT")
        os.makedirs(output, exist_ok=True)
        with open(os.path.join(folder, f"profiler_info_{rank}.json"), "w") as f:
            f.write(json.dumps({"rank_id": rank}))
        with open(os.path.join(output, "step_trace_time.csv"), "w") as f:
            f.write(HEADER)
            for step in range(args.steps):
                computing = 1000.0 + (step % 13) * 1.5 + rank * 3
                f.write(f"{rank},{step},{computing:.3f},200.5,10.0,210.5,50.25,1260.75,0,200.5,3.25\n")
        if args.groups:
            groups = {f"group_{g}": {"group_name": "dp" if g % 2 else "tp", "global_ranks": [0, 1]}
                      for g in range(args.groups)}
            with open(os.path.join(folder, "profiler_metadata.json"), "w") as f:
                json.dump({"parallel_group_info": groups}, f)


if __name__ == "__main__":
    main()
