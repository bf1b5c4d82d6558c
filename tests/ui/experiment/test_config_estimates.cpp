// config_estimates: parameter counts worked out by hand from the model code, the docs/ROUTING.md
// capacity rule, FLOPs, memory and the human units.
#include <QtTest>

#include "base/experiment/human_units.h"
#include "plan/config_estimates.h"

using moe::protocol::RunConfig;
using namespace moe::plan;
using namespace moe::ui;  // human_units

namespace {

RunConfig helloworld() {
  RunConfig c;
  c.model.kind = moe::protocol::ModelKind::HelloWorld;
  c.model.dim = 16;
  c.moe.experts = 4;
  c.moe.hidden = 8;
  return c;
}

}  // namespace

class TestConfigEstimates : public QObject {
  Q_OBJECT

 private slots:
  void helloworldParameters() {
    RunConfig c = helloworld();
    ParameterEstimate p = estimate_parameters(c);
    QCOMPARE(p.experts, 2.0 * 4 * 8 * 16 + 4 * 8 + 4 * 16);  // fc1, fc2, both biases
    QCOMPARE(p.dense, 4.0 * 16);                             // wg [E, M]
    c.moe.fc1_bias = false;
    c.moe.gate = moe::protocol::Gate::Cosine;
    c.moe.cosine_proj_dim = 8;
    p = estimate_parameters(c);
    QCOMPARE(p.experts, 2.0 * 4 * 8 * 16 + 4 * 16);
    QCOMPARE(p.dense, 8.0 * 16 + 8 + 8 * 4 + 1);  // projector + bias, sim_matrix, temperature
    c.model.layers = 5;  // helloworld is one MoE layer whatever layers says
    QCOMPARE(estimate_parameters(c).experts, p.experts);
  }

  void lmParameters() {
    RunConfig c;
    c.model.kind = moe::protocol::ModelKind::Lm;
    c.model.dim = 32;
    c.model.layers = 3;
    c.model.heads = 2;
    c.model.seq_len = 16;
    c.moe.experts = 4;
    c.moe.hidden = 32;
    c.moe.every = 2;  // blocks 0 and 2 are MoE, block 1 dense
    QCOMPARE(moe_layer_count(c), int64_t(2));
    const ParameterEstimate p = estimate_parameters(c);
    QCOMPARE(p.experts, 2.0 * 8448);
    // tok_emb 8192, pos_emb 512, 3 blocks x (2 norms 128 + qkv 3168 + proj 1056), 2 gates x 128,
    // one dense FFN 2112, final norm 64; the head is tied.
    QCOMPARE(p.dense, 8192.0 + 512 + 3 * 4352 + 256 + 2112 + 64);
    c.model.tie_embeddings = false;
    QCOMPARE(estimate_parameters(c).dense, p.dense + 256 * 32);
  }

  void imageParameters() {
    RunConfig c;
    c.model.kind = moe::protocol::ModelKind::Image;
    c.model.dim = 16;
    c.model.layers = 2;
    c.moe.experts = 4;
    c.moe.hidden = 16;
    c.data.kind = moe::protocol::DataKind::Synthetic;  // 1x28x28: 7x7 patches
    QCOMPARE(tokens_per_sample(c), int64_t(49));
    const ParameterEstimate p = estimate_parameters(c);
    QCOMPARE(p.experts, 2.0 * 2176);
    // conv 8*9+8, patch 16*8*16+16, pos_emb 49*16, 2 norms, 2 gates 4*16, final norm, head
    // 10*49*16+10.
    QCOMPARE(p.dense, 80.0 + 2064 + 784 + 64 + 128 + 32 + 7850);
    c.data.kind = moe::protocol::DataKind::Cifar10;  // 3x32x32: 8x8 patches
    QCOMPARE(tokens_per_sample(c), int64_t(64));
    QCOMPARE(estimate_parameters(c).dense,
             (8.0 * 27 + 8) + 2064 + 64 * 16 + 64 + 128 + 32 + (10 * 64 * 16 + 10));
  }

  void activeParameters() {
    // Every dense parameter and k' of the E experts of each MoE layer.
    RunConfig c = helloworld();  // top-2 of 4
    ParameterEstimate p = estimate_parameters(c);
    QCOMPARE(p.active, p.dense + p.experts / 2);
    c.moe.top_k = 8;  // k' = min(k, E): every expert
    QCOMPARE(estimate_parameters(c).active, p.total());
    c = RunConfig{};
    c.model.kind = moe::protocol::ModelKind::Lm;
    c.moe.experts = 8;
    c.moe.top_k = 1;
    p = estimate_parameters(c);
    QCOMPARE(p.active, p.dense + p.experts / 8);
    // The lm's cache: keys and values of dim M per layer.
    QCOMPARE(estimate(c).kv_cache_bytes_per_token, 2.0 * 512 * 4);
    c.model.kind = moe::protocol::ModelKind::Image;
    QCOMPARE(estimate(c).kv_cache_bytes_per_token, 0.0);
  }

