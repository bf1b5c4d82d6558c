// moe-train replay --serve end to end: the ready line, answers equal to the one-shot replay's for
// the same settings, gate noise drawn from the request's seed, errors answered without stopping
// the server, loading errors (exit 2), and weights under a --prefix.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>
#include <csignal>

#include <cstdio>
#include <filesystem>

#include "distributed_fixtures.h"
#include "safetensors_view.h"

namespace moe::test {
namespace {

using json = nlohmann::json;

// moe-train with a pipe on stdin and on stdout: one request line in, one answer line out.
class ServeProcess {
 public:
  explicit ServeProcess(const std::vector<std::string>& args) {
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) throw std::runtime_error("pipe failed");
    err_path_ = dir_.file("stderr");
    std::fflush(stdout);
    std::fflush(stderr);
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      dup2(in[0], 0);
      dup2(out[1], 1);
      if (!freopen(err_path_.c_str(), "w", stderr)) _exit(127);
      close(in[1]);
      close(out[0]);
      std::vector<std::string> copy = args;
      std::string bin = moe_train_path();
      std::vector<char*> argv{bin.data()};
      for (auto& a : copy) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(bin.c_str(), argv.data());
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    to_ = fdopen(in[1], "w");
    from_ = fdopen(out[0], "r");
  }
  ~ServeProcess() {
    close_input();
    if (from_) std::fclose(from_);
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }

  void send(const std::string& line) { send_bytes(line + "\n"); }
  void send_bytes(const std::string& bytes) {
    std::fwrite(bytes.data(), 1, bytes.size(), to_);
    std::fflush(to_);
  }
  // The next line of stdout ("" at its end).
  std::string read_line() {
    std::string line;
    for (int c; (c = std::fgetc(from_)) != EOF && c != '\n';) line += static_cast<char>(c);
    return line;
  }
  json ask(const json& request) {
    send(request.dump());
    return json::parse(read_line());
  }
  void close_input() {
    if (to_) std::fclose(to_);
    to_ = nullptr;
  }
  // The reader goes away: the server's next answer finds no one to read it.
  void close_output() {
    if (from_) std::fclose(from_);
    from_ = nullptr;
  }
  int wait() {
    close_input();
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  std::string err() const { return read_file(err_path_); }

 private:
  TempDir dir_;
  std::string err_path_;
  int pid_ = -1;
  FILE* to_ = nullptr;
  FILE* from_ = nullptr;
};

// A captured layer of a real run: helloworld, E = 8 (routing with drops at capacity factor 1).
struct ServeFixture : ::testing::Test {
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    json c = tiny_config("helloworld");
    c["moe"] = {{"experts", 8}, {"top_k", 2}, {"hidden", 16}};
    c["train"]["steps"] = 1;
    c["telemetry"] = {{"capture_every", 1}};
    const RankRun run = run_on_ranks(*dir_, c, 1, "run");
    config_ = run.dir + "/config.json";
    tensors_ = run.dir + "/captures/step-1/layer-0.safetensors";
  }
  static void TearDownTestSuite() { delete dir_; }

  // The one-shot replay with `moe` merged into the run's config.
  std::map<std::string, TensorView> one_shot(const json& moe, const std::string& tensors = tensors_,
                                             const std::vector<std::string>& extra = {}) {
    json config = json::parse(read_file(config_));
    config["moe"].update(moe);
    const std::string name = "one-shot-" + std::to_string(++runs_);
    std::vector<std::string> args{"replay",
                                  "--config",
                                  write_config(*dir_, name + ".json", config),
                                  "--tensors",
                                  tensors,
                                  "--out",
                                  dir_->file(name + ".safetensors")};
    args.insert(args.end(), extra.begin(), extra.end());
    auto r = run_moe_train(args);
    EXPECT_EQ(r.exit_status, 0) << r.err;
    return read_tensor_views(dir_->file(name + ".safetensors"));
  }

  static void expect_same_routing(const std::map<std::string, TensorView>& one,
                                  const json& answer) {
    ASSERT_FALSE(answer.contains("error")) << answer.dump();
    EXPECT_EQ(answer.at("capacity").get<int64_t>(), int64_values(one.at("capacity")).at(0));
    EXPECT_EQ(answer.at("expert_counts").get<std::vector<int64_t>>(),
              int64_values(one.at("expert_counts")));
    EXPECT_EQ(answer.at("expert_kept").get<std::vector<int64_t>>(),
              int64_values(one.at("expert_kept")));
    EXPECT_EQ(answer.at("l_aux").get<double>(), double_values(one.at("l_aux")).at(0));  // float32
  }

