#!/usr/bin/env bash
# tests/gpu/run-device-checks.sh OUT_FILE
#
# The checks that need an NVIDIA GPU, for a GPU machine without network access, in one go of at
# most ~8 minutes including the build:
#   1. configure a fresh engine-only build (Ninja, Release, MOE_DEVICE_CHECKS_ONLY) against the
#      CUDA LibTorch of the machine's Python (-DMOE_TORCH_PYTHON, as any engine build), CUDA kernels for
#      the GPU present; the Debian packages in .devdeps, if any, unpacked under the build folder
#      and searched first, GoogleTest built from their sources;
#   2. build kernel_tests_cuda, gpu_kernels_bench and moe-train;
#   3. kernel_tests_cuda: the kernel suite on cpu, the host emulation and cuda (all must pass);
#   4. gpu_kernels_bench: dispatch/combine GB/s against a device-to-device copy;
#   5. moe-train bench on E=8 k=2 M=4096 H=14336 N=16384 bfloat16 (CUDA engine builds only);
#   6. a 50-step helloworld run on cuda: median step time; tiny-lm under bfloat16 autocast and in
#      float16: finite losses; a resumed run on cuda: same losses;
#   7. the same run on 2 ranks over NCCL, when 2 GPUs are present.
# A failed step is reported and the script goes on. It prints a table (step, status, seconds,
# result) and writes it to OUT_FILE, followed by the benchmark tables and the tail of the log of
# each failed step. Exit status: 0 when every step that ran passed, 1 otherwise.
#
# The GPU machine lent to a session has no network and none of our Debian packages. Before
# asking for it, download them here (Debian 12, apt) with tests/gpu/fetch-device-deps.sh, which
# fills .devdeps (git-ignored, under 2 MiB); then one device `run` call with
#   carry [".devdeps"], command "tests/gpu/run-device-checks.sh $OUT/device-checks.txt"
# and a timeout_s of ~540 (the 480 s budget below and a margin) runs everything and
# brings the report back. Without .devdeps the machine's own packages must do.
#
# Environment: BUILD_DIR (default build/device-checks, removed first), BUDGET_S (default 480),
# PYTHON (default python3), CUDA_HOME (default /usr/local/cuda when nvcc is not on PATH),
# CUDA_ARCH (default: the compute capability nvidia-smi reports, else "native").
set -u

if [ $# -ne 1 ]; then
  echo "usage: $0 OUT_FILE" >&2
  exit 2
fi
OUT_FILE=$1
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build/device-checks}
BUDGET_S=${BUDGET_S:-480}
PYTHON=${PYTHON:-python3}
LOGS=$BUILD_DIR/logs
START=$SECONDS

rm -rf "$BUILD_DIR"
mkdir -p "$LOGS" || exit 1

names=() statuses=() times=() results=()
failed=0

elapsed() { echo $((SECONDS - START)); }
left() { echo $((BUDGET_S - (SECONDS - START))); }

# record NAME STATUS SECONDS RESULT
record() {
  names+=("$1") statuses+=("$2") times+=("$3") results+=("$4")
  [ "$2" = FAIL ] && failed=1
  printf '[%4ds] %-18s %-5s %4ss  %s\n' "$(elapsed)" "$1" "$2" "$3" "$4"
}

# run_step NAME MAX_SECONDS COMMAND...: runs COMMAND (output to $LOGS/NAME.log) under a time-out
# of MAX_SECONDS or what is left of the budget, whichever is less. Sets STEP_RC and STEP_S.
run_step() {
  local name=$1 max=$2
  shift 2
  local limit
  limit=$(left)
  [ "$limit" -gt "$max" ] && limit=$max
  STEP_S=0
  if [ "$limit" -le 5 ]; then
    STEP_RC=124
    echo "no time left in the ${BUDGET_S} s budget" >"$LOGS/$name.log"
    return
  fi
  echo "[$(elapsed)s] $name: $* (limit ${limit}s)"
  local t0=$SECONDS
  timeout --kill-after=10 "$limit" "$@" >"$LOGS/$name.log" 2>&1
  STEP_RC=$?
  STEP_S=$((SECONDS - t0))
}

# why RC: a few words for a failed step's exit status.
why() {
  case $1 in
    124 | 137) echo "timed out" ;;
    *) echo "exit status $1" ;;
  esac
}

