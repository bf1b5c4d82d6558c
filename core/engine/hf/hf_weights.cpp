#include "hf/hf_weights.h"

#include <map>
#include <optional>
#include <vector>

#include "hf/hf_error.h"
#include "protocol/decoder_layout.h"

namespace moe::hf {

using protocol::ModelFamily;

namespace {

// The MoE block's module name in the checkpoint: Mixtral's legacy files say block_sparse_moe.
bool is_moe_prefix(const std::string& s) {
  return s == "mlp" || s == "block_sparse_moe";
}

enum class Part { Gate, Up, Down };

std::optional<Part> expert_part(const std::string& name) {
  if (name == "w1" || name == "gate_proj") return Part::Gate;
  if (name == "w3" || name == "up_proj") return Part::Up;
  if (name == "w2" || name == "down_proj") return Part::Down;
  return std::nullopt;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == '.') {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

std::string join(const std::vector<std::string>& parts, size_t from) {
  std::string out;
  for (size_t i = from; i < parts.size(); ++i) out += (i > from ? "." : "") + parts[i];
  return out;
}

bool is_index(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

// One layer's experts, per expert, as [H, M] (gate, up) and [H, M] (down, transposed).
struct ExpertStacks {
  std::map<int64_t, at::Tensor> gate, up, down;
};

// GPT-OSS's MoE block: `router` (weight and bias) and fused experts whose gate_up_proj
// [E, M, 2H] interleaves gate and up columns (gate at even, up at odd), with biases [E, 2H];
// down_proj is [E, H, M] (our layout) with a bias [E, M]. False for a name it does not know.
bool gpt_oss_expert_tensor(const std::string& inner, const at::Tensor& t, const std::string& prefix,
                           io::TensorMap& ours) {
  const std::string experts = prefix + "moe.experts.batched_";
  if (inner == "router.weight" || inner == "router.bias") {
    ours[prefix + "moe.gates.0.wg." + inner.substr(7)] = t;
  } else if (inner == "experts.gate_up_proj") {
    const int64_t width = t.size(2);
    ours[experts + "gate_w"] = t.slice(2, 0, width, 2).transpose(1, 2);
    ours[experts + "up_w"] = t.slice(2, 1, width, 2).transpose(1, 2);
  } else if (inner == "experts.gate_up_proj_bias") {
    const int64_t width = t.size(1);
    ours[experts + "gate_bias"] = t.slice(1, 0, width, 2);
    ours[experts + "up_bias"] = t.slice(1, 1, width, 2);
  } else if (inner == "experts.down_proj") {
    ours[experts + "down_w"] = t;
  } else if (inner == "experts.down_proj_bias") {
    ours[experts + "down_bias"] = t;
  } else {
    return false;
  }
  return true;
}

// Our GPT-OSS layer's tensors in its checkpoint's names and fused layout.
void gpt_oss_to_hf(const std::string& layer, const std::string& rest, const io::TensorMap& ours,
                   io::TensorMap& hf) {
  const std::string hf_prefix = "model.layers." + layer + ".mlp.";
  const std::string experts = "layers." + layer + ".moe.experts.batched_";
  const auto interleave = [](const at::Tensor& gate, const at::Tensor& up) {
    auto both = at::stack({gate, up}, -1);  // [..., H, 2]
    auto sizes = gate.sizes().vec();
    sizes.back() *= 2;
    return both.reshape(sizes).contiguous();
  };
  if (rest == "moe.gates.0.wg.weight" || rest == "moe.gates.0.wg.bias") {
    hf[hf_prefix + "router." + rest.substr(std::string("moe.gates.0.wg.").size())] =
        ours.at("layers." + layer + "." + rest);
  } else if (rest == "moe.experts.batched_gate_w") {
    hf[hf_prefix + "experts.gate_up_proj"] = interleave(ours.at(experts + "gate_w").transpose(1, 2),
                                                        ours.at(experts + "up_w").transpose(1, 2));
  } else if (rest == "moe.experts.batched_gate_bias") {
    hf[hf_prefix + "experts.gate_up_proj_bias"] =
        interleave(ours.at(experts + "gate_bias"), ours.at(experts + "up_bias"));
  } else if (rest == "moe.experts.batched_down_w") {
    hf[hf_prefix + "experts.down_proj"] = ours.at(experts + "down_w").contiguous();
  } else if (rest == "moe.experts.batched_down_bias") {
    hf[hf_prefix + "experts.down_proj_bias"] = ours.at(experts + "down_bias").contiguous();
  } else if (rest != "moe.experts.batched_up_w" && rest != "moe.experts.batched_up_bias") {
    throw HfError("export-hf: no GPT-OSS name for \"layers." + layer + "." + rest + "\"");
  }
}

}  // namespace

io::TensorMap weights_from_hf(const protocol::RunConfig& config, const io::TensorMap& hf,
                              const std::string& where) {
  const bool gpt_oss = config.model.family == ModelFamily::GptOss;
  io::TensorMap ours;
  std::map<int64_t, ExpertStacks> experts;
  std::vector<std::string> unknown;
  const auto moe_mask = protocol::moe_layer_mask(config);
  for (const auto& [name, tensor] : hf) {
    const auto p = split(name);
    if (name == "lm_head.weight") {
      ours["lm_head.weight"] = tensor;
      continue;
    }
    if (p.size() < 2 || p[0] != "model") {
      unknown.push_back(name);
      continue;
    }
    if (name == "model.embed_tokens.weight" || name == "model.norm.weight") {
      ours[join(p, 1)] = tensor;
      continue;
    }
    if (p.size() < 5 || p[1] != "layers" || !is_index(p[2])) {
      unknown.push_back(name);
      continue;
    }
    const int64_t layer = std::stoll(p[2]);
    const std::string prefix = "layers." + p[2] + ".";
    const std::string rest = join(p, 3);
    if (p[3] == "input_layernorm" || p[3] == "post_attention_layernorm" || p[3] == "self_attn") {
      if (rest.find("rotary_emb.") != std::string::npos) continue;  // derived, not a weight
      ours[prefix + rest] = tensor;
      continue;
    }
    const bool sparse =
        layer < static_cast<int64_t>(moe_mask.size()) && moe_mask[static_cast<size_t>(layer)];
    if (!is_moe_prefix(p[3])) {
      unknown.push_back(name);
      continue;
    }
    const std::string inner = join(p, 4);
    if (!sparse) {  // a dense layer's MLP
      if (p[3] == "mlp" && (inner == "gate_proj.weight" || inner == "up_proj.weight" ||
                            inner == "down_proj.weight")) {
        ours[prefix + "mlp." + inner] = tensor;
      } else {
        unknown.push_back(name);
      }
      continue;
    }
    if (gpt_oss) {
      if (!gpt_oss_expert_tensor(inner, tensor, prefix, ours)) unknown.push_back(name);
      continue;
    }
    if (inner == "gate.weight") {
      ours[prefix + "moe.gates.0.wg.weight"] = tensor;
    } else if (inner == "gate.e_score_correction_bias" && config.moe.bias_balancing.enabled) {
      ours[prefix + "moe.selection_bias"] = tensor;  // DeepSeek-V3's: for the choice only
    } else if (p[4] == "shared_experts" && p.size() == 7 && tensor.numel() == 0 &&
               config.moe.shared_hidden == 0) {
      continue;  // DeepSeek with n_shared_experts 0 still saves an MLP of width 0
    } else if ((p[4] == "shared_expert" || p[4] == "shared_experts") && p.size() == 7) {
      ours[prefix + "shared_expert." + join(p, 5)] = tensor;  // Qwen2-MoE's one, DeepSeek's
    } else if (inner == "shared_expert_gate.weight") {
      ours[prefix + inner] = tensor;
    } else if (inner == "experts.gate_up_proj") {  // [E, 2H, M]: gate rows, then up rows
      const int64_t h = tensor.size(1) / 2;
      ours[prefix + "moe.experts.batched_gate_w"] = tensor.narrow(1, 0, h);
      ours[prefix + "moe.experts.batched_up_w"] = tensor.narrow(1, h, h);
    } else if (inner == "experts.down_proj") {  // [E, M, H]
      ours[prefix + "moe.experts.batched_down_w"] = tensor.transpose(1, 2);
    } else if (p[4] == "experts" && p.size() == 8 && is_index(p[5]) && p[7] == "weight" &&
               expert_part(p[6])) {
      const int64_t e = std::stoll(p[5]);
      auto& stacks = experts[layer];
      switch (*expert_part(p[6])) {
        case Part::Gate:
          stacks.gate[e] = tensor;
          break;
        case Part::Up:
          stacks.up[e] = tensor;
          break;
        case Part::Down:
          stacks.down[e] = tensor.t();  // [M, H] -> [H, M]
          break;
      }
    } else {
      unknown.push_back(name);
    }
  }
  if (!unknown.empty()) {
    std::string list;
    for (size_t i = 0; i < unknown.size() && i < 8; ++i) list += (i ? ", " : "") + unknown[i];
    if (unknown.size() > 8) list += ", ... (" + std::to_string(unknown.size()) + " in all)";
    throw HfError(where + ": tensors this model has no place for: " + list);
  }
  const int64_t n_experts = config.moe.experts;
  for (auto& [layer, stacks] : experts) {
    const std::string prefix = "layers." + std::to_string(layer) + ".moe.experts.batched_";
    const std::pair<const char*, std::map<int64_t, at::Tensor>*> parts[] = {
        {"gate_w", &stacks.gate}, {"up_w", &stacks.up}, {"down_w", &stacks.down}};
    for (const auto& [suffix, per_expert] : parts) {
      std::vector<at::Tensor> list;
      for (int64_t e = 0; e < n_experts; ++e) {
        auto it = per_expert->find(e);
        if (it == per_expert->end()) {
          throw HfError(where + ": layer " + std::to_string(layer) + " has no " + suffix +
                        " weight for expert " + std::to_string(e) + " of " +
                        std::to_string(n_experts));
        }
        list.push_back(it->second);
      }
      if (static_cast<int64_t>(per_expert->size()) != n_experts) {
        throw HfError(where + ": layer " + std::to_string(layer) + " has " +
                      std::to_string(per_expert->size()) + " experts' " + suffix +
                      " weights, config.json says " + std::to_string(n_experts));
      }
      ours[prefix + suffix] = at::stack(list);
    }
  }
  return ours;
}

io::TensorMap weights_to_hf(const protocol::RunConfig& config, const io::TensorMap& ours) {
  io::TensorMap hf;
  const bool mixtral = config.model.family == ModelFamily::Mixtral;
  const bool v3 = config.model.family == ModelFamily::DeepseekV3;
  const bool deepseek = v3 || config.model.family == ModelFamily::DeepseekV2;
  const std::string moe_block = mixtral ? "block_sparse_moe" : "mlp";
  const char* gate_name = mixtral ? "w1" : "gate_proj";
  const char* up_name = mixtral ? "w3" : "up_proj";
  const char* down_name = mixtral ? "w2" : "down_proj";
  for (const auto& [name, tensor] : ours) {
    const auto p = split(name);
    if (name == "lm_head.weight") {
      hf[name] = tensor;
      continue;
    }
    if (p[0] != "layers") {
      hf["model." + name] = tensor;
      continue;
    }
    const std::string prefix = "model.layers." + p[1] + ".";
    const std::string rest = join(p, 2);
    if (p[2] == "moe" && config.model.family == ModelFamily::GptOss) {
      gpt_oss_to_hf(p[1], rest, ours, hf);
    } else if (p[2] == "moe") {
      if (rest == "moe.gates.0.wg.weight") {
        hf[prefix + moe_block + ".gate.weight"] = tensor;
        if (deepseek && config.moe.shared_hidden == 0) {
          // The reference builds its shared MLP even when n_shared_experts is 0: width 0.
          const auto width0 = tensor.new_zeros({0, tensor.size(1)});
          hf[prefix + "mlp.shared_experts.gate_proj.weight"] = width0;
          hf[prefix + "mlp.shared_experts.up_proj.weight"] = width0;
          hf[prefix + "mlp.shared_experts.down_proj.weight"] =
              tensor.new_zeros({tensor.size(1), 0});
        }
        if (v3 && ours.count("layers." + p[1] + ".moe.selection_bias") == 0) {
          // Without bias balancing the choice has no bias: the reference's is then zero.
          hf[prefix + "mlp.gate.e_score_correction_bias"] =
              at::zeros({tensor.size(0)}, tensor.options().dtype(at::kFloat));
        }
        continue;
      }
      if (rest == "moe.selection_bias") {
        if (!v3) {
          throw HfError("export-hf: \"" + name +
                        "\": aux-loss-free selection biases have a place in DeepSeek-V3's "
                        "checkpoint only (model.family \"deepseek_v3\")");
        }
        hf[prefix + "mlp.gate.e_score_correction_bias"] = tensor.to(at::kFloat);
        continue;
      }
      const char* part = rest == "moe.experts.batched_gate_w"   ? gate_name
                         : rest == "moe.experts.batched_up_w"   ? up_name
                         : rest == "moe.experts.batched_down_w" ? down_name
                                                                : nullptr;
      if (!part) throw HfError("export-hf: no Hugging Face name for \"" + name + "\"");
      const bool down = part == down_name;
      for (int64_t e = 0; e < tensor.size(0); ++e) {
        const auto w = down ? tensor[e].t() : tensor[e];
        hf[prefix + moe_block + ".experts." + std::to_string(e) + "." + part + ".weight"] =
            w.contiguous();
      }
    } else if (p[2] == "shared_expert" && deepseek) {
      hf[prefix + "mlp.shared_experts." + join(p, 3)] = tensor;
    } else if (p[2] == "shared_expert" || p[2] == "shared_expert_gate") {
      hf[prefix + "mlp." + rest] = tensor;
    } else {
      hf[prefix + rest] = tensor;  // self_attn, norms, a dense layer's mlp
    }
  }
  return hf;
}

}  // namespace moe::hf
