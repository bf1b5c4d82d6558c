// moe-train analyze --model DIR_OR_RUN --data CORPUS (docs/INFERENCE.md, "Routing analysis"): a
// corpus through a decoder without training, each MoE layer's routing counted (infer/analysis.h).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <map>
#include <memory>

#include "commands.h"
#include "data/batch_source.h"
#include "infer/analysis.h"
#include "io/safetensors.h"
#include "layer/load_metrics.h"
#include "model/decoder_model.h"
#include "model_input.h"
#include "protocol/telemetry_writer.h"
#include "train/input_error.h"
#include "train/layer_capture.h"

namespace moe::train {

namespace {

namespace fs = std::filesystem;

// Where a run directory keeps its analysis when --out is not given (docs/INFERENCE.md, "Routing
// analysis"; the app's run report reads it there).
constexpr const char* kRunAnalysis = "analysis/analysis.json";

struct AnalyzeOptions {
  std::string model_path, data_path, data_kind, out_path, tokens_out, dtype, capture_dir;
  std::vector<double> capacity_factors{1.0, 1.25, 2.0};
  int64_t tokens = 0, batch_size = 0;
  std::vector<std::string> overrides;
};

// --data-kind, else the model's own corpus kind, else from the path (*.jsonl or a folder: jsonl;
// PREFIX.bin beside PREFIX.idx: megatron; otherwise text).
protocol::DataKind data_kind(const AnalyzeOptions& o, protocol::DataKind own) {
  using protocol::DataKind;
  if (o.data_kind == "text") return DataKind::Text;
  if (o.data_kind == "jsonl") return DataKind::Jsonl;
  if (o.data_kind == "megatron") return DataKind::Megatron;
  if (!o.data_kind.empty()) {
    throw InputError("--data-kind: '" + o.data_kind + "' is not text, jsonl or megatron");
  }
  if (own == DataKind::Text || own == DataKind::Jsonl || own == DataKind::Megatron) return own;
  const fs::path p(o.data_path);
  if (fs::exists(p.string() + ".bin") && fs::exists(p.string() + ".idx")) return DataKind::Megatron;
  if (p.extension() == ".jsonl") return DataKind::Jsonl;
  return DataKind::Text;
}

// A byte token's text: the character for ASCII, "<0xNN>" for a byte of a longer UTF-8 sequence.
std::string byte_piece(int64_t id) {
  if (id >= 0 && id < 0x80) return std::string(1, static_cast<char>(id));
  char hex[8];
  std::snprintf(hex, sizeof hex, "<0x%02X>", static_cast<unsigned>(id & 0xFF));
  return hex;
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw InputError("cannot write '" + path + "'");
}

// --capture DIR: the first batch's input of every MoE layer with the weights that routed it, as
// training's captures are written (train/layer_capture.h), and the model's config.json beside
// them, so that `moe-train replay` and the app's What-if view open them. One `capture` event per
// file on stdout (step 0: no training step).
class AnalysisCapture {
 public:
  explicit AnalysisCapture(std::string dir) : dir_(std::move(dir)) {}

  void take(size_t index, layer::MoeLayerImpl& moe, const at::Tensor& x) {
    if (open_ && !taken_.count(index)) taken_.emplace(index, capture_layer(moe, "", x));
  }

  // Ends taking; writes the files. Per MoE layer index, the file's name in the directory.
  std::map<size_t, std::string> write(const protocol::RunConfig& config) {
    open_ = false;
    std::map<size_t, std::string> names;
    std::error_code ec;
    fs::create_directories(dir_, ec);
    if (ec) throw InputError("--capture: cannot create '" + dir_ + "': " + ec.message());
    protocol::save_config_file((fs::path(dir_) / "config.json").string(), config);
    protocol::TelemetryWriter telemetry(&std::cout, "");
    for (auto& [index, captured] : taken_) {
      const auto name = LayerCapture::file_name(static_cast<int64_t>(index));
      const auto path = (fs::path(dir_) / name).string();
      protocol::CaptureEvent e;
      e.layer = static_cast<int64_t>(index);
      e.path = name;  // relative to the directory, as a run's captures are to the run
      e.tokens = captured.input.size(0);
      io::write_safetensors(path, capture_file(std::move(captured)));
      e.bytes = static_cast<int64_t>(fs::file_size(path));
      telemetry.write_event(e);
      names[index] = name;
    }
    taken_.clear();
    return names;
  }

