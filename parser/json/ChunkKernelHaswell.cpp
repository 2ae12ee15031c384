// The chunk kernel compiled for AVX2 (see ChunkKernel.h; CMake adds -mavx2 -mbmi -mpclmul -mlzcnt
// -mpopcnt to this file only). Only called after __builtin_cpu_supports() said the CPU has them.
#define AT_JSON_KERNEL_NS haswell
#include "ChunkKernel.cpp" // NOLINT(bugprone-suspicious-include): the same kernel again, for AVX2
