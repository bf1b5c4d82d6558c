// The kernels' worker pool: persistent threads that sleep on a condition variable between jobs.
//
// One job runs at a time (callers from several threads are serialised on `submit_mutex_`). The
// caller takes part in its own job, so a pool of P threads has P - 1 workers. Chunks are handed
// out through an atomic counter; a worker joins a job only while the job is open, and the caller
// returns only after every worker that joined has left, so no worker touches a finished job.
// A parallel_for issued from inside a job (by a worker or by the caller's own chunk) runs inline.
#include "cpu/threading.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace moe::kernels {
namespace {

std::atomic<int> g_requested_threads{0};
thread_local bool t_in_parallel_region = false;
std::atomic<int (*)()> g_serial_hook{nullptr};
std::atomic<void (*)(int)> g_restore_hook{nullptr};

// Makes the calling thread's nested library calls serial while it runs chunks of a job.
class SerialNestedCalls {
 public:
  explicit SerialNestedCalls(bool restore_after)
      : serial_(g_serial_hook.load(std::memory_order_acquire)),
        restore_(restore_after ? g_restore_hook.load(std::memory_order_acquire) : nullptr) {
    if (serial_) state_ = serial_();
  }
  ~SerialNestedCalls() {
    if (serial_ && restore_) restore_(state_);
  }
  SerialNestedCalls(const SerialNestedCalls&) = delete;
  SerialNestedCalls& operator=(const SerialNestedCalls&) = delete;

 private:
  int (*serial_)();
  void (*restore_)(int);
  int state_ = 0;
};

int resolve_threads() {
  int n = g_requested_threads.load(std::memory_order_relaxed);
  if (n > 0) return n;
  unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : static_cast<int>(hw);
}

class ThreadPool {
 public:
  ~ThreadPool() { resize_workers(0); }

  // Runs fn over [0, n) split into num_chunks balanced contiguous chunks on `threads` threads.
  void run(int64_t n, int64_t num_chunks, int threads,
           const std::function<void(int64_t, int64_t)>& fn) {
    std::lock_guard<std::mutex> submit(submit_mutex_);
    if (static_cast<int>(workers_.size()) != threads - 1) resize_workers(threads - 1);

    {
      std::lock_guard<std::mutex> lock(mutex_);
      fn_ = &fn;
      n_ = n;
      num_chunks_ = num_chunks;
      next_chunk_.store(0, std::memory_order_relaxed);
      error_ = nullptr;
      open_ = true;
      ++generation_;
    }
    wake_.notify_all();

    t_in_parallel_region = true;
    {
      SerialNestedCalls serial(/*restore_after=*/true);
      work();
    }
    t_in_parallel_region = false;

    std::exception_ptr error;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      // Every chunk has been claimed; the ones still running belong to active workers.
      done_.wait(lock, [&] { return active_ == 0; });
      open_ = false;
      fn_ = nullptr;
      error = error_;
      error_ = nullptr;
    }
    if (error) std::rethrow_exception(error);
  }

 private:
  // Claims and runs chunks of the current job until none is left.
  void work() {
    for (;;) {
      int64_t c = next_chunk_.fetch_add(1, std::memory_order_relaxed);
      if (c >= num_chunks_) return;
      // Balanced split: every chunk has floor or ceil of n / num_chunks items.
      int64_t begin = chunk_begin(c);
      int64_t end = chunk_begin(c + 1);
      try {
        (*fn_)(begin, end);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!error_) error_ = std::current_exception();
        // Stop handing out chunks: the job has failed.
        next_chunk_.store(num_chunks_, std::memory_order_relaxed);
      }
    }
  }

  int64_t chunk_begin(int64_t c) const {
    // n * c fits: n < 2^62 and c <= 4 * threads in practice; guard anyway with 128-bit math.
    return static_cast<int64_t>(static_cast<__int128>(n_) * c / num_chunks_);
  }

  void worker_loop(uint64_t seen) {
    t_in_parallel_region = true;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      if (!open_) continue;
      ++active_;
      lock.unlock();
      {
        // A worker only ever runs chunks: its nested library calls stay serial for good.
        SerialNestedCalls serial(/*restore_after=*/false);
        work();
      }
      lock.lock();
      if (--active_ == 0) done_.notify_one();
    }
  }

  // Called with submit_mutex_ held (or from the destructor), never while a job is open.
  void resize_workers(int count) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : workers_) t.join();
    workers_.clear();
    uint64_t generation;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = false;
      generation = generation_;
    }
    workers_.reserve(static_cast<size_t>(std::max(count, 0)));
    for (int i = 0; i < count; ++i) {
      workers_.emplace_back([this, generation] { worker_loop(generation); });
    }
  }

  std::mutex submit_mutex_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  std::vector<std::thread> workers_;
  bool stop_ = false;
  bool open_ = false;
  uint64_t generation_ = 0;
  int active_ = 0;

  const std::function<void(int64_t, int64_t)>* fn_ = nullptr;
  int64_t n_ = 0;
  int64_t num_chunks_ = 0;
  std::atomic<int64_t> next_chunk_{0};
  std::exception_ptr error_;
};

ThreadPool& pool() {
  static ThreadPool instance;
  return instance;
}

}  // namespace

void set_nested_parallelism_hooks(NestedParallelismHooks hooks) {
  g_serial_hook.store(hooks.serial, std::memory_order_release);
  g_restore_hook.store(hooks.restore, std::memory_order_release);
}

void set_num_threads(int n) {
  g_requested_threads.store(n > 0 ? n : 0, std::memory_order_relaxed);
}

int num_threads() {
  return resolve_threads();
}

void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn) {
  if (n <= 0) return;
  if (grain < 1) grain = 1;
  const int threads = resolve_threads();
  const int64_t max_chunks = n / grain;  // balanced chunks of at least `grain` items
  if (threads <= 1 || max_chunks <= 1 || t_in_parallel_region) {
    fn(0, n);
    return;
  }
  // A few chunks per thread so a late-waking worker (or one sharing its core with BLAS threads)
  // does not hold up the job.
  const int64_t num_chunks = std::min<int64_t>(max_chunks, int64_t{4} * threads);
  pool().run(n, num_chunks, threads, fn);
}

}  // namespace moe::kernels
