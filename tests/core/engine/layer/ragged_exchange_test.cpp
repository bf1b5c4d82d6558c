// The ragged all-to-all's routes, checked by carrying out the exchange of W ranks by hand: every
// expert receives exactly the filled slots of every rank, in rank order, and its results come
// back to the slots they left; slots nobody filled travel nowhere.
#include <gtest/gtest.h>

#include <numeric>

#include "layer/ragged_exchange.h"

namespace moe::test {
namespace {

constexpr int64_t kW = 3, kE = 6, kS = 5, kM = 2;  // 2 local experts per rank

// Rank q's buffer: slot s of expert e holds (q, e, s) where filled, -1 elsewhere.
at::Tensor filled_buffer(int64_t q, const std::vector<int64_t>& shares) {
  auto b = at::full({kE, kS, kM}, -1.0, at::kDouble);
  for (int64_t e = 0; e < kE; ++e) {
    for (int64_t s = 0; s < shares[q * kE + e]; ++s) {
      b[e][s][0] = double(q * 100 + e);
      b[e][s][1] = double(s);
    }
  }
  return b;
}

// The exchange as the group would do it: rank r receives, in rank order, what each rank sent it.
std::vector<at::Tensor> exchange_by_hand(const std::vector<at::Tensor>& sent,
                                         const std::vector<std::vector<int64_t>>& splits) {
  std::vector<at::Tensor> received(kW);
  for (int64_t r = 0; r < kW; ++r) {
    std::vector<at::Tensor> parts;
    for (int64_t q = 0; q < kW; ++q) {
      const int64_t start = std::accumulate(splits[q].begin(), splits[q].begin() + r, int64_t{0});
      parts.push_back(sent[q].narrow(0, start, splits[q][r]));
    }
    received[r] = at::cat(parts);
  }
  return received;
}

void expect_rows_travel_and_return(const std::vector<int64_t>& shares, int64_t pieces) {
  SCOPED_TRACE(std::to_string(pieces) + " pieces");
  std::vector<at::Tensor> buffers, back(kW);
  for (int64_t q = 0; q < kW; ++q) {
    buffers.push_back(filled_buffer(q, shares));
    back[q] = at::zeros({kE, kS, kM}, at::kDouble);
  }
  for (int64_t piece = 0; piece < pieces; ++piece) {
    std::vector<layer::RaggedRoute> routes;
    std::vector<at::Tensor> sent, results;
    std::vector<std::vector<int64_t>> send_splits, return_splits;
    for (int64_t q = 0; q < kW; ++q) {
      routes.push_back(layer::ragged_route(shares, kW, q, kS, piece, pieces, at::kCPU));
      sent.push_back(layer::rows_to_send(buffers[q], routes[q]));
      send_splits.push_back(routes[q].send_splits);
      return_splits.push_back(routes[q].recv_splits);
    }
    const auto received = exchange_by_hand(sent, send_splits);
    for (int64_t r = 0; r < kW; ++r) {
      ASSERT_EQ(received[r].size(0), routes[r].expert_rows.size(0));
      const auto rows = layer::rows_for_experts(received[r], routes[r]);  // [El, R, M]
      for (int64_t j = 0; j < routes[r].local_experts; ++j) {
        // Expert e's rows: each rank's piece of its filled slots, rank by rank, then zeros.
        const int64_t e = r * routes[r].local_experts + j;
        int64_t row = 0;
        for (int64_t q = 0; q < kW; ++q) {
          const int64_t n = shares[q * kE + e];
          for (int64_t s = piece * n / pieces; s < (piece + 1) * n / pieces; ++s, ++row) {
            EXPECT_EQ(rows[j][row][0].item<double>(), q * 100 + e);
            EXPECT_EQ(rows[j][row][1].item<double>(), s);
          }
        }
        for (; row < routes[r].rows_per_expert; ++row) EXPECT_EQ(rows[j][row][0].item<double>(), 0);
      }
      results.push_back(layer::rows_to_return(rows, routes[r]));  // the identity as the experts
    }
    const auto returned = exchange_by_hand(results, return_splits);
    for (int64_t q = 0; q < kW; ++q)
      back[q] = layer::rows_returned(back[q], returned[q], routes[q]);
  }
  for (int64_t q = 0; q < kW; ++q) {
    EXPECT_TRUE(back[q].equal(buffers[q].clamp_min(0.0)))  // unfilled slots come back zero
        << "rank " << q;
  }
}

TEST(RaggedExchange, EachExpertGetsEveryRanksFilledSlotsAndTheyComeBack) {
  // Uneven shares, an expert nobody chose (e = 4), a rank with nothing for rank 2's experts.
  const std::vector<int64_t> shares{5, 0, 2, 1, 0, 3,   // rank 0
                                    1, 4, 5, 2, 0, 0,   // rank 1
                                    3, 3, 0, 5, 0, 1};  // rank 2
  for (int64_t pieces : {1, 2, 4}) expect_rows_travel_and_return(shares, pieces);
}

TEST(RaggedExchange, RowsPerExpertIsTheMostAnyLocalExpertReceives) {
  const std::vector<int64_t> shares{5, 0, 2, 1, 0, 3, 1, 4, 5, 2, 0, 0, 3, 3, 0, 5, 0, 1};
  const auto r0 = layer::ragged_route(shares, kW, 0, kS, 0, 1, at::kCPU);
  EXPECT_EQ(r0.rows_per_expert, 9);  // expert 0: 5 + 1 + 3; expert 1: 0 + 4 + 3
  EXPECT_EQ(r0.send_splits, (std::vector<int64_t>{5, 3, 3}));
  EXPECT_EQ(r0.recv_splits, (std::vector<int64_t>{5, 5, 6}));
  const auto r2 = layer::ragged_route(shares, kW, 2, kS, 0, 1, at::kCPU);
  EXPECT_EQ(r2.rows_per_expert, 4);  // expert 5: 3 + 0 + 1; expert 4: nobody
  const std::vector<int64_t> none(kW * kE, 0);
  EXPECT_EQ(layer::ragged_route(none, kW, 1, kS, 0, 1, at::kCPU).rows_per_expert,
            1);  // never empty
  EXPECT_THROW(layer::ragged_route({1, 2, 3}, 2, 0, kS, 0, 1, at::kCPU), c10::Error);
}

}  // namespace
}  // namespace moe::test
