#include "train/layer_capture.h"

#include <filesystem>
#include <limits>
#include <system_error>

#include "protocol/run_layout.h"
#include "runtime/error_text.h"
#include "train/model_state.h"

namespace moe::train {

namespace {

namespace fs = std::filesystem;

constexpr int64_t kMiB = int64_t{1} << 20;

// Everything under `dir` (a resumed run's earlier captures count against the limit too).
int64_t bytes_under(const std::string& dir) {
  std::error_code ec;
  int64_t total = 0;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code size_ec;
    if (it->is_regular_file(size_ec)) {
      const auto size = it->file_size(size_ec);
      if (!size_ec) total += static_cast<int64_t>(size);
    }
  }
  return total;
}

int64_t file_bytes(const std::string& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  return ec ? 0 : static_cast<int64_t>(size);
}

// An upper bound of the safetensors file `tensors` make: the data, and per tensor at most its
// name, the dtype, 20 digits per dimension and two 20-digit offsets with the JSON around them.
int64_t file_bytes_bound(const io::TensorMap& tensors) {
  int64_t bytes = 8 + 16;  // header length, braces and padding to 8
  for (const auto& [name, t] : tensors) {
    bytes += static_cast<int64_t>(t.nbytes() + name.size()) + 128 + 21 * t.dim();
  }
  return bytes;
}

// Saturates: a limit past what int64 holds in bytes is no limit.
int64_t mib_to_bytes(int64_t mib) {
  return mib > std::numeric_limits<int64_t>::max() / kMiB ? std::numeric_limits<int64_t>::max()
                                                          : mib * kMiB;
}

std::string mib(int64_t bytes) {
  return std::to_string((bytes + kMiB - 1) / kMiB) + " MiB";
}

}  // namespace

CapturedLayer capture_layer(layer::MoeLayerImpl& module, const std::string& prefix,
                            const at::Tensor& input) {
  torch::NoGradGuard no_grad;
  CapturedLayer c;
  for (const auto& p : module.named_parameters()) {
    c.weights[prefix + p.key()] = p.value().detach().clone();
  }
  const auto dtype = module.named_parameters().front().value().scalar_type();
  c.input = input.detach().reshape({-1, input.size(-1)}).to(dtype).clone();
  if (module.config().bias_balancing.enabled) c.selection_bias = module.selection_bias().clone();
  return c;
}

io::TensorMap capture_file(CapturedLayer captured) {
  io::TensorMap file = std::move(captured.weights);
  file["input"] = std::move(captured.input);
  if (captured.selection_bias.defined())
    file["selection_bias"] = std::move(captured.selection_bias);
  return file;
}

LayerCapture::LayerCapture(const protocol::TelemetryConfig& config, const std::string& run_dir,
                           model::ModelImpl& model, const ExpertShards& shards,
                           dist::ProcessGroup& group, protocol::TelemetryWriter& telemetry,
                           RunLog& log)
    : every_(config.capture_every),
      max_bytes_(mib_to_bytes(config.capture_max_mb)),
      dir_(run_dir + "/" + protocol::run_layout::kCaptures),
      shards_(shards),
      group_(group),
      telemetry_(telemetry),
      log_(log) {
  const auto prefixed = moe_layers_by_prefix(model);
  for (const layer::MoeLayer& layer : model.moe_layers()) {
    Layer l;
    l.module = layer.ptr().get();
    for (const auto& [prefix, module] : prefixed) {
      if (module == l.module) l.prefix = prefix;
    }
    layers_.push_back(std::move(l));
  }
  if (group_.rank() == 0) used_bytes_ = bytes_under(dir_);
}

LayerCapture::~LayerCapture() {
  stop_observing();
}

std::string LayerCapture::relative_path(int64_t step, int64_t layer) {
  return std::string(protocol::run_layout::kCaptures) + "/" +
         protocol::run_layout::step_dir_name(step) + "/" + file_name(layer);
}

std::string LayerCapture::file_name(int64_t layer) {
  return "layer-" + std::to_string(layer) + ".safetensors";
}

bool LayerCapture::captures(int64_t step) const {
  return !stopped_ && every_ > 0 && step % every_ == 0 && !layers_.empty();
}

