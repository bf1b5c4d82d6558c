#pragma once
// The engine's three thread pools on one set of cores: LibTorch's intra-op pool (OpenMP),
// OpenBLAS's own threads (GEMMs) and the kernels' worker pool (routing, dispatch, combine, the
// experts' element-wise work). On a 2-core machine any thread of one pool that keeps running
// while another pool works takes half the machine from it, so the pools are made to hand the
// cores over cleanly: see share_cores_between_thread_pools().
namespace moe::runtime {

struct ThreadPoolSharing {
  bool nested_serial = false;  // LibTorch ops inside kernel chunks run on the chunk's thread
  bool blas_parked = false;    // idle OpenBLAS threads go to sleep soon after each call
};

// Call once at start-up, before any thread but the caller uses BLAS (it restarts OpenBLAS's
// threads). Safe to call again; does what the loaded libraries allow and says what that was.
ThreadPoolSharing share_cores_between_thread_pools();

// OpenBLAS's thread count, looked up at run time (LibTorch brings whichever BLAS the system
// has): 0 when the BLAS offers no such control.
int blas_num_threads();
// No effect when the BLAS offers no such control.
void set_blas_num_threads(int n);

}  // namespace moe::runtime