  static inline TempDir* dir_ = nullptr;
  static inline std::string config_, tensors_;
  static inline int runs_ = 0;
};

TEST_F(ServeFixture, AnswersEqualTheOneShotReplay) {
  ServeProcess serve({"replay", "--serve", "--config", config_, "--tensors", tensors_});
  const json ready = json::parse(serve.read_line());
  EXPECT_EQ(ready, (json{{"ready", true}, {"experts", 8}, {"tokens", 8 * 16}, {"dim", 32}}));
  const std::vector<json> settings = {
      json::object(),
      {{"capacity_factor", 0.5}, {"top_k", 1}},
      {{"capacity_factor", 0.0}},
      {{"capacity_factor", -1.5}, {"batch_prioritized_routing", true}},
      {{"capacity_factor", 1.25}, {"normalize_gate", false}, {"fp32_gate", false}},
      {{"top_k", 3}, {"batch_prioritized_routing", true}},
  };
  int64_t id = 0;
  for (const json& moe : settings) {
    SCOPED_TRACE(moe.dump());
    const json answer = serve.ask({{"id", ++id}, {"moe", moe}});
    EXPECT_EQ(answer.at("id"), id);
    expect_same_routing(one_shot(moe), answer);
    EXPECT_EQ(answer.at("tokens"), 8 * 16);
    EXPECT_EQ(answer.at("importance").size(), 8u);
    int64_t demand = 0, kept = 0;
    for (auto& d : answer.at("expert_counts")) demand += d.get<int64_t>();
    for (auto& k : answer.at("expert_kept")) kept += k.get<int64_t>();
    EXPECT_EQ(demand, 8 * 16 * moe.value("top_k", 2));
    EXPECT_DOUBLE_EQ(answer.at("dropped_frac").get<double>(), 1.0 - double(kept) / double(demand));
    EXPECT_GE(answer.at("ms").get<double>(), 0.0);
  }
  // A request only changes what it names: the first setting again gives the first answer.
  const json again = serve.ask({{"id", "again"}, {"moe", json::object()}});
  expect_same_routing(one_shot(json::object()), again);
  EXPECT_EQ(again.at("id"), "again");
  EXPECT_EQ(serve.wait(), 0) << serve.err();
}

TEST_F(ServeFixture, GateNoiseFollowsTheSeed) {
  ServeProcess serve({"replay", "--serve", "--config", config_, "--tensors", tensors_});
  serve.read_line();
  const json noisy = {{"gate_noise", 1.0}};
  const json a = serve.ask({{"id", 1}, {"moe", noisy}, {"seed", 7}});
  const json b = serve.ask({{"id", 2}, {"moe", noisy}, {"seed", 8}});
  const json c = serve.ask({{"id", 3}, {"moe", noisy}, {"seed", 7}});
  const json quiet = serve.ask({{"id", 4}, {"seed", 7}});
  EXPECT_EQ(a.at("expert_counts"), c.at("expert_counts"));
  EXPECT_EQ(a.at("l_aux"), c.at("l_aux"));
  EXPECT_NE(a.at("importance"), b.at("importance"));
  EXPECT_NE(a.at("importance"), quiet.at("importance"));
  expect_same_routing(one_shot(json::object()), quiet);
}

TEST_F(ServeFixture, BadRequestsAreAnsweredAndTheServerGoesOn) {
  ServeProcess serve({"replay", "--serve", "--config", config_, "--tensors", tensors_});
  serve.read_line();
  const auto error_of = [&](const std::string& line) {
    serve.send(line);
    return json::parse(serve.read_line());
  };
  json e = error_of("{\"id\": 1, \"moe\": {");
  EXPECT_TRUE(e.at("id").is_null());
  EXPECT_EQ(e.at("error").get<std::string>().rfind("line 1: not valid JSON", 0), 0u) << e;
  serve.send("");  // blank: no answer, but it is line 2
  e = error_of("[1, 2]");
  EXPECT_EQ(e, (json{{"id", nullptr}, {"error", "line 3: expected a JSON object, got array"}}));
  e = error_of(R"({"id": 7, "moe": {"top_k": 0}})");
  EXPECT_EQ(e.at("id"), 7);
  EXPECT_EQ(e.at("error").get<std::string>().rfind("/moe/top_k: ", 0), 0u) << e;
  e = error_of(R"({"id": 8, "moe": {"capacity_factor": "big"}})");
  EXPECT_EQ(e.at("id"), 8);
  EXPECT_NE(e.at("error").get<std::string>().find("/moe/capacity_factor"), std::string::npos);
  e = error_of(R"({"id": 9, "moe": {"experts": 4}})");
  EXPECT_EQ(e, (json{{"id", 9}, {"error", "/moe/experts: fixed by the tensors at 8, got 4"}}));
  e = error_of(R"({"id": 10, "moe": {"no_such_key": 1}})");
  EXPECT_NE(e.at("error").get<std::string>().find("/moe/no_such_key"), std::string::npos) << e;
  e = error_of(R"({"id": 11, "top_k": 1})");
  EXPECT_EQ(
      e, (json{{"id", 11}, {"error", "line 8: unknown key \"top_k\" (expected id, moe, seed)"}}));
  e = error_of(R"({"id": 12, "seed": 1.5})");
  EXPECT_EQ(e, (json{{"id", 12}, {"error", "/seed: expected an integer, got number 1.5"}}));
  e = error_of(R"({"id": [1], "moe": {}})");
  EXPECT_TRUE(e.at("id").is_null());
  // Still serving, with the config's settings (the failed requests changed nothing).
  const json ok = serve.ask({{"id", 13}});
  expect_same_routing(one_shot(json::object()), ok);
  EXPECT_EQ(serve.wait(), 0) << serve.err();
}

// A line past 1 MiB is refused without being kept whole, and the next request is answered.
TEST_F(ServeFixture, AHugeLineIsRefusedAndTheServerGoesOn) {
  ServeProcess serve({"replay", "--serve", "--config", config_, "--tensors", tensors_});
  serve.read_line();
  serve.send("{\"id\": 1, \"pad\": \"" + std::string(3 << 20, 'x') + "\"}");
  EXPECT_EQ(json::parse(serve.read_line()),
            (json{{"id", nullptr}, {"error", "line 1: longer than 1048576 bytes"}}));
  expect_same_routing(one_shot(json::object()), serve.ask({{"id", 2}}));
  EXPECT_EQ(serve.wait(), 0) << serve.err();
}

// A last request without its newline is still a request.
TEST_F(ServeFixture, TheEndOfInputMidLineEndsTheLastRequest) {
  ServeProcess serve({"replay", "--serve", "--config", config_, "--tensors", tensors_});
  serve.read_line();
  serve.send_bytes(R"({"id": 5})");
  serve.close_input();
  const json last = json::parse(serve.read_line());
  EXPECT_EQ(last.at("id"), 5);
  expect_same_routing(one_shot(json::object()), last);
  EXPECT_EQ(serve.read_line(), "");
  EXPECT_EQ(serve.wait(), 0) << serve.err();
}

// With SIGPIPE ignored (inherited from a parent that ignores it), a closed stdout stops the
// server with exit 1 and a message instead of leaving it computing answers no one reads.
TEST_F(ServeFixture, AClosedStdoutStopsTheServer) {
  struct sigaction ignore {
  }, before{};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, &before);
  {
    ServeProcess serve({"replay", "--serve", "--config", config_, "--tensors", tensors_});
    serve.read_line();
    serve.close_output();
    serve.send(R"({"id": 1})");
    serve.send(R"({"id": 2})");  // may find the server gone: EPIPE here, not a signal
    EXPECT_EQ(serve.wait(), 1) << serve.err();
    EXPECT_NE(serve.err().find("cannot write the answers to stdout"), std::string::npos)
        << serve.err();
  }
  sigaction(SIGPIPE, &before, nullptr);
}