void LayerCapture::before_step(int64_t step) {
  if (!captures(step)) return;
  for (size_t i = 0; i < layers_.size(); ++i) {
    layers_[i].taken = false;
    layers_[i].module->set_input_observer([this, i](const at::Tensor& x) {
      Layer& l = layers_[i];
      if (l.taken) return;  // later micro-batches of the step
      l.taken = true;
      l.captured = capture_layer(*l.module, l.prefix, x);
    });
  }
}

void LayerCapture::stop_observing() {
  for (Layer& l : layers_) l.module->set_input_observer({});
}

std::vector<io::TensorMap> LayerCapture::gather(int64_t step) {
  std::vector<io::TensorMap> files;
  for (Layer& l : layers_) {
    if (!l.taken) {
      throw std::logic_error("capture at step " + std::to_string(step) +
                             ": a MoE layer saw no input");
    }
    CapturedLayer whole;
    // The model's names, so that the split experts are recognised; the file has the layer's own.
    for (auto& [name, t] : shards_.gather(l.captured.weights, group_)) {
      whole.weights[name.substr(l.prefix.size())] = std::move(t);
    }
    // Every rank's tokens in rank order: the batch the layer routed (docs/ROUTING.md, "Expert
    // parallelism").
    const at::Tensor& input = l.captured.input;
    whole.input = group_.all_gather(input).reshape({-1, input.size(1)});
    whole.selection_bias = std::move(l.captured.selection_bias);
    l.captured = CapturedLayer();
    files.push_back(capture_file(std::move(whole)));
  }
  return files;
}

std::string LayerCapture::file_path(int64_t step, size_t layer) const {
  return dir_ + "/step-" + std::to_string(step) + "/" + file_name(static_cast<int64_t>(layer));
}

bool LayerCapture::fits(int64_t step, const std::vector<io::TensorMap>& files) const {
  int64_t bound = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    bound += file_bytes_bound(files[i]) - file_bytes(file_path(step, i));  // a resume replaces
  }
  if (used_bytes_ + bound <= max_bytes_) return true;
  log_.warn("capturing stopped at step " + std::to_string(step) + ": its files (up to " +
            mib(bound) + ") would take captures/ past telemetry.capture_max_mb (" +
            std::to_string(max_bytes_ / kMiB) + " MiB; " + mib(used_bytes_) + " used)");
  return false;
}

protocol::CaptureEvent LayerCapture::write_file(int64_t step, size_t layer,
                                                const io::TensorMap& file) {
  const std::string path = file_path(step, layer);
  const int64_t before = file_bytes(path);
  io::write_safetensors(path, file);  // a temporary renamed into place
  protocol::CaptureEvent e;
  e.step = step;
  e.layer = static_cast<int64_t>(layer);
  e.path = relative_path(step, e.layer);
  e.bytes = file_bytes(path);
  e.tokens = file.at("input").size(0);
  used_bytes_ += e.bytes - before;
  return e;
}

bool LayerCapture::write(int64_t step, const std::vector<io::TensorMap>& files) {
  if (!fits(step, files)) return false;
  std::vector<protocol::CaptureEvent> events;
  bool written = true;
  try {
    fs::create_directories(dir_ + "/step-" + std::to_string(step));
    for (size_t i = 0; i < files.size(); ++i) events.push_back(write_file(step, i, files[i]));
  } catch (const std::exception& e) {
    log_.warn("capturing stopped: step " + std::to_string(step) +
              " could not be written: " + runtime::error_text(e));
    written = false;
  }
  // The files that reached the disk before a failure are announced too: they are complete.
  for (const auto& e : events) telemetry_.write_event(e);
  return written;
}

void LayerCapture::after_step(int64_t step) {
  if (!captures(step)) return;
  stop_observing();
  const std::vector<io::TensorMap> files = gather(step);
  bool go_on = true;
  if (group_.rank() == 0) go_on = write(step, files);
  // Rank 0 decides for every rank: the gathers are collectives.
  auto flag = at::tensor({static_cast<int64_t>(go_on)}, at::kLong);
  group_.broadcast(flag, 0);
  stopped_ = flag.item<int64_t>() == 0;
}

}  // namespace moe::train