# --- 0. The machine --------------------------------------------------------------------------
gpu_count=0 compute_cap="" gpu_names="" driver=""
if command -v nvidia-smi >/dev/null 2>&1; then
  gpu_names=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | sort | uniq -c |
    sed 's/^ *//' | paste -sd, -)
  gpu_count=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | grep -c .)
  compute_cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 |
    tr -d ' .')
  # CUDA 13's runtime (linked statically into the kernels) needs a driver of the 580 series or
  # newer; with an older one the cuda backend does not register.
  driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1)
fi
if [ "$gpu_count" -gt 0 ]; then
  record gpus PASS 0 "$gpu_count: $gpu_names (sm_${compute_cap:-?}), driver ${driver:-?}"
else
  record gpus FAIL 0 "nvidia-smi found no GPU"
fi
cuda_arch=${CUDA_ARCH:-${compute_cap:-native}}

nvcc_path=$(command -v nvcc || true)
if [ -z "$nvcc_path" ]; then
  CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
  [ -x "$CUDA_HOME/bin/nvcc" ] && nvcc_path=$CUDA_HOME/bin/nvcc
fi
if [ -n "$nvcc_path" ]; then
  record nvcc PASS 0 "$("$nvcc_path" --version | grep -o 'release [0-9.]*') ($nvcc_path)"
  export CUDACXX=$nvcc_path
  CUDA_ROOT=$(dirname "$(dirname "$nvcc_path")")
else
  record nvcc FAIL 0 "nvcc not on PATH nor in \$CUDA_HOME/bin"
  CUDA_ROOT=""
fi

torch_prefix=$("$PYTHON" -c 'import torch; print(torch.utils.cmake_prefix_path)' 2>"$LOGS/torch.log")
torch_desc=$("$PYTHON" -c 'import torch; print(torch.__version__, "CUDA", torch.version.cuda)' \
  2>>"$LOGS/torch.log")
if [ -n "$torch_prefix" ] && [ -d "$torch_prefix/Torch" ]; then
  record libtorch PASS 0 "$torch_desc ($torch_prefix)"
else
  record libtorch FAIL 0 "no LibTorch from '$PYTHON -c import torch' (see logs/torch.log)"
  torch_prefix=""
fi

# --- 1. Configure ------------------------------------------------------------------------------
# The Debian packages of .devdeps (tests/gpu/fetch-device-deps.sh) are unpacked under the build
# folder, never into /, and come first in CMake's search path; GoogleTest is built from their
# sources with this machine's compiler.
prefix_path=()
deps_root=$BUILD_DIR/devdeps/root
gtest_prefix=$BUILD_DIR/devdeps/gtest
# unpack_deb DEB: dpkg-deb where there is one, else the data archive straight out of the .deb.
unpack_deb() {
  if command -v dpkg-deb >/dev/null 2>&1; then
    dpkg-deb -x "$1" "$deps_root"
  else
    ar p "$1" data.tar.xz | tar -xJ -C "$deps_root"
  fi
}
debs=$(compgen -G "$ROOT/.devdeps/*.deb" | sort)
if [ -n "$debs" ]; then
  mkdir -p "$deps_root"
  unpacked="" deps_rc=0
  while read -r deb; do
    if unpack_deb "$deb" >>"$LOGS/devdeps.log" 2>&1; then
      unpacked+=" $(basename "$deb" | cut -d_ -f1)"
    else
      deps_rc=1
      echo "could not unpack $deb" >>"$LOGS/devdeps.log"
    fi
  done <<<"$debs"
  # A link to an absolute path (libz.so) points into this machine's /, not the unpacked root:
  # without it the static library next to it is taken.
  find "$deps_root" -type l -lname '/*' -delete
  prefix_path+=("$deps_root/usr")
  if [ "$deps_rc" -eq 0 ]; then
    record devdeps PASS 0 "unpacked:$unpacked"
  else
    record devdeps FAIL 0 "unpacked:$unpacked; see logs/devdeps.log"
  fi
  googletest_src=$deps_root/usr/src/googletest
  if [ -f "$googletest_src/CMakeLists.txt" ]; then
    # CMAKE_POLICY_VERSION_MINIMUM: googletest 1.12 asks for CMake 3.5, which CMake 4 refuses.
    # shellcheck disable=SC2016 # the inner bash expands its arguments
    run_step gtest 120 bash -c 'cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DBUILD_GMOCK=OFF -DCMAKE_INSTALL_PREFIX="$3" -DCMAKE_INSTALL_LIBDIR=lib \
      -DCMAKE_POLICY_VERSION_MINIMUM=3.5 && cmake --build "$2" && cmake --install "$2"' _ \
      "$googletest_src" "$BUILD_DIR/devdeps/gtest-build" "$gtest_prefix"
    if [ "$STEP_RC" -eq 0 ]; then
      prefix_path=("$gtest_prefix" "${prefix_path[@]}")
      record gtest PASS "$STEP_S" "GoogleTest built from .devdeps' sources into $gtest_prefix"
    else
      record gtest FAIL "$STEP_S" "$(why "$STEP_RC"); $(tail -1 "$LOGS/gtest.log")"
    fi
  fi
