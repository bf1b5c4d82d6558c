// RunConfig: defaults, JSON round trip, structural parse problems, files.
#include "protocol/run_config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "test_util.h"

namespace moe::protocol {
namespace {

using testing::contains;
using ::testing::ElementsAre;
using testing::formatted;
using ::testing::HasSubstr;
using testing::pointers;
using testing::TempDir;
using json = nlohmann::json;

std::vector<ConfigProblem> problems_of(const json& j) {
  std::vector<ConfigProblem> problems;
  parse_config(j, &problems);
  return problems;
}

TEST(RunConfigDefaults, MatchSpec) {
  const json j = to_json(RunConfig{});
  // Written out from docs/PROTOCOL.md, "RunConfig", independently of the struct initialisers (plus
  // model.tie_embeddings, our addition for the lm's tied or untied output head, and the decoder's
  // keys of docs/MODELS.md).
  const json expected = json::parse(R"({
    "schema": 1, "name": "demo", "seed": 1,
    "model": {"kind": "helloworld", "dim": 512, "layers": 1, "heads": 8, "seq_len": 128,
              "vocab": 256, "tie_embeddings": true, "family": "mixtral", "kv_heads": 0,
              "head_dim": 0, "rope_theta": 10000.0, "norm_eps": 1e-6, "qkv_bias": false,
              "qk_norm": "none", "dense_hidden": 0, "dense_layers": "",
              "pad_token": -1, "rope_interleave": false, "attention": "gqa", "q_lora_rank": 0,
              "kv_lora_rank": 128, "qk_rope_dim": 32, "qk_nope_dim": 64, "v_head_dim": 64,
              "o_bias": false, "attention_sinks": false, "sliding_window": 0,
              "sliding_layers": "", "rope_scaling": "none", "rope_factor": 1.0,
              "rope_original_max": 4096, "rope_beta_fast": 32.0, "rope_beta_slow": 1.0,
              "rope_truncate": true, "rope_mscale": 0.0, "rope_mscale_all_dim": 0.0},
    "moe": {"experts": 8, "top_k": 2, "hidden": 2048, "activation": "gelu", "gate": "top",
            "capacity_factor": 1.0, "gate_noise": 0.0, "fp32_gate": true, "normalize_gate": true,
            "batch_prioritized_routing": false, "postscore": true, "fc1_bias": true,
            "fc2_bias": true, "aux_loss": "gshard", "cosine_proj_dim": 256, "cosine_init_t": 0.5,
            "every": 1, "bias_balancing": {"enabled": false, "rate": 0.001},
            "router": "softmax_top_k", "expert_ffn": "mlp", "shared_hidden": 0,
            "shared_gate": false, "score_function": "softmax", "expert_groups": 1,
            "topk_groups": 1, "group_score": "max", "routed_scaling": 1.0, "gate_bias": false,
            "swiglu_limit": 0.0, "swiglu_alpha": 1.0},
    "parallel": {"nodes": 1, "nproc": 1, "backend": "auto", "expert_parallel": true,
                 "adaptive_r": 1, "a2a_overlap_degree": 1, "timeout_s": 300.0},
    "train": {"steps": 100, "batch_size": 16, "grad_accum": 1, "optimizer": "adamw", "lr": 0.001,
              "weight_decay": 0.0, "momentum": 0.0, "schedule": "constant", "warmup_steps": 0,
              "dtype": "float32", "amp": false, "clip_grad_norm": 0.0, "aux_loss_weight": 0.01,
              "z_loss_weight": 0.0, "eval_every": 0, "eval_batches": 10, "checkpoint_every": 0,
              "keep_checkpoints": 2, "device": "auto", "threads": 0},
    "data": {"kind": "synthetic", "path": "", "val_fraction": 0.1, "tokenizer": "",
             "text_field": "text", "eos_token": -1, "cache_dir": ""},
    "telemetry": {"every": 1, "expert_load": true, "phases": true, "trace": false,
                  "capture_every": 0, "capture_max_mb": 256, "tensorboard": false}})");
  EXPECT_EQ(j, expected) << j.dump(2);
  // Types matter to overrides: integers stay integers, doubles stay doubles.
  EXPECT_TRUE(j["moe"]["experts"].is_number_integer());
  EXPECT_TRUE(j["moe"]["capacity_factor"].is_number_float());
  EXPECT_TRUE(j["train"]["weight_decay"].is_number_float());
  EXPECT_TRUE(j["parallel"]["timeout_s"].is_number_float());
}

TEST(RunConfigJson, AdaptiveRAutoIsWrittenAndReadAsAuto) {
  RunConfig c;
  c.parallel.adaptive_r = kAdaptiveRAuto;
  const json j = to_json(c);
  EXPECT_EQ(j["parallel"]["adaptive_r"], "auto");
  EXPECT_EQ(config_from_json(j).parallel.adaptive_r, kAdaptiveRAuto);
  EXPECT_EQ(config_from_json(json::parse(R"({"parallel": {"adaptive_r": 0}})")).parallel.adaptive_r,
            0);
}

TEST(RunConfigParse, AdaptiveRTakesAnIntegerAtLeastZeroOrAuto) {
  std::vector<ConfigProblem> problems;
  parse_config(json::parse(R"({"parallel": {"adaptive_r": "fast"}})"), &problems);
  parse_config(json::parse(R"({"parallel": {"adaptive_r": -1}})"), &problems);
  parse_config(json::parse(R"({"parallel": {"adaptive_r": 1.5}})"), &problems);
  parse_config(json::parse(R"({"parallel": {"adaptive_r": "AUTO"}})"), &problems);
  EXPECT_THAT(
      formatted(problems),
      ElementsAre(R"(/parallel/adaptive_r: expected an integer >= 0 or "auto", got "fast")",
                  R"(/parallel/adaptive_r: expected an integer >= 0 or "auto", got number -1)",
                  R"(/parallel/adaptive_r: expected an integer >= 0 or "auto", got number 1.5)",
                  R"(/parallel/adaptive_r: expected an integer >= 0 or "auto", got "AUTO")"));
}

TEST(RunConfigParse, AdaptiveRIsAKnownKey) {
  std::vector<ConfigProblem> problems;
  parse_config(json::parse(R"({"parallel": {"adaptive_r": 2, "adaptive": 1}})"), &problems);
  EXPECT_THAT(formatted(problems),
              ElementsAre(R"(/parallel/adaptive: unknown key (did you mean "adaptive_r"?))"));
}

TEST(RunConfigDefaults, EmptyObjectGivesDefaults) {
  EXPECT_EQ(to_json(config_from_json(json::object())), to_json(RunConfig{}));
}

TEST(RunConfigJson, RoundTripOfNonDefaults) {
  RunConfig c;
  c.name = "round-trip_1.x";
  c.seed = -7;
  c.model.kind = moe::protocol::ModelKind::Lm;
  c.model.dim = 64;
  c.moe.experts = 16;
  c.moe.top_k = 1;
  c.moe.capacity_factor = -1.25;
  c.moe.gate = moe::protocol::Gate::Cosine;
  c.moe.postscore = false;
  c.moe.bias_balancing.enabled = true;
  c.moe.bias_balancing.rate = 0.5;
  c.parallel.backend = moe::protocol::Backend::Gloo;
  c.train.lr = 3e-4;
  c.train.threads = 2;
  c.data.path = "/tmp/x y";
  c.telemetry.trace = true;
  const json j = to_json(c);
  RunConfig back = config_from_json(j);
  EXPECT_EQ(to_json(back), j);
  EXPECT_EQ(back.moe.capacity_factor, -1.25);
  EXPECT_EQ(back.train.lr, 3e-4);
  EXPECT_EQ(back.seed, -7);
  EXPECT_TRUE(back.moe.bias_balancing.enabled);
  EXPECT_EQ(back.data.path, "/tmp/x y");
}

TEST(RunConfigJson, OrderedJsonKeepsSpecOrder) {
  nlohmann::ordered_json j = to_ordered_json(RunConfig{});
  std::vector<std::string> keys;
  for (const auto& item : j.items()) keys.push_back(item.key());
  EXPECT_THAT(keys, ElementsAre("schema", "name", "seed", "model", "moe", "parallel", "train",
                                "data", "telemetry"));
  EXPECT_EQ(j["moe"].begin().key(), "experts");
  EXPECT_EQ(json::parse(j.dump()), to_json(RunConfig{}));
}

TEST(RunConfigParse, UnknownKeysAtEveryLevel) {
  json j = json::parse(R"({"nmae": "x", "model": {"dimm": 4},
    "moe": {"bias_balancing": {"enabled": true, "speed": 1}}, "extra": {}})");
  auto problems = problems_of(j);
  EXPECT_THAT(pointers(problems),
              ElementsAre("/model/dimm", "/moe/bias_balancing/speed", "/extra", "/nmae"));
  EXPECT_EQ(format_problem(problems[0]), "/model/dimm: unknown key (did you mean \"dim\"?)");
  EXPECT_EQ(problems[1].message, "unknown key");
}

