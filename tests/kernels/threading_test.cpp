// The kernels' worker pool: coverage of the range, inline execution, exceptions, nesting,
// concurrent callers, and idle workers that sleep instead of spinning.
#include <gtest/gtest.h>
#include <moe_kernels/backend.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

namespace moe::kernels {
namespace {

class ThreadPoolTest : public ::testing::Test {
 protected:
  void TearDown() override { cpu_backend().set_threads(0); }
};

TEST_F(ThreadPoolTest, NumThreads) {
  cpu_backend().set_threads(3);
  EXPECT_EQ(cpu_backend().threads(), 3);
  cpu_backend().set_threads(0);
  const unsigned hw = std::thread::hardware_concurrency();
  EXPECT_EQ(cpu_backend().threads(), hw == 0 ? 1 : static_cast<int>(hw));
  cpu_backend().set_threads(-2);
  EXPECT_EQ(cpu_backend().threads(), hw == 0 ? 1 : static_cast<int>(hw));
}

TEST_F(ThreadPoolTest, CoversEveryIndexOnceInContiguousChunks) {
  for (int threads : {1, 2, 4}) {
    cpu_backend().set_threads(threads);
    for (int64_t n : {1, 7, 100, 10007}) {
      for (int64_t grain : {1, 7, 64}) {
        std::vector<std::atomic<int>> hits(static_cast<size_t>(n));
        std::mutex m;
        std::vector<std::pair<int64_t, int64_t>> chunks;
        cpu_backend().parallel_for(n, grain, [&](int64_t b, int64_t e) {
          {
            std::lock_guard<std::mutex> lock(m);
            chunks.emplace_back(b, e);
          }
          for (int64_t i = b; i < e; ++i) hits[static_cast<size_t>(i)]++;
        });
        for (int64_t i = 0; i < n; ++i) ASSERT_EQ(hits[static_cast<size_t>(i)].load(), 1) << i;
        for (auto [b, e] : chunks) {
          EXPECT_LT(b, e);
          if (chunks.size() > 1) {
            EXPECT_GE(e - b, grain) << "n=" << n << " chunk [" << b << "," << e << ")";
          }
        }
        EXPECT_LE(static_cast<int64_t>(chunks.size()), std::max<int64_t>(1, n / grain));
      }
    }
  }
}

TEST_F(ThreadPoolTest, OneChunkRunsInlineOnTheCaller) {
  cpu_backend().set_threads(4);
  int calls = 0;
  std::thread::id where;
  cpu_backend().parallel_for(10, 10, [&](int64_t b, int64_t e) {
    ++calls;
    where = std::this_thread::get_id();
    EXPECT_EQ(b, 0);
    EXPECT_EQ(e, 10);
  });
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(where, std::this_thread::get_id());
}

TEST_F(ThreadPoolTest, NothingToDo) {
  cpu_backend().set_threads(2);
  int calls = 0;
  cpu_backend().parallel_for(0, 1, [&](int64_t, int64_t) { ++calls; });
  cpu_backend().parallel_for(-5, 1, [&](int64_t, int64_t) { ++calls; });
  EXPECT_EQ(calls, 0);
}

TEST_F(ThreadPoolTest, ExceptionReachesTheCaller) {
  cpu_backend().set_threads(2);
  EXPECT_THROW(cpu_backend().parallel_for(1000, 1,
                                          [](int64_t b, int64_t) {
                                            if (b > 0) throw std::runtime_error("chunk failed");
                                          }),
               std::runtime_error);
  EXPECT_THROW(
      cpu_backend().parallel_for(1000, 1, [](int64_t, int64_t) { throw std::logic_error("all"); }),
      std::logic_error);
  // The pool still works afterwards.
  std::atomic<int64_t> sum{0};
  cpu_backend().parallel_for(1000, 1, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) sum += i;
  });
  EXPECT_EQ(sum.load(), 999 * 1000 / 2);
}

TEST_F(ThreadPoolTest, ExceptionFromAWorkerThreadReachesTheCaller) {
  cpu_backend().set_threads(2);
  const auto caller = std::this_thread::get_id();
  bool worker_ran = false;
  // The caller's own chunks are slow, so a worker claims some; retry in case it never woke.
  for (int attempt = 0; attempt < 20 && !worker_ran; ++attempt) {
    std::atomic<bool> ran{false};
    bool threw = false;
    try {
      cpu_backend().parallel_for(8, 1, [&](int64_t, int64_t) {
        if (std::this_thread::get_id() != caller) {
          ran = true;
          throw std::runtime_error("from worker");
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      });
    } catch (const std::runtime_error& e) {
      threw = true;
      EXPECT_STREQ(e.what(), "from worker");
    }
    worker_ran = ran;
    EXPECT_EQ(threw, worker_ran);
  }
  EXPECT_TRUE(worker_ran) << "no chunk ever ran on a worker thread";
}

TEST_F(ThreadPoolTest, NestedCallsRunInline) {
  cpu_backend().set_threads(2);
  std::atomic<int64_t> total{0};
  cpu_backend().parallel_for(4, 1, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      cpu_backend().parallel_for(100, 1, [&](int64_t ib, int64_t ie) { total += ie - ib; });
    }
  });
  EXPECT_EQ(total.load(), 400);
}