else
  record devdeps SKIP 0 "no .devdeps/*.deb: the machine's own packages only"
fi

# MOE_DEVICE_CHECKS_ONLY: the engine, the kernels and tests/gpu, without the other tests'
# dependencies (Google Benchmark, Open MPI, Slurm, the data set), which the machine lacks.
configure_args=(-S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release
  -DMOE_BUILD_GUI=OFF -DMOE_DEVICE_CHECKS_ONLY=ON -DMOE_WITH_HIP=OFF -DMOE_WITH_CUDA=ON
  "-DMOE_CUDA_ARCHITECTURES=$cuda_arch")
# The same option a user's engine build takes (README, "The engine on a machine"): the torch of
# this Python, its nvidia-nccl headers included.
if [ -n "$torch_prefix" ]; then
  configure_args+=("-DMOE_TORCH_PYTHON=$(command -v "$PYTHON")")
fi
if [ ${#prefix_path[@]} -gt 0 ]; then
  configure_args+=("-DCMAKE_PREFIX_PATH=$(IFS=';' && echo "${prefix_path[*]}")")
fi
[ -n "$nvcc_path" ] && configure_args+=("-DCMAKE_CUDA_COMPILER=$nvcc_path")
[ -n "$CUDA_ROOT" ] && configure_args+=("-DCUDAToolkit_ROOT=$CUDA_ROOT")
# A CUDA LibTorch's CMake files build for these architectures instead of probing.
if [ -n "$compute_cap" ]; then
  TORCH_CUDA_ARCH_LIST="${compute_cap:0:${#compute_cap}-1}.${compute_cap: -1}"
  export TORCH_CUDA_ARCH_LIST
fi
run_step configure 120 cmake "${configure_args[@]}"
engine_cuda=OFF
if [ "$STEP_RC" -eq 0 ]; then
  engine_cuda=$(sed -n 's/^MOE_ENGINE_CUDA:BOOL=//p' "$BUILD_DIR/CMakeCache.txt")
  record configure PASS "$STEP_S" "$(grep -E -- '-- (CUDA kernels|engine):' "$LOGS/configure.log" |
    sed 's/^-- //' | paste -sd'|' -)"
else
  record configure FAIL "$STEP_S" "$(why "$STEP_RC"); $(grep -m1 -E 'Error|error' \
    "$LOGS/configure.log")"
fi

# --- 2. Build ---------------------------------------------------------------------------------
# Ninja's -k 0 goes on after a failure, so one broken target does not stop the others; what was
# built is then checked one by one. The budget keeps ~150 s for the runs.
built() { [ -x "$BUILD_DIR/$1" ]; }
kernel_tests=tests/gpu/kernel_tests_cuda
bench=tests/gpu/gpu_kernels_bench
moe_train=app/train/moe-train
if [ -f "$BUILD_DIR/build.ninja" ]; then
  run_step build $(($(left) - 150)) cmake --build "$BUILD_DIR" \
    --target kernel_tests_cuda gpu_kernels_bench moe-train -- -k 0
  missing=""
  for t in $kernel_tests $bench $moe_train; do built "$t" || missing+=" $(basename "$t")"; done
  if [ "$STEP_RC" -eq 0 ] && [ -z "$missing" ]; then
    record build PASS "$STEP_S" "kernel_tests_cuda gpu_kernels_bench moe-train"
  else
    record build FAIL "$STEP_S" "$(why "$STEP_RC"); not built:${missing:- none}"
  fi
else
  record build SKIP 0 "not configured"
fi

# --- 3. The kernel suite on every backend -------------------------------------------------------
if built $kernel_tests; then
  list=$("$BUILD_DIR/$kernel_tests" --gtest_list_tests 2>/dev/null)
  per_backend=""
  for b in cpu emulated cuda; do
    per_backend+=" $b $(grep -c -E "^  .*/${b}([^a-z]|\$)" <<<"$list")"
  done
  run_step kernel_tests 150 "$BUILD_DIR/$kernel_tests" --gtest_brief=1
  summary=$(grep -E '^\[  (PASSED|FAILED) +\]' "$LOGS/kernel_tests.log" | head -2 | paste -sd';' -)
  if ! grep -q -E "^  .*/cuda([^a-z]|\$)" <<<"$list"; then
    record kernel_tests FAIL "$STEP_S" "no cuda cases: the CUDA backend did not register; $summary"
  elif [ "$STEP_RC" -eq 0 ]; then
    record kernel_tests PASS "$STEP_S" "$summary; cases per backend:$per_backend"
  else
    record kernel_tests FAIL "$STEP_S" "$(why "$STEP_RC"); $summary"
  fi
else
  record kernel_tests SKIP 0 "kernel_tests_cuda not built"
fi

# --- 4. Kernel throughput ---------------------------------------------------------------------
if built $bench; then
  run_step gpu_kernels_bench 90 "$BUILD_DIR/$bench" "$LOGS/gpu_kernels_bench.txt"
  if [ "$STEP_RC" -eq 0 ]; then
    record gpu_kernels_bench PASS "$STEP_S" "$(awk '$1 == "dispatch_forward" && $2 == "bfloat16" {
      print "dispatch_forward bf16 " $5 " GB/s (" $8 " of copy)" }' "$LOGS/gpu_kernels_bench.txt")"
  else
    record gpu_kernels_bench FAIL "$STEP_S" "$(why "$STEP_RC"); $(tail -1 "$LOGS/gpu_kernels_bench.log")"
  fi
