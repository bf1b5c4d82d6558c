#pragma once
// Process-wide allocator settings for the engine.

namespace moe::runtime {

// Keeps freed large blocks in the heap instead of returning them to the kernel. glibc serves
// every block over 32 MiB with a fresh mmap and unmaps it on free, so each training step would
// page-fault its activations in anew (measured: a 134 MB GELU ran 3x slower from that alone).
// Caching allocators do the same on GPUs. MKL's own buffer pool is turned off, so that its GEMM
// buffers come from the same heap (a steady peak). Call once at start-up, before big
// allocations and the first GEMM.
void keep_freed_memory_in_process();

}  // namespace moe::runtime