  void capacityFollowsSpec() {
    // N = 16 * 128 = 2048 tokens, E = 8: ceil(N/E) = 256.
    RunConfig c;
    c.model.kind = moe::protocol::ModelKind::HelloWorld;
    c.moe.capacity_factor = 1.25;
    CapacityEstimate cap = estimate_capacity(c);
    QCOMPARE(cap.tokens, int64_t(2048));
    QCOMPARE(cap.kind, CapacityEstimate::Kind::kFixed);
    QCOMPARE(cap.count, int64_t(2 * 320));  // k' * floor(1.25 * 256)
    c.moe.capacity_factor = 0;
    QCOMPARE(estimate_capacity(c).kind, CapacityEstimate::Kind::kDropless);
    c.moe.capacity_factor = -0.5;
    cap = estimate_capacity(c);
    QCOMPARE(cap.kind, CapacityEstimate::Kind::kBounded);
    QCOMPARE(cap.count, int64_t(2 * 128));  // the bound k' * floor(0.5 * 256)
    // Uneven: N = 10, E = 3 -> ceil = 4; f = 1.1 -> k' * floor(4.4) = 2 * 4.
    QCOMPARE(capacity_slots(1.1, 10, 3, 2, 0, 1), int64_t(8));
    QCOMPARE(capacity_slots(1.1, 10, 3, 2, 0, 3), int64_t(9));  // rounded up to the alignment
    QCOMPARE(capacity_slots(0, 10, 3, 2, 7, 1), int64_t(7));    // dropless: the max demand
    QCOMPARE(capacity_slots(-1.1, 10, 3, 2, 5, 1), int64_t(5));
    QCOMPARE(capacity_slots(-1.1, 10, 3, 2, 50, 1), int64_t(8));
    // k' = min(k, E).
    c.moe.capacity_factor = 1;
    c.moe.experts = 2;
    c.moe.top_k = 4;
    QCOMPARE(estimate_capacity(c).top_k, int64_t(2));
    // Several processes: each routes its slice of the batch.
    c = RunConfig{};
    c.model.kind = moe::protocol::ModelKind::HelloWorld;
    c.parallel.nproc = 4;
    QCOMPARE(estimate_capacity(c).tokens, int64_t(4 * 128));
  }

  void flops() {
    RunConfig c = helloworld();
    c.train.batch_size = 4;
    c.train.grad_accum = 2;
    c.model.seq_len = 8;
    const ConfigEstimates e = estimate(c);
    const double n = 4 * 2 * 8;
    QCOMPARE(e.tokens_per_step, n);
    QCOMPARE(e.flops.experts, 3.0 * 4 * n * 2 * 16 * 8);
    QCOMPARE(e.flops.dense, 6.0 * n * 4 * 16);  // the gate: 6 * params * tokens
  }

  void memory() {
    RunConfig c = helloworld();
    const double params = estimate_parameters(c).total();
    MemoryEstimate m = estimate(c).memory;
    QCOMPARE(m.weights, 4 * params);
    QCOMPARE(m.states(), 16 * params);  // weights, grads, AdamW's two moments, float32
    c.train.dtype = moe::protocol::Dtype::BFloat16;
    m = estimate(c).memory;
    QCOMPARE(m.weights, 2 * params);
    QCOMPARE(m.masters, 4 * params);
    QCOMPARE(m.states(), (2 + 2 + 4 + 8) * params);
    c.train.dtype = moe::protocol::Dtype::Float64;
    c.train.optimizer = moe::protocol::Optimizer::Sgd;
    QCOMPARE(estimate(c).memory.states(), 16 * params);  // no momentum: no state
    c.train.momentum = 0.9;
    QCOMPARE(estimate(c).memory.states(), 24 * params);
    QVERIFY(estimate(c).memory.activations > 0);
  }