else
  record gpu_kernels_bench SKIP 0 "not built"
fi

# --- 5. The MoE layer on the GPU --------------------------------------------------------------
bench_config=$BUILD_DIR/bench-gpu.json
cat >"$bench_config" <<'EOF'
{
  "schema": 1,
  "name": "device-bench",
  "model": { "kind": "helloworld", "dim": 4096, "layers": 1, "seq_len": 2048 },
  "moe": { "experts": 8, "top_k": 2, "hidden": 14336, "capacity_factor": 1.25 },
  "train": { "batch_size": 8, "dtype": "bfloat16", "device": "cuda" },
  "data": { "kind": "synthetic" }
}
EOF
if [ "$engine_cuda" != ON ]; then
  record moe_train_bench SKIP 0 "engine built without CUDA (MOE_ENGINE_CUDA=$engine_cuda)"
elif built $moe_train; then
  run_step moe_train_bench 120 "$BUILD_DIR/$moe_train" bench --config "$bench_config" \
    --json "$LOGS/moe_train_bench.json" --iters 5 --min-time 0.5
  if [ "$STEP_RC" -eq 0 ]; then
    record moe_train_bench PASS "$STEP_S" "$("$PYTHON" -c '
import json, sys
r = json.load(open(sys.argv[1]))[0]
naive = r.get("naive_speedup")
print("train %.2f ms, %.1f TFLOP/s, efficiency %.2f, routing share %.3f, naive speed-up %s" % (
    r["train_ms"], r["train_tflops"], r["efficiency"], r["routing_share"],
    "%.2f" % naive if isinstance(naive, (int, float)) else "-"))' "$LOGS/moe_train_bench.json" 2>&1)"
  else
    record moe_train_bench FAIL "$STEP_S" "$(why "$STEP_RC"); $(tail -1 "$LOGS/moe_train_bench.log")"
  fi
else
  record moe_train_bench SKIP 0 "moe-train not built"
fi