TEST(RunConfigParse, UnknownKeyPointerIsEscaped) {
  auto problems = problems_of(json::parse(R"({"model": {"a/b~c": 1}})"));
  EXPECT_THAT(pointers(problems), ElementsAre("/model/a~1b~0c"));
}

TEST(RunConfigParse, WrongTypesAllReported) {
  json j = json::parse(R"({"seed": true, "model": {"kind": 3, "dim": "512"},
    "moe": {"experts": "8", "capacity_factor": "1", "fp32_gate": 1},
    "parallel": [], "train": {"lr": null}})");
  auto problems = problems_of(j);
  EXPECT_THAT(formatted(problems),
              ElementsAre("/seed: expected an integer, got boolean true",
                          "/model/kind: expected a string, got number 3",
                          "/model/dim: expected an integer, got string \"512\"",
                          "/moe/experts: expected an integer, got string \"8\"",
                          "/moe/capacity_factor: expected a number, got string \"1\"",
                          "/moe/fp32_gate: expected true or false, got number 1",
                          "/parallel: expected an object, got array",
                          "/train/lr: expected a number, got null"));
}

TEST(RunConfigParse, IntegersWrittenAsIntegralFloats) {
  RunConfig c = config_from_json(json::parse(R"({"moe": {"experts": 8.0, "top_k": 1e0}})"));
  EXPECT_EQ(c.moe.experts, 8);
  EXPECT_EQ(c.moe.top_k, 1);
  auto problems = problems_of(json::parse(R"({"moe": {"experts": 8.5}})"));
  EXPECT_THAT(formatted(problems),
              ElementsAre("/moe/experts: expected an integer, got number 8.5"));
}