TEST_F(ThreadPoolTest, SeveralCallerThreads) {
  cpu_backend().set_threads(2);
  std::vector<std::thread> callers;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([&] {
      for (int rep = 0; rep < 200; ++rep) {
        std::atomic<int64_t> sum{0};
        cpu_backend().parallel_for(1000, 16, [&](int64_t b, int64_t e) {
          int64_t s = 0;
          for (int64_t i = b; i < e; ++i) s += i;
          sum += s;
        });
        if (sum.load() != 999 * 1000 / 2) ++wrong;
      }
    });
  }
  for (auto& t : callers) t.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST_F(ThreadPoolTest, ChangingTheThreadCountBetweenCalls) {
  for (int threads : {2, 1, 3, 2}) {
    cpu_backend().set_threads(threads);
    std::atomic<int64_t> sum{0};
    cpu_backend().parallel_for(5000, 1, [&](int64_t b, int64_t e) { sum += e - b; });
    EXPECT_EQ(sum.load(), 5000);
  }
}

// Hooks that record which threads asked for serial nested calls and which restored.
std::mutex g_hook_mutex;
std::vector<std::thread::id> g_serial_threads, g_restore_threads;
std::vector<int> g_restored_states;
int record_serial() {
  std::lock_guard<std::mutex> lock(g_hook_mutex);
  g_serial_threads.push_back(std::this_thread::get_id());
  return 42;
}
void record_restore(int state) {
  std::lock_guard<std::mutex> lock(g_hook_mutex);
  g_restore_threads.push_back(std::this_thread::get_id());
  g_restored_states.push_back(state);
}

TEST_F(ThreadPoolTest, NestedParallelismHooksRunAroundPoolJobsOnly) {
  set_nested_parallelism_hooks({&record_serial, &record_restore});
  cpu_backend().set_threads(2);
  const auto caller = std::this_thread::get_id();
  // Inline work (one chunk) runs no hook: the caller has the machine to itself.
  cpu_backend().parallel_for(10, 10, [](int64_t, int64_t) {});
  EXPECT_TRUE(g_serial_threads.empty());

  // A pool job: the caller goes serial before its chunks and is restored after, with the
  // state its hook returned; any worker that took chunks went serial first.
  bool worker_ran = false;
  for (int attempt = 0; attempt < 20 && !worker_ran; ++attempt) {
    {
      std::lock_guard<std::mutex> lock(g_hook_mutex);
      g_serial_threads.clear();
      g_restore_threads.clear();
      g_restored_states.clear();
    }
    std::mutex m;
    std::vector<std::thread::id> ran_on;
    cpu_backend().parallel_for(8, 1, [&](int64_t, int64_t) {
      {
        std::lock_guard<std::mutex> lock(m);
        ran_on.push_back(std::this_thread::get_id());
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    });
    std::lock_guard<std::mutex> lock(g_hook_mutex);
    ASSERT_EQ(g_restore_threads.size(), 1u);
    EXPECT_EQ(g_restore_threads[0], caller);
    EXPECT_EQ(g_restored_states[0], 42);
    EXPECT_NE(std::find(g_serial_threads.begin(), g_serial_threads.end(), caller),
              g_serial_threads.end());
    for (auto id : ran_on) {
      if (id == caller) continue;
      worker_ran = true;
      EXPECT_NE(std::find(g_serial_threads.begin(), g_serial_threads.end(), id),
                g_serial_threads.end())
          << "a worker ran chunks without going serial";
    }
  }
  EXPECT_TRUE(worker_ran) << "no chunk ever ran on a worker thread";
  set_nested_parallelism_hooks({});
}

double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Idle workers must sleep: OpenBLAS runs its own threads between our kernels.
TEST_F(ThreadPoolTest, IdleWorkersDoNotSpin) {
  cpu_backend().set_threads(4);
  std::atomic<int64_t> sum{0};
  cpu_backend().parallel_for(4000, 1, [&](int64_t b, int64_t e) { sum += e - b; });
  ASSERT_EQ(sum.load(), 4000);
  const double before = process_cpu_seconds();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const double used = process_cpu_seconds() - before;
  EXPECT_LT(used, 0.05) << "the pool burned " << used << " s of CPU while idle";
}

}  // namespace
}  // namespace moe::kernels
