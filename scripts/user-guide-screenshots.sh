#!/usr/bin/env bash
# Regenerates the screenshots of docs/USER_GUIDE.md with the viewer's own --screenshot (offscreen), so
# the guide shows what the current build draws.   bash scripts/user-guide-screenshots.sh [BUILD_DIR]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${1:-$here/build}/app/ascend-timeline"
level1="$(realpath "$here/../shared/samples")/msinsight_alexnet_1step_levels/test/data/pytorch/text/level1/rank0_ascend_pt"
level2="$(realpath "$here/../shared/samples")/msinsight_alexnet_1step_levels/test/data/pytorch/text/level2/rank0_ascend_pt"
out="$here/docs/images"
mkdir -p "$out"
kernel=aclnnMaxPool2dWithMaskBackward_MaxPoolGradWithArgmaxV1AiCore_MaxPoolGradWithArgmaxV1
shot() { QT_QPA_PLATFORM=offscreen "$bin" --screenshot "$out/$1" "${@:2}" 2>/dev/null; }
shot main-light-1600x1000.png --size 1600x1000 --theme light --lang en --select "$kernel" "$level1"
shot main-light-900x700.png --size 900x700 --theme light --lang en --select "$kernel" "$level1"
shot main-dark-1600x1000.png --size 1600x1000 --theme dark --lang en --range 140ms:180ms "$level2"
shot main-dark-900x700.png --size 900x700 --theme dark --lang en --range 140ms:180ms "$level2"
shot main-zh-dark-1600x1000.png --size 1600x1000 --theme dark --lang zh_CN --select "$kernel" "$level1"
ranks="$(dirname "$level1")"
shot ranks-light-1600x1000.png --size 1600x1000 --theme light --lang en --page timeline "$ranks"
shot compare-light-1600x1000.png --size 1600x1000 --theme light --lang en --compare-steps 0:50,1:50 "$ranks"
shot compare-dark-900x700.png --size 900x700 --theme dark --lang en --compare-steps 0:50,1:50 "$ranks"
shot ruler-zoomed-1600x1000.png --size 1600x1000 --theme light --lang en --range 161.47ms:161.504ms "$level1"
qwen3="$(realpath "$here/../shared/samples")/msinsight_qwen3_0.6b_4rank_pp2_level2/test/st/level2"
# The page opens on its Strategy tab (Qwen3 is DP 2 x PP 2; docs/CLUSTER.md "Strategy view").
shot cluster-light-1600x1000.png --size 1600x1000 --theme light --lang en --page cluster "$qwen3"
shot cluster-dark-900x700.png --size 900x700 --theme dark --lang zh_CN --page cluster "$qwen3"
# The Overview (the first page after a load) and the default layout's docks.
shot overview-light-1600x1000.png --size 1600x1000 --theme light --lang en "$level1"
shot overview-dark-900x700.png --size 900x700 --theme dark --lang en "$level1"
shot overview-zh-light-900x700.png --size 900x700 --theme light --lang zh_CN "$level1"
shot overview-cluster-light-1600x1000.png --size 1600x1000 --theme light --lang en "$qwen3"
shot charts-dock-light-900x700.png --size 900x700 --theme light --lang en --dock charts "$level1"
# Every other dock at 900x700 at the default layout, both themes and both languages among them.
shot kernels-dock-dark-900x700.png --size 900x700 --theme dark --lang en --page timeline --dock kernels "$level1"
shot tables-dock-zh-light-900x700.png --size 900x700 --theme light --lang zh_CN --page timeline --dock tables "$level1"
shot steps-dock-light-900x700.png --size 900x700 --theme light --lang en --page timeline --dock steps "$level1"
shot markers-dock-zh-dark-900x700.png --size 900x700 --theme dark --lang zh_CN --page timeline --dock markers "$level1"
shot memory-dock-light-900x700.png --size 900x700 --theme light --lang en --page timeline --dock memory "$level1"
shot memory-dock-zh-dark-900x700.png --size 900x700 --theme dark --lang zh_CN --page timeline --dock memory "$level1"
shot collection-dock-dark-900x700.png --size 900x700 --theme dark --lang en --page timeline --dock collection "$level1"
shot insights-dock-zh-light-900x700.png --size 900x700 --theme light --lang zh_CN --page timeline --dock insights "$level1"
shot insights-cluster-light-1600x1000.png --size 1600x1000 --theme light --lang en --page cluster --dock insights "$qwen3"
# A PyTorch GPU (Kineto) trace: its lanes, and its Overview with NCCL as communication (issue 30).
gpu="$(realpath "$here/../shared/samples")/hta_kineto_gpu_traces"
shot gpu-timeline-light-1600x1000.png --size 1600x1000 --theme light --lang en --page timeline "$gpu/nccl_data.json.gz"
shot gpu-overview-zh-dark-900x700.png --size 900x700 --theme dark --lang zh_CN "$gpu/nccl_data.json.gz"
shot gpu-memory-dock-light-900x700.png --size 900x700 --theme light --lang en --page timeline --dock memory "$gpu/df_index_resolver.json.gz"
# Reduced colours keep the set small (about 2 MB); the pictures read the same.
if command -v pngquant >/dev/null; then
    pngquant --force --skip-if-larger --ext .png --quality 70-95 "$out"/*.png || true
fi
echo "wrote $(ls "$out" | wc -l) screenshots to $out"