TEST(RunConfigParse, IntegerOverflowIsAProblemNotUB) {
  auto problems = problems_of(json::parse(
      R"({"seed": 18446744073709551615, "model": {"dim": 1e300}, "moe": {"experts": -9.3e18},)"
      R"("train": {"steps": -9223372036854775809, "threads": 9007199254740994.0}})"));
  // -9223372036854775809 would round to -2^63 as a double: refused, not silently changed.
  EXPECT_THAT(pointers(problems),
              ElementsAre("/seed", "/model/dim", "/moe/experts", "/train/steps", "/train/threads"));
  for (const auto& p : problems) EXPECT_THAT(p.message, HasSubstr("(out of range)"));
  // The extremes that do fit are read exactly.
  RunConfig c = config_from_json(
      json::parse(R"({"seed": 9223372036854775807, "train": {"steps": -9223372036854775808}})"));
  EXPECT_EQ(c.seed, std::numeric_limits<int64_t>::max());
  EXPECT_EQ(c.train.steps, std::numeric_limits<int64_t>::min());
}

TEST(RunConfigParse, DoublesAcceptIntegers) {
  RunConfig c = config_from_json(json::parse(R"({"train": {"lr": 1, "clip_grad_norm": 2}})"));
  EXPECT_EQ(c.train.lr, 1.0);
  EXPECT_EQ(c.train.clip_grad_norm, 2.0);
}

