// validate() and check(): every rule reports at the expected JSON pointer.
#include "protocol/config_validation.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "test_util.h"

namespace moe::protocol {
namespace {

using ::testing::ElementsAre;
using testing::formatted;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing::pointers;
using testing::TempDir;
using json = nlohmann::json;

TEST(Validate, DefaultsAreValid) {
  EXPECT_THAT(validate(RunConfig{}), IsEmpty());
}

TEST(Validate, SpecExampleMessage) {
  RunConfig c;
  c.moe.top_k = 9;
  EXPECT_THAT(formatted(validate(c)),
              ElementsAre("/moe/top_k: must be between 1 and 8 (moe.experts), got 9"));
}

struct RuleCase {
  const char* patch;    // merged into the default config
  const char* pointer;  // the one problem expected
  const char* message;  // expected message, or "" to check the pointer only
};

void PrintTo(const RuleCase& rule, std::ostream* os) {
  *os << rule.patch;
}

class RuleTest : public ::testing::TestWithParam<RuleCase> {};

TEST_P(RuleTest, ReportsAtPointer) {
  const RuleCase& rule = GetParam();
  json j = to_json(RunConfig{});
  j.merge_patch(json::parse(rule.patch));
  std::vector<ConfigProblem> problems = check(j, nullptr, ValidateOptions{false});
  ASSERT_EQ(problems.size(), 1u) << rule.patch << "\n"
                                 << ::testing::PrintToString(formatted(problems));
  EXPECT_EQ(problems[0].pointer, rule.pointer) << rule.patch;
  if (*rule.message) {
    EXPECT_EQ(problems[0].message, rule.message) << rule.patch;
  }
}

const RuleCase kRules[] = {
    {R"({"schema": 0})", "/schema", "unsupported schema version 0 (this build reads 1)"},
    {R"({"name": ""})", "/name", "must not be empty"},
    {R"({"name": "a b"})", "/name", ""},
    {R"({"name": "../x"})", "/name", ""},
    {R"({"name": "ü"})", "/name", ""},
    {R"({"model": {"kind": "cnn"}})", "/model/kind",
     R"(must be one of "helloworld", "lm", "image", "decoder", got "cnn")"},
    {R"({"model": {"dim": 1}})", "/model/dim", "must be between 2 and 65536, got 1"},
    {R"({"model": {"dim": 7}})", "/model/dim", "must be even, got 7"},
    {R"({"model": {"dim": 131072}})", "/model/dim", ""},
    {R"({"model": {"layers": 0}})", "/model/layers", ""},
    {R"({"model": {"kind": "lm", "dim": 64, "heads": 6}})", "/model/heads",
     "must divide model.dim (64), got 6"},
    {R"({"model": {"kind": "lm", "dim": 64, "heads": 128}})", "/model/heads",
     "must be between 1 and 64 (model.dim), got 128"},
    {R"({"model": {"heads": 0}})", "/model/heads", "must be >= 1, got 0"},
    {R"({"model": {"seq_len": 0}})", "/model/seq_len", ""},
    {R"({"model": {"vocab": 0}})", "/model/vocab", ""},
    {R"({"moe": {"experts": 0, "top_k": 1}})", "/moe/experts", ""},
    {R"({"moe": {"top_k": 0}})", "/moe/top_k", "must be between 1 and 8 (moe.experts), got 0"},
    {R"({"moe": {"hidden": 0}})", "/moe/hidden", ""},
    {R"({"moe": {"activation": "tanh"}})", "/moe/activation", ""},
    {R"({"moe": {"gate": "hash"}})", "/moe/gate", ""},
    {R"({"moe": {"capacity_factor": 1e300}})", "/moe/capacity_factor", ""},
    {R"({"moe": {"gate_noise": -0.5}})", "/moe/gate_noise", "must be >= 0, got -0.5"},
    {R"({"moe": {"aux_loss": "switch"}})", "/moe/aux_loss", ""},
    {R"({"moe": {"aux_loss": "load_importance"}})", "/moe/gate_noise",
     R"(must be > 0 when moe.aux_loss is "load_importance", got 0)"},
    {R"({"moe": {"cosine_proj_dim": 0}})", "/moe/cosine_proj_dim", ""},
    {R"({"moe": {"cosine_init_t": 0}})", "/moe/cosine_init_t", "must be > 0, got 0"},
    {R"({"moe": {"every": 0}})", "/moe/every", ""},
    {R"({"moe": {"bias_balancing": {"rate": -1}}})", "/moe/bias_balancing/rate", ""},
    {R"({"parallel": {"nproc": 0}})", "/parallel/nproc", ""},
    {R"({"parallel": {"nodes": 0}})", "/parallel/nodes", "must be between 1 and 65536, got 0"},
    {R"({"parallel": {"nodes": 512, "nproc": 256}, "train": {"batch_size": 131072}})",
     "/parallel/nproc", "parallel.nodes x parallel.nproc must be at most 65536 ranks, got 131072"},
    {R"({"parallel": {"timeout_s": 0}})", "/parallel/timeout_s",
     "must be from 1 to 604800 (a second to a week), got 0"},
    {R"({"parallel": {"timeout_s": 0.0004}})", "/parallel/timeout_s",
     "must be from 1 to 604800 (a second to a week), got 0.0004"},
    {R"({"parallel": {"timeout_s": 1e9}})", "/parallel/timeout_s", ""},
    {R"({"parallel": {"nproc": 2, "expert_parallel": true}, "moe": {"experts": 3, "top_k": 1}})",
     "/moe/experts", ""},
    {R"({"parallel": {"backend": "mpi"}})", "/parallel/backend", ""},
    {R"({"parallel": {"backend": "nccl"}, "train": {"device": "cpu"}})", "/parallel/backend", ""},
    {R"({"parallel": {"adaptive_r": 2}})", "/parallel/adaptive_r",
     R"(must be "auto" or one of 0, 1 for 8 experts on 1 rank, got 2)"},
    {R"({"parallel": {"nodes": 2, "nproc": 4, "adaptive_r": 3}, "moe": {"experts": 2, "top_k": 1}})",
     "/parallel/adaptive_r",
     R"(must be "auto" or one of 0, 1, 2, 4 for 2 experts on 8 ranks (each expert in 4 shards), got 3)"},
    {R"({"parallel": {"a2a_overlap_degree": 0}})", "/parallel/a2a_overlap_degree", ""},
    {R"({"train": {"steps": 0}})", "/train/steps", ""},
    {R"({"train": {"batch_size": 0}})", "/train/batch_size", ""},
    {R"({"train": {"batch_size": 10}, "parallel": {"nproc": 4}})", "/train/batch_size",
     "must be divisible by the number of ranks (4), got 10"},
    {R"({"train": {"batch_size": 16}, "parallel": {"nodes": 4, "nproc": 8}})", "/train/batch_size",
     "must be divisible by the number of ranks (32), got 16: more ranks than the batch has rows"},
    {R"({"train": {"grad_accum": 0}})", "/train/grad_accum", ""},
    {R"({"train": {"optimizer": "adam"}})", "/train/optimizer", ""},
    {R"({"train": {"lr": 0}})", "/train/lr", "must be > 0, got 0"},
    {R"({"train": {"lr": -0.1}})", "/train/lr", ""},
    {R"({"train": {"weight_decay": 1}})", "/train/weight_decay", "must be in [0, 1), got 1"},
    {R"({"train": {"momentum": -0.1}})", "/train/momentum", ""},
    {R"({"train": {"schedule": "step"}})", "/train/schedule", ""},
    {R"({"train": {"warmup_steps": -1}})", "/train/warmup_steps", ""},
    {R"({"train": {"dtype": "int8"}})", "/train/dtype", ""},
    {R"({"train": {"clip_grad_norm": -1}})", "/train/clip_grad_norm", ""},
    {R"({"train": {"aux_loss_weight": -0.01}})", "/train/aux_loss_weight", ""},
    {R"({"train": {"z_loss_weight": -1}})", "/train/z_loss_weight", ""},
    {R"({"train": {"eval_every": -1}})", "/train/eval_every", ""},
    {R"({"train": {"eval_batches": 0}})", "/train/eval_batches", ""},
    {R"({"train": {"checkpoint_every": -1}})", "/train/checkpoint_every", ""},
    {R"({"train": {"keep_checkpoints": 0}})", "/train/keep_checkpoints", ""},
    {R"({"train": {"device": "tpu"}})", "/train/device", ""},
    {R"({"train": {"threads": -1}})", "/train/threads", ""},
    {R"({"data": {"kind": "csv"}})", "/data/kind", ""},
    {R"({"data": {"kind": "text", "path": "x"}})", "/data/kind",
     R"("text" needs model.kind "lm" or "decoder", got "helloworld")"},
    {R"({"data": {"kind": "idx", "path": "x"}, "model": {"kind": "lm"}})", "/data/kind",
     R"("idx" needs model.kind "image", got "lm")"},
    {R"({"data": {"kind": "cifar10", "path": ""}, "model": {"kind": "image"}})", "/data/path",
     R"(is required for data.kind "cifar10")"},
    {R"({"data": {"val_fraction": 1.0}})", "/data/val_fraction", ""},
    {R"({"data": {"kind": "jsonl", "path": "x"}})", "/data/kind",
     R"("jsonl" needs model.kind "lm" or "decoder", got "helloworld")"},
    {R"({"data": {"kind": "megatron", "path": "x"}, "model": {"kind": "image"}})", "/data/kind",
     R"("megatron" needs model.kind "lm" or "decoder", got "image")"},
    {R"({"data": {"kind": "jsonl", "path": "x", "text_field": ""}, "model": {"kind": "lm"}})",
     "/data/text_field", "must name the JSON field that holds each document"},
    {R"({"data": {"eos_token": -2}})", "/data/eos_token", "must be >= -1, got -2"},
    {R"({"data": {"eos_token": 256}})", "/data/eos_token",
     "must be below model.vocab (256), got 256"},
    {R"({"model": {"kind": "lm", "vocab": 100}, "data": {"kind": "jsonl", "path": "x"}})",
     "/model/vocab",
     R"(must be >= 256 for byte-level text (data.kind "jsonl" without data.tokenizer), got 100)"},
    {R"({"model": {"kind": "lm", "vocab": 100}, "data": {"kind": "text", "path": "x"}})",
     "/model/vocab", ""},
    {R"({"telemetry": {"every": 0}})", "/telemetry/every", ""},
    {R"({"telemetry": {"capture_every": -1}})", "/telemetry/capture_every", "must be >= 0, got -1"},
    {R"({"telemetry": {"capture_max_mb": 0}})", "/telemetry/capture_max_mb", "must be >= 1, got 0"},
    {R"({"telemetry": {"tensorboard": 1}})", "/telemetry/tensorboard", ""},
};

INSTANTIATE_TEST_SUITE_P(Rules, RuleTest, ::testing::ValuesIn(kRules));

TEST(Validate, AcceptsBoundaryValues) {
  json j = to_json(RunConfig{});
  j.merge_patch(json::parse(R"({
    "name": "A-z_0.9", "model": {"kind": "lm", "dim": 2, "heads": 2, "vocab": 256},
    "moe": {"experts": 1, "top_k": 1, "capacity_factor": -2, "gate_noise": 0.1,
            "aux_loss": "load_importance"},
    "parallel": {"nproc": 4, "backend": "nccl"},
    "train": {"batch_size": 8, "momentum": 0.99, "device": "cuda", "threads": 0}})"));
  EXPECT_THAT(formatted(check(j)), IsEmpty());
}

TEST(Validate, DataFilesAreCheckedByKind) {
  TempDir dir;
  const std::string prefix = dir.file("set");
  dir.write("set.idx", "x");
  RunConfig c;
  c.model.kind = ModelKind::Lm;
  c.data.kind = DataKind::Megatron;
  c.data.path = prefix;
  EXPECT_THAT(formatted(validate(c)),
              ElementsAre(HasSubstr("(a Megatron data set is named by its prefix: PREFIX.bin and "
                                    "PREFIX.idx)")));
  EXPECT_THAT(pointers(validate(c)), ElementsAre("/data/path"));
  dir.write("set.bin", "x");
  EXPECT_THAT(validate(c), IsEmpty());
  // A tokenizer folder must hold tokenizer.json; with one, a small vocabulary is the model's own.
  c.data.kind = DataKind::Jsonl;
  c.data.path = prefix + ".idx";
  c.data.tokenizer = dir.file("");
  c.model.vocab = 100;
  EXPECT_THAT(formatted(validate(c)),
              ElementsAre(HasSubstr("(a tokenizer.json, or a folder holding one)")));
  EXPECT_THAT(pointers(validate(c)), ElementsAre("/data/tokenizer"));
  dir.write("tokenizer.json", "{}");
  EXPECT_THAT(validate(c), IsEmpty());
}

TEST(Validate, ParallelRulesUseNodesTimesNproc) {
  RunConfig c;
  c.parallel.nodes = 2;
  c.parallel.nproc = 3;  // 6 ranks: 8 experts are neither a multiple nor a divisor
  c.train.batch_size = 12;
  EXPECT_THAT(formatted(validate(c)),
              ElementsAre("/moe/experts: must be a multiple or a divisor of the number of ranks "
                          "(6) with expert parallelism, got 8"));
  c.moe.experts = 12;
  c.parallel.adaptive_r = kAdaptiveRAuto;
  EXPECT_THAT(validate(c), IsEmpty());
}

TEST(Validate, ProblemsComeInKeyOrder) {
  RunConfig c;
  c.parallel.nproc = 3;
  c.parallel.backend = moe::protocol::Backend::Nccl;
  c.parallel.a2a_overlap_degree = 0;
  c.parallel.timeout_s = -1;
  c.train.device = moe::protocol::Device::Cpu;
  c.train.batch_size = 4;
  c.telemetry.every = 0;
  EXPECT_THAT(pointers(validate(c)),
              ElementsAre("/moe/experts", "/parallel/backend", "/parallel/a2a_overlap_degree",
                          "/parallel/timeout_s", "/train/batch_size", "/telemetry/every"));
}

TEST(Validate, ExpertParallelShardingRule) {
  RunConfig c;
  c.parallel.nproc = 8;
  c.moe.experts = 2;  // each expert sharded over 4 ranks
  EXPECT_THAT(validate(c), IsEmpty());
  c.moe.experts = 16;  // 2 experts per rank
  EXPECT_THAT(validate(c), IsEmpty());
  c.moe.experts = 12;
  EXPECT_THAT(pointers(validate(c)), ElementsAre("/moe/experts"));
  c.parallel.expert_parallel = false;  // data parallel only: any count
  EXPECT_THAT(validate(c), IsEmpty());
}

TEST(Validate, NonFiniteDoublesAreReported) {
  RunConfig c;
  c.train.lr = std::numeric_limits<double>::quiet_NaN();
  c.moe.capacity_factor = std::numeric_limits<double>::infinity();
  c.data.val_fraction = -std::numeric_limits<double>::infinity();
  EXPECT_THAT(formatted(validate(c)),
              ElementsAre("/moe/capacity_factor: must be a finite number, got inf",
                          "/train/lr: must be a finite number, got nan",
                          "/data/val_fraction: must be a finite number, got -inf"));
}

TEST(Validate, ExtremeIntegersDoNotOverflow) {
  RunConfig c;
  c.model.dim = std::numeric_limits<int64_t>::min();
  c.model.kind = moe::protocol::ModelKind::Lm;
  c.moe.experts = std::numeric_limits<int64_t>::min();
  c.moe.top_k = std::numeric_limits<int64_t>::max();
  c.parallel.nproc = std::numeric_limits<int64_t>::min();
  c.train.batch_size = std::numeric_limits<int64_t>::min();
  c.model.heads = -1;
  auto problems = validate(c);  // UBSan in the asan preset checks the arithmetic
  EXPECT_THAT(pointers(problems),
              ElementsAre("/model/dim", "/model/heads", "/moe/experts", "/moe/top_k",
                          "/parallel/nproc", "/train/batch_size"));
}

TEST(Validate, ManyProblemsAtOnce) {
  json j = json::parse(R"({"name": "", "bogus": 1, "model": {"dim": 3},
    "moe": {"experts": "x", "top_k": 20}, "train": {"lr": 0, "steps": 0}})");
  EXPECT_THAT(
      formatted(check(j)),
      ElementsAre("/moe/experts: expected an integer, got string \"x\"", "/bogus: unknown key",
                  "/name: must not be empty", "/model/dim: must be even, got 3",
                  "/moe/top_k: must be between 1 and 8 (moe.experts), got 20",
                  "/train/steps: must be >= 1, got 0", "/train/lr: must be > 0, got 0"));
}

TEST(Validate, CheckDoesNotRepeatAParseProblem) {
  // Both the parse and validate() object to schema 3; the user sees it once.
  auto problems = check(json::parse(R"({"schema": 3})"));
  EXPECT_THAT(pointers(problems), ElementsAre("/schema"));
}

TEST(Validate, CheckFillsOut) {
  RunConfig c;
  auto problems = check(json::parse(R"({"moe": {"experts": 4}})"), &c);
  EXPECT_THAT(problems, IsEmpty());
  EXPECT_EQ(c.moe.experts, 4);
}

TEST(Validate, DataPathMustExist) {
  TempDir dir;
  RunConfig c;
  c.model.kind = moe::protocol::ModelKind::Image;
  c.data.kind = moe::protocol::DataKind::Idx;
  c.data.path = dir.file("missing");
  EXPECT_THAT(formatted(validate(c)),
              ElementsAre("/data/path: not found: \"" + c.data.path.substr(0, 40) +
                          (c.data.path.size() > 40 ? "...\"" : "\"")));
  EXPECT_THAT(validate(c, ValidateOptions{false}), IsEmpty());  // remote runs: not checked here
  c.data.path = dir.write("mnist.idx", "x");
  EXPECT_THAT(validate(c), IsEmpty());
  c.data.path = dir.file("");  // a directory of IDX files
  EXPECT_THAT(validate(c), IsEmpty());
}

TEST(Validate, SyntheticIgnoresPath) {
  RunConfig c;
  c.data.path = "/no/such/file";
  EXPECT_THAT(validate(c), IsEmpty());
}

}  // namespace
}  // namespace moe::protocol
