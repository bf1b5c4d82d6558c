// The list of RunConfig keys, written once. Serialisation, parsing and overrides all walk it, so a
// key added here is added everywhere (and the documented key order is kept in one place).
//
// A visitor provides:
//   template <class T> void field(const char* key, T& value);   // T: int64_t, double, bool, string
//   template <class F> void section(const char* key, F&& body);  // a nested object
//   template <class E> void choice(const char* key, E& value);  // E: a config_enums.h enum,
//       // written in JSON as its name
//   template <class I> void int_or_auto(const char* key, I& value, int64_t auto_value);
//       // I: int64_t. An integer >= 0, or the string "auto" in JSON, held as `auto_value`.
#pragma once

#include "protocol/run_config.h"

namespace moe::protocol::detail {

// Config is RunConfig or const RunConfig; the visitor decides whether it reads or writes.
template <class Config, class Visitor>
void visit_config(Config& c, Visitor& v) {
  v.field("schema", c.schema);
  v.field("name", c.name);
  v.field("seed", c.seed);
  v.section("model", [&] {
    auto& m = c.model;
    v.choice("kind", m.kind);
    v.field("dim", m.dim);
    v.field("layers", m.layers);
    v.field("heads", m.heads);
    v.field("seq_len", m.seq_len);
    v.field("vocab", m.vocab);
    v.field("tie_embeddings", m.tie_embeddings);
    v.choice("family", m.family);
    v.field("kv_heads", m.kv_heads);
    v.field("head_dim", m.head_dim);
    v.field("rope_theta", m.rope_theta);
    v.field("norm_eps", m.norm_eps);
    v.field("qkv_bias", m.qkv_bias);
    v.choice("qk_norm", m.qk_norm);
    v.field("dense_hidden", m.dense_hidden);
    v.field("dense_layers", m.dense_layers);
    v.field("pad_token", m.pad_token);
    v.field("rope_interleave", m.rope_interleave);
    v.choice("attention", m.attention);
    v.field("q_lora_rank", m.q_lora_rank);
    v.field("kv_lora_rank", m.kv_lora_rank);
    v.field("qk_rope_dim", m.qk_rope_dim);
    v.field("qk_nope_dim", m.qk_nope_dim);
    v.field("v_head_dim", m.v_head_dim);
    v.field("o_bias", m.o_bias);
    v.field("attention_sinks", m.attention_sinks);
    v.field("sliding_window", m.sliding_window);
    v.field("sliding_layers", m.sliding_layers);
    v.choice("rope_scaling", m.rope_scaling);
    v.field("rope_factor", m.rope_factor);
    v.field("rope_original_max", m.rope_original_max);
    v.field("rope_beta_fast", m.rope_beta_fast);
    v.field("rope_beta_slow", m.rope_beta_slow);
    v.field("rope_truncate", m.rope_truncate);
    v.field("rope_mscale", m.rope_mscale);
    v.field("rope_mscale_all_dim", m.rope_mscale_all_dim);
  });
  v.section("moe", [&] {
    auto& m = c.moe;
    v.field("experts", m.experts);
    v.field("top_k", m.top_k);
    v.field("hidden", m.hidden);
    v.choice("activation", m.activation);
    v.choice("gate", m.gate);
    v.field("capacity_factor", m.capacity_factor);
    v.field("gate_noise", m.gate_noise);
    v.field("fp32_gate", m.fp32_gate);
    v.field("normalize_gate", m.normalize_gate);
    v.field("batch_prioritized_routing", m.batch_prioritized_routing);
    v.field("postscore", m.postscore);
    v.field("fc1_bias", m.fc1_bias);
    v.field("fc2_bias", m.fc2_bias);
    v.choice("aux_loss", m.aux_loss);
    v.field("cosine_proj_dim", m.cosine_proj_dim);
    v.field("cosine_init_t", m.cosine_init_t);
    v.field("every", m.every);
    v.section("bias_balancing", [&] {
      v.field("enabled", m.bias_balancing.enabled);
      v.field("rate", m.bias_balancing.rate);
    });
    v.choice("router", m.router);
    v.choice("expert_ffn", m.expert_ffn);
    v.field("shared_hidden", m.shared_hidden);
    v.field("shared_gate", m.shared_gate);
    v.choice("score_function", m.score_function);
    v.field("expert_groups", m.expert_groups);
    v.field("topk_groups", m.topk_groups);
    v.choice("group_score", m.group_score);
    v.field("routed_scaling", m.routed_scaling);
    v.field("gate_bias", m.gate_bias);
    v.field("swiglu_limit", m.swiglu_limit);
    v.field("swiglu_alpha", m.swiglu_alpha);
  });
  v.section("parallel", [&] {
    auto& p = c.parallel;
    v.field("nodes", p.nodes);
    v.field("nproc", p.nproc);
    v.choice("backend", p.backend);
    v.field("expert_parallel", p.expert_parallel);
    v.int_or_auto("adaptive_r", p.adaptive_r, kAdaptiveRAuto);
    v.field("a2a_overlap_degree", p.a2a_overlap_degree);
    v.field("timeout_s", p.timeout_s);
  });
  v.section("train", [&] {
    auto& t = c.train;
    v.field("steps", t.steps);
    v.field("batch_size", t.batch_size);
    v.field("grad_accum", t.grad_accum);
    v.choice("optimizer", t.optimizer);
    v.field("lr", t.lr);
    v.field("weight_decay", t.weight_decay);
    v.field("momentum", t.momentum);
    v.choice("schedule", t.schedule);
    v.field("warmup_steps", t.warmup_steps);
    v.choice("dtype", t.dtype);
    v.field("amp", t.amp);
    v.field("clip_grad_norm", t.clip_grad_norm);
    v.field("aux_loss_weight", t.aux_loss_weight);
    v.field("z_loss_weight", t.z_loss_weight);
    v.field("eval_every", t.eval_every);
    v.field("eval_batches", t.eval_batches);
    v.field("checkpoint_every", t.checkpoint_every);
    v.field("keep_checkpoints", t.keep_checkpoints);
    v.choice("device", t.device);
    v.field("threads", t.threads);
  });
  v.section("data", [&] {
    auto& d = c.data;
    v.choice("kind", d.kind);
    v.field("path", d.path);
    v.field("val_fraction", d.val_fraction);
    v.field("tokenizer", d.tokenizer);
    v.field("text_field", d.text_field);
    v.field("eos_token", d.eos_token);
    v.field("cache_dir", d.cache_dir);
  });
  v.section("telemetry", [&] {
    auto& t = c.telemetry;
    v.field("every", t.every);
    v.field("expert_load", t.expert_load);
    v.field("phases", t.phases);
    v.field("trace", t.trace);
    v.field("capture_every", t.capture_every);
    v.field("capture_max_mb", t.capture_max_mb);
    v.field("tensorboard", t.tensorboard);
  });
}

}  // namespace moe::protocol::detail