TEST_F(ServeFixture, LoadingErrorsExitTwoBeforeTheReadyLine) {
  const std::string broken = dir_->write("broken.safetensors", "not a safetensors file");
  ServeProcess bad_file({"replay", "--serve", "--config", config_, "--tensors", broken});
  EXPECT_EQ(bad_file.read_line(), "");
  EXPECT_EQ(bad_file.wait(), 2);
  EXPECT_NE(bad_file.err().find("broken.safetensors"), std::string::npos) << bad_file.err();
  ServeProcess wrong_prefix(
      {"replay", "--serve", "--config", config_, "--tensors", tensors_, "--prefix", "blocks.0."});
  EXPECT_EQ(wrong_prefix.read_line(), "");
  EXPECT_EQ(wrong_prefix.wait(), 2);
  EXPECT_NE(wrong_prefix.err().find("missing tensor 'blocks.0.gates.0.wg.weight'"),
            std::string::npos)
      << wrong_prefix.err();
  auto both = run_moe_train({"replay", "--serve", "--config", config_, "--tensors", tensors_,
                             "--out", dir_->file("x.safetensors")});
  EXPECT_EQ(both.exit_status, 2);
  auto neither = run_moe_train({"replay", "--config", config_, "--tensors", tensors_});
  EXPECT_EQ(neither.exit_status, 2);
  EXPECT_NE(neither.err.find("--out"), std::string::npos) << neither.err;
}

TEST_F(ServeFixture, PrefixedWeightsAsInAModelCheckpoint) {
  // The weights under a model's module path, the input as it is.
  std::map<std::string, TensorView> prefixed;
  for (auto& [name, t] : read_tensor_views(tensors_)) {
    prefixed[name == "input" ? name : "blocks.3.moe." + name] = t;
  }
  const std::string file = dir_->file("prefixed.safetensors");
  write_tensor_views(file, prefixed);
  const json moe = {{"capacity_factor", 0.75}};
  const auto plain = one_shot(moe);
  const auto with_prefix = one_shot(moe, file, {"--prefix", "blocks.3.moe."});
  EXPECT_EQ(with_prefix.at("output").bytes, plain.at("output").bytes);
  ServeProcess serve(
      {"replay", "--serve", "--config", config_, "--tensors", file, "--prefix", "blocks.3.moe."});
  EXPECT_EQ(json::parse(serve.read_line()).at("ready"), true);
  expect_same_routing(plain, serve.ask({{"id", 1}, {"moe", moe}}));
}

}  // namespace
}  // namespace moe::test