 private:
  std::string dir_;
  bool open_ = true;
  std::map<size_t, CapturedLayer> taken_;
};

int run_analyze(const AnalyzeOptions& o) {
  ModelInput input = with_overrides(read_model_input(o.model_path), o.overrides);
  require_decoder(input, "analyze");
  if (!fs::exists(o.data_path)) throw InputError("--data: '" + o.data_path + "' does not exist");
  if (o.tokens < 0) throw InputError("--tokens: must be >= 0");
  if (o.batch_size < 0) throw InputError("--batch-size: must be >= 0");
  auto config = input.config;
  config.data.kind = data_kind(o, config.data.kind);
  config.data.path = o.data_path;
  infer::AnalysisOptions options;
  options.capacity_factors = o.capacity_factors;
  std::unique_ptr<AnalysisCapture> capture;
  if (!o.capture_dir.empty()) {
    capture = std::make_unique<AnalysisCapture>(o.capture_dir);
    options.on_input = [&capture](size_t i, layer::MoeLayerImpl& moe, const at::Tensor& x) {
      capture->take(i, moe, x);
    };
  }
  std::string out_path = o.out_path;
  if (out_path.empty() && !input.run_dir.empty()) {
    out_path = (fs::path(input.run_dir) / kRunAnalysis).string();
  }

  const auto scalar = compute_dtype(input, o.dtype);
  auto built = build_model(input, scalar);
  built->eval();
  auto& decoder = dynamic_cast<model::DecoderModelImpl&>(*built);
  data::SourceOptions source_options;
  source_options.run_tokenizer_dir = input.tokenizer_dir;
  auto source = data::make_batch_source(config, at::kCPU, source_options);
  const int64_t batch = o.batch_size > 0 ? o.batch_size : config.train.batch_size;
  const int64_t per_batch = batch * config.model.seq_len;
  const int64_t wanted = o.tokens > 0 ? o.tokens : source->train_samples() * config.model.seq_len;
  const int64_t batches = std::max<int64_t>(1, (wanted + per_batch - 1) / per_batch);
  std::cerr << "analyze: " << input.what << " on " << source->describe() << ", " << batches
            << " batches of " << batch << " x " << config.model.seq_len << " tokens\n";

  infer::RoutingAnalysis analysis(decoder, options);
  nlohmann::json ids = nlohmann::json::array();
  std::map<size_t, std::string> captured;
  for (int64_t b = 0; b < batches; ++b) {
    const auto inputs = source->next_train(batch).inputs;
    analysis.add_batch(inputs);
    if (capture && b == 0) captured = capture->write(config);
    if (!o.tokens_out.empty()) {
      const auto rows = inputs.to(at::kLong).contiguous();
      for (int64_t r = 0; r < rows.size(0); ++r) {
        const int64_t* p = rows[r].data_ptr<int64_t>();
        ids.push_back(std::vector<int64_t>(p, p + rows.size(1)));
      }
    }
    std::cerr << "\ranalyze: batch " << (b + 1) << "/" << batches << ", " << analysis.tokens()
              << " tokens" << std::flush;
  }
  std::cerr << "\n";

  const auto tokenizer = read_tokenizer(input);
  std::function<std::string(int64_t)> piece;
  if (tokenizer) {
    piece = [&](int64_t id) { return tokenizer->decode({static_cast<std::uint32_t>(id)}, false); };
  } else if (config.data.kind == protocol::DataKind::Text) {
    piece = byte_piece;  // text without a tokenizer is read one token per byte
  }
  nlohmann::json report = analysis.report(piece);
  report["model"] = input.what;
  report["data"] = o.data_path;
  report["batch_size"] = batch;
  report["seq_len"] = config.model.seq_len;
  if (capture) {
    report["capture_dir"] = fs::absolute(o.capture_dir).lexically_normal().string();
    for (const auto& [index, name] : captured) report["layers"][index]["capture"] = name;
  }
  if (!out_path.empty()) {
    const auto parent = fs::path(out_path).parent_path();
    std::error_code ec;
    if (!parent.empty()) fs::create_directories(parent, ec);
    // A piece may be part of a character (byte-level tokenizers): written replaced, not refused.
    write_text(out_path,
               report.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    std::cerr << "analyze: wrote " << out_path << "\n";
  }
  if (!o.tokens_out.empty()) write_text(o.tokens_out, ids.dump() + "\n");

  for (const auto& a : analysis.layers()) {
    const auto b = layer::load_stats_from_counts(a.load, a.load, 0);
    std::cerr << "layer " << a.layer << ": cv " << b.cv << ", max/mean " << b.max_over_mean
              << ", dead " << b.dead_experts;
    for (size_t f = 0; f < a.dropped.size(); ++f) {
      std::cerr << ", drop@" << options.capacity_factors[f] << " "
                << 100.0 * static_cast<double>(a.dropped[f]) /
                       static_cast<double>(std::max<int64_t>(a.tokens * a.top_k, 1))
                << "%";
    }
    std::cerr << "\n";
  }
  return kExitOk;
}

}  // namespace

Command add_analyze_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "analyze", "Run a corpus through a decoder and record each MoE layer's routing (JSON)");
  auto o = std::make_shared<AnalyzeOptions>();
  cmd->add_option("--model", o->model_path,
                  "Hugging Face model folder, run directory or checkpoint step directory")
      ->required();
  cmd->add_option("--data", o->data_path, "corpus: text, JSON Lines or a Megatron prefix")
      ->required();
  cmd->add_option("--data-kind", o->data_kind,
                  "text, jsonl or megatron (default: the model's own, else from the path)");
  cmd->add_option("--tokens", o->tokens, "tokens to analyse (default: one pass over the corpus)");
  cmd->add_option("--batch-size", o->batch_size, "sequences per batch (default train.batch_size)");
  cmd->add_option("--capacity-factors", o->capacity_factors,
                  "comma-separated capacity factors for the dropped share")
      ->delimiter(',')
      ->check(positive_number())
      ->capture_default_str();
  cmd->add_option("--out", o->out_path,
                  "JSON file to write (default for a run directory: <run>/analysis/analysis.json)");
  cmd->add_option("--capture", o->capture_dir,
                  "write each MoE layer's input of the first batch and its weights to DIR "
                  "(layer-<i>.safetensors and config.json: replay and the What-if view read them)");
  cmd->add_option("--tokens-out", o->tokens_out,
                  "write the analysed token ids (forward's --tokens format)");
  cmd->add_option("--dtype", o->dtype, "compute in float32, float64 or bfloat16");
  cmd->add_option("--set", o->overrides, "Override a key of the model's config: key.path=value")
      ->type_name("KEY=VALUE");
  return [o]() { return run_analyze(*o); };
}

}  // namespace moe::train