# --- 6 and 7. Training runs -------------------------------------------------------------------
# median_step_ms LOG: the median step_ms of a run's step events after the first 5 (warm-up).
median_step_ms() {
  "$PYTHON" -c '
import json, statistics, sys
ms, phases = [], []
for line in open(sys.argv[1]):
    try:
        e = json.loads(line)
    except ValueError:
        continue
    if isinstance(e, dict) and e.get("type") == "step" and e.get("step_ms") is not None:
        ms.append(e["step_ms"])
    if isinstance(e, dict) and e.get("type") == "phases" and isinstance(e.get("ms"), dict):
        phases.append(e["ms"])
def median(values):
    return statistics.median(values[5:] or values or [0])
print("%d steps, median step %.2f ms (after 5 warm-up steps); phases: %s" % (len(ms), median(ms),
    ", ".join("%s %.2f" % (name, median([p.get(name, 0) for p in phases]))
              for name in sorted({n for p in phases for n in p} - {"a2a"}))) if ms
    else "no step events")' "$1" 2>&1
}

# same_losses LOG_A LOG_B FIRST: whether the step losses from step FIRST on are bitwise equal.
same_losses() {
  "$PYTHON" -c '
import json, sys
def losses(path):
    out = {}
    for line in open(path):
        try:
            e = json.loads(line)
        except ValueError:
            continue
        if isinstance(e, dict) and e.get("type") == "step" and e["step"] >= int(sys.argv[3]):
            out[e["step"]] = e["loss"]
    return out
a, b = losses(sys.argv[1]), losses(sys.argv[2])
diff = [s for s in a if a[s] != b.get(s)]
if not a or diff:
    print("losses differ at steps %s: %s" % (diff[:3], [(a[s], b.get(s)) for s in diff[:3]]))
    sys.exit(1)
print("steps %d-%d resumed with bitwise equal losses" % (min(a), max(a)))' "$@" 2>&1
}

run_args=(--config "$ROOT/resources/presets/helloworld.json" --set train.device=cuda
  --set train.steps=50)
if [ "$engine_cuda" != ON ]; then
  record helloworld_cuda SKIP 0 "engine built without CUDA"
elif built $moe_train; then
  run_step helloworld_cuda 90 "$BUILD_DIR/$moe_train" run "${run_args[@]}" \
    --run-dir "$BUILD_DIR/runs/helloworld-cuda"
  if [ "$STEP_RC" -eq 0 ]; then
    record helloworld_cuda PASS "$STEP_S" "$(median_step_ms "$LOGS/helloworld_cuda.log")"
  else
    record helloworld_cuda FAIL "$STEP_S" "$(why "$STEP_RC"); $(grep -v '^{' \
      "$LOGS/helloworld_cuda.log" | tail -1)"
  fi
else
  record helloworld_cuda SKIP 0 "moe-train not built"
fi

# Mixed precision on the GPU: bfloat16 autocast (train.amp) and float16 with dynamic loss
# scaling, 40 steps of the tiny-lm model each (attention, embeddings, two MoE layers; synthetic
# Markov text): both must finish with finite losses.
loss_trend() {
  "$PYTHON" -c '
import json, math, statistics, sys
steps = []
for line in open(sys.argv[1]):
    try:
        e = json.loads(line)
    except ValueError:
        continue
    if isinstance(e, dict) and e.get("type") == "step":
        steps.append(e)
if not steps or not all(math.isfinite(e["loss"]) for e in steps):
    print("no finite losses"); sys.exit(1)
print("loss %.3f -> %.3f over %d steps, median step %.2f ms" % (steps[0]["loss"],
    steps[-1]["loss"], len(steps), statistics.median([e["step_ms"] for e in steps[5:] or steps])))
' "$1" 2>&1
}
for precision in amp float16; do
  if [ "$engine_cuda" != ON ] || ! built $moe_train; then
    record "${precision}_cuda" SKIP 0 "no CUDA moe-train"
    continue
  fi
  if [ "$precision" = amp ]; then
    precision_args=(--set train.amp=true)
  else
    precision_args=(--set train.dtype=float16)
  fi
  run_step "${precision}_cuda" 90 "$BUILD_DIR/$moe_train" run \
    --config "$ROOT/resources/presets/tiny-lm.json" --set train.device=cuda \
    --set train.steps=40 --set train.eval_every=0 --set data.kind=synthetic \
    "${precision_args[@]}" --run-dir "$BUILD_DIR/runs/tiny-lm-$precision"
  if [ "$STEP_RC" -ne 0 ]; then
    record "${precision}_cuda" FAIL "$STEP_S" "$(why "$STEP_RC"); $(grep -v '^{' \
      "$LOGS/${precision}_cuda.log" | tail -1)"
  elif result=$(loss_trend "$LOGS/${precision}_cuda.log"); then
    record "${precision}_cuda" PASS "$STEP_S" "$result"
  else
    record "${precision}_cuda" FAIL "$STEP_S" "$result"
  fi