  void perRankShareAndAllToAll() {
    RunConfig c = helloworld();  // E = 4, M = 16, H = 8; batch 16 x 128 tokens
    c.parallel.nproc = 4;
    c.train.grad_accum = 2;
    ConfigEstimates e = estimate(c);
    QCOMPARE(e.rank.world, int64_t(4));
    QCOMPARE(e.rank.placement.local_experts, int64_t(1));
    QCOMPARE(e.rank.parameters.experts, e.parameters.experts / 4);
    QCOMPARE(e.rank.parameters.dense, e.parameters.dense);             // every rank holds the gate
    QCOMPARE(e.rank.memory.states(), 16 * e.rank.parameters.total());  // float32 AdamW
    QCOMPARE(e.rank.memory.activations, e.memory.activations);
    // N = 16/4 * 128 = 512 tokens per rank, C = 2 * floor(512/4) = 256; per layer
    // 4 * (W-1)/W * E * C * M * 4 bytes, two passes per step.
    QCOMPARE(e.capacity.count, int64_t(256));
    const double per_layer = 4 * 3.0 / 4 * 4 * 256 * 16 * 4;
    QCOMPARE(all_to_all_bytes_per_layer(c, e.capacity), per_layer);
    QCOMPARE(e.rank.all_to_all_bytes, 2 * per_layer);
    QVERIFY(!e.rank.all_to_all_assumes_r1);
    c.parallel.adaptive_r = moe::protocol::kAdaptiveRAuto;
    QVERIFY(estimate(c).rank.all_to_all_assumes_r1);
    c.parallel.adaptive_r = 0;  // experts replicated: no all-to-all
    QCOMPARE(estimate(c).rank.all_to_all_bytes, 0.0);
    c.parallel.adaptive_r = 1;
    c.parallel.expert_parallel = false;
    e = estimate(c);
    QCOMPARE(e.rank.all_to_all_bytes, 0.0);
    QCOMPARE(e.rank.parameters.experts, e.parameters.experts);
    c = helloworld();  // one rank: the whole run
    e = estimate(c);
    QCOMPARE(e.rank.world, int64_t(1));
    QCOMPARE(e.rank.all_to_all_bytes, 0.0);
    QCOMPARE(e.rank.parameters.total(), e.parameters.total());
  }

  void shardedExpertsAlignTheCapacity() {
    RunConfig c = helloworld();
    c.moe.experts = 2;
    c.parallel.nodes = 2;
    c.parallel.nproc = 4;  // 8 ranks: each expert in 4 shards
    c.moe.capacity_factor = 1.1;
    const ConfigEstimates e = estimate(c);
    QCOMPARE(e.rank.placement.shards, int64_t(4));
    QCOMPARE(e.rank.parameters.experts, e.parameters.experts / 8);
    // N = 2 * 128 = 256, k' = 2: 2 * floor(1.1 * 128) = 280, aligned up to a multiple of 4.
    QCOMPARE(e.capacity.alignment, int64_t(4));
    QCOMPARE(e.capacity.count, int64_t(280));
    c.moe.capacity_factor = 1.0 + 1.0 / 128;  // 2 * 129 = 258 -> 260
    QCOMPARE(estimate(c).capacity.count, int64_t(260));
    c.parallel.a2a_overlap_degree = 3;  // a multiple of 4 x 3 -> 264
    QCOMPARE(estimate(c).capacity.count, int64_t(264));
    c.parallel.expert_parallel = false;  // replicated experts: no alignment
    QCOMPARE(estimate(c).capacity.alignment, int64_t(1));
    QCOMPARE(estimate(c).capacity.count, int64_t(258));
  }

  void cannotEstimateNonsense() {
    RunConfig c;
    QVERIFY(can_estimate(c));
    c.moe.experts = 0;
    QVERIFY(!can_estimate(c));
    c = RunConfig{};
    c.parallel.nodes = 1 << 20;  // beyond the largest world: no overflow, no estimate
    c.parallel.nproc = 1 << 20;
    QVERIFY(!can_estimate(c));
  }

  void humanUnits() {
    QCOMPARE(formatCount(950), std::string("950"));
    QCOMPARE(formatCount(1184), std::string("1.18 k"));
    QCOMPARE(formatCount(12345), std::string("12.3 k"));
    QCOMPARE(formatCount(999999), std::string("1 M"));
    QCOMPARE(formatCount(1.2e6), std::string("1.2 M"));
    QCOMPARE(formatFlops(3.4e9), std::string("3.4 GFLOP"));
    QCOMPARE(formatFlops(12), std::string("12 FLOP"));
    QCOMPARE(formatBytes(512.0 * 1024 * 1024), std::string("512 MiB"));
    QCOMPARE(formatBytes(1536), std::string("1.5 KiB"));
    QCOMPARE(formatBytes(0), std::string("0 B"));
    QCOMPARE(formatBytes(2.25 * 1024 * 1024 * 1024), std::string("2.25 GiB"));
  }
};

QTEST_GUILESS_MAIN(TestConfigEstimates)
#include "test_config_estimates.moc"