TEST(RunConfigParse, RootMustBeAnObject) {
  for (const char* text : {"[]", "3", "\"x\"", "null"}) {
    auto problems = problems_of(json::parse(text));
    ASSERT_EQ(problems.size(), 1u) << text;
    EXPECT_EQ(problems[0].pointer, "");
    EXPECT_THAT(problems[0].message, HasSubstr("expected a JSON object")) << text;
  }
}

TEST(RunConfigParse, OtherSchemaVersionIsOneProblem) {
  auto problems = problems_of(json::parse(R"({"schema": 2, "brand_new": 1})"));
  EXPECT_THAT(formatted(problems),
              ElementsAre("/schema: unsupported schema version 2 (this build reads 1)"));
}

TEST(RunConfigParse, ConfigErrorCarriesEveryProblem) {
  try {
    config_from_json(json::parse(R"({"x": 1, "model": {"dim": "a"}})"));
    FAIL() << "no exception";
  } catch (const ConfigError& e) {
    ASSERT_EQ(e.problems().size(), 2u);
    EXPECT_EQ(std::string(e.what()),
              "/model/dim: expected an integer, got string \"a\"\n/x: unknown key");
  }
}

TEST(RunConfigParse, LongStringValuesAreCutInMessages) {
  auto problems = problems_of(json{{"seed", std::string(1000, 'z')}});
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_LT(problems[0].message.size(), 100u);
  EXPECT_THAT(problems[0].message, HasSubstr("...\""));
}

TEST(RunConfigFile, SaveThenLoad) {
  TempDir dir;
  RunConfig c;
  c.name = "saved";
  c.moe.top_k = 1;
  const std::string path = dir.file("config.json");
  save_config_file(path, c);
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  EXPECT_EQ(to_json(load_config_file(path)), to_json(c));
  // Saving again replaces the file.
  c.name = "again";
  save_config_file(path, c);
  EXPECT_EQ(load_config_file(path).name, "again");
}

TEST(RunConfigFile, MissingFileNamesTheFile) {
  TempDir dir;
  const std::string path = dir.file("nope.json");
  try {
    load_config_file(path);
    FAIL() << "no exception";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_EQ(std::string(e.what()), path + ": file not found");
  }
}

TEST(RunConfigFile, DirectoryIsNotAConfig) {
  TempDir dir;
  try {
    load_config_file(dir.file(""));
    FAIL() << "no exception";
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), HasSubstr("is a directory"));
  }
}

TEST(RunConfigFile, SyntaxErrorNamesFileLineAndColumn) {
  TempDir dir;
  const std::string path = dir.write("bad.json", "{\n  \"name\": \"x\",\n  \"seed\": 1,,\n}\n");
  try {
    load_config_file(path);
    FAIL() << "no exception";
  } catch (const ConfigError& e) {
    std::string what = e.what();
    EXPECT_TRUE(contains(what, path + ": line 3, column 13: invalid JSON: ")) << what;
  }
}

TEST(RunConfigFile, EmptyFileIsASyntaxError) {
  TempDir dir;
  const std::string path = dir.write("empty.json", "");
  try {
    load_config_file(path);
    FAIL() << "no exception";
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), HasSubstr("line 1, column 1: invalid JSON"));
  }
}

TEST(RunConfigFile, ProblemsInAFileNameTheFile) {
  TempDir dir;
  const std::string path = dir.write("p.json", R"({"moe": {"experts": "8"}, "x": 0})");
  try {
    load_config_file(path);
    FAIL() << "no exception";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), path +
                                         ": /moe/experts: expected an integer, got string \"8\"\n" +
                                         path + ": /x: unknown key");
  }
}

TEST(RunConfigFile, SaveIntoMissingDirectoryThrows) {
  TempDir dir;
  EXPECT_THROW(save_config_file(dir.file("no/such/dir/c.json"), RunConfig{}), std::runtime_error);
}

}  // namespace
}  // namespace moe::protocol