done

# Resume on the GPU: 20 steps with gate noise (the CUDA generator), checkpoints at 10 and 20; the
# step-20 checkpoint removed, --resume runs 11-20 again and must give the same losses.
resume_dir=$BUILD_DIR/runs/resume-cuda
if [ "$engine_cuda" != ON ] || ! built $moe_train; then
  record resume_cuda SKIP 0 "no CUDA moe-train"
else
  run_step resume_cuda 90 bash -c '"$1" run --config "$2" --set train.device=cuda \
    --set train.steps=20 --set train.checkpoint_every=10 --set moe.gate_noise=1.0 \
    --run-dir "$3" >"$4" 2>&1 && rm -rf "$3/checkpoints/step-20" &&
    "$1" run --resume "$3"' _ "$BUILD_DIR/$moe_train" "$ROOT/resources/presets/helloworld.json" \
    "$resume_dir" "$LOGS/resume_cuda_first.log"
  if [ "$STEP_RC" -ne 0 ]; then
    record resume_cuda FAIL "$STEP_S" "$(why "$STEP_RC"); $(grep -h -v '^{' \
      "$LOGS/resume_cuda_first.log" "$LOGS/resume_cuda.log" | tail -1)"
  elif result=$(same_losses "$LOGS/resume_cuda_first.log" "$LOGS/resume_cuda.log" 11); then
    record resume_cuda PASS "$STEP_S" "$result"
  else
    record resume_cuda FAIL "$STEP_S" "$result"
  fi
fi

if [ "$gpu_count" -lt 2 ]; then
  record nccl_2gpu SKIP 0 "$gpu_count GPU(s): needs 2"
elif [ "$engine_cuda" != ON ] || ! built $moe_train; then
  record nccl_2gpu SKIP 0 "no CUDA moe-train"
else
  run_step nccl_2gpu 90 "$BUILD_DIR/$moe_train" launch --nproc-per-node 2 -- run \
    "${run_args[@]}" --set parallel.nproc=2 --set parallel.backend=nccl \
    --run-dir "$BUILD_DIR/runs/helloworld-nccl"
  if [ "$STEP_RC" -eq 0 ]; then
    record nccl_2gpu PASS "$STEP_S" "$(median_step_ms "$LOGS/nccl_2gpu.log")"
  else
    record nccl_2gpu FAIL "$STEP_S" "$(why "$STEP_RC"); $(grep -v '^{' "$LOGS/nccl_2gpu.log" |
      tail -1)"
  fi
fi

# --- Report -------------------------------------------------------------------------------------
{
  echo "MoE Studio device checks, $(date -u '+%Y-%m-%d %H:%M UTC'), $(hostname), commit" \
    "$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown), $(elapsed) s in all"
  printf '%-18s %-5s %6s  %s\n' step status s result
  for i in "${!names[@]}"; do
    printf '%-18s %-5s %6s  %s\n' "${names[$i]}" "${statuses[$i]}" "${times[$i]}" "${results[$i]}"
  done
  if [ -s "$LOGS/gpu_kernels_bench.txt" ]; then
    echo
    cat "$LOGS/gpu_kernels_bench.txt"
  fi
  if [ -s "$LOGS/moe_train_bench.log" ]; then
    echo
    echo "moe-train bench:"
    grep -v -E '^bench \[' "$LOGS/moe_train_bench.log" | tail -20
  fi
  for i in "${!names[@]}"; do
    if [ "${statuses[$i]}" = FAIL ] && [ -s "$LOGS/${names[$i]}.log" ]; then
      echo
      echo "--- ${names[$i]}: last lines of its log ($LOGS/${names[$i]}.log)"
      tail -25 "$LOGS/${names[$i]}.log"
    fi
  done
} >"$OUT_FILE.tmp"
mv "$OUT_FILE.tmp" "$OUT_FILE"
echo
cat "$OUT_FILE"
exit "$failed"
