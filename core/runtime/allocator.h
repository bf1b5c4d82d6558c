#pragma once
// Process-wide allocator settings for the engine.

namespace moe {

// Keeps freed large blocks in the heap instead of returning them to the kernel. glibc serves
// every block over 32 MiB with a fresh mmap and unmaps it on free, so each training step would
// page-fault its activations in anew (measured: a 134 MB GELU ran 3x slower from that alone).
// Caching allocators do the same on GPUs. Call once at start-up, before big allocations.
void keep_freed_memory_in_process();

}  // namespace moe
