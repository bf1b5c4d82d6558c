#include "infer/generator.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <stdexcept>

#include "trace/phase_timer.h"

namespace moe::infer {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// A slot's sequence in progress.
struct Busy {
  size_t prompt = 0;
  int64_t last = 0;  // the token the next step feeds
};

class Generator {
 public:
  Generator(model::DecoderModelImpl& model, const std::vector<std::vector<int64_t>>& prompts,
            const GenerationOptions& options, Sampler& sampler, GenerationListener* listener)
      : model_(model),
        prompts_(prompts),
        options_(options),
        sampler_(sampler),
        listener_(listener ? listener : &silent_),
        device_(model.parameters().front().device()) {
    if (options.record_routing) recorder_.emplace(model);
    run_.generations.resize(prompts.size());
  }

  GenerationRun run() {
    int64_t longest = 0;
    for (const auto& p : prompts_) longest = std::max<int64_t>(longest, p.size());
    const int64_t slots =
        std::max<int64_t>(1, std::min<int64_t>(options_.batch_size, prompts_.size()));
    auto cache = model_.make_cache(longest + options_.max_new_tokens, slots);
    std::vector<std::optional<Busy>> busy(static_cast<size_t>(slots));
    std::deque<size_t> waiting;
    for (size_t i = 0; i < prompts_.size(); ++i) waiting.push_back(i);
    for (int64_t step = 0;; ++step) {
      fill(cache, busy, waiting);
      std::vector<int64_t> rows, fed;
      for (int64_t s = 0; s < slots; ++s) {
        if (busy[static_cast<size_t>(s)]) {
          rows.push_back(s);
          fed.push_back(busy[static_cast<size_t>(s)]->last);
        }
      }
      if (rows.empty()) break;
      decode(cache, rows, fed, busy, step);
    }
    return std::move(run_);
  }

 private:
  // Free slots take the waiting prompts, until either runs out. Prompts of the first waiting
  // one's length go together, in one prefill pass (a batch of equal rows needs no padding).
  void fill(model::DecoderCache& cache, std::vector<std::optional<Busy>>& busy,
            std::deque<size_t>& waiting) {
    for (;;) {
      std::vector<int64_t> free;
      for (size_t s = 0; s < busy.size(); ++s) {
        if (!busy[s]) free.push_back(static_cast<int64_t>(s));
      }
      if (free.empty() || waiting.empty()) return;
      const size_t length = prompts_[waiting.front()].size();
      std::vector<size_t> group;
      for (auto it = waiting.begin(); it != waiting.end() && group.size() < free.size();) {
        if (prompts_[*it].size() == length) {
          group.push_back(*it);
          it = waiting.erase(it);
        } else {
          ++it;
        }
      }
      free.resize(group.size());
      const auto started = prefill(cache, free, group);
      for (size_t i = 0; i < free.size(); ++i) busy[static_cast<size_t>(free[i])] = started[i];
    }
  }

  // Prompts of one length into `slots` in one forward pass; each one's first token, and its
  // sequence if it goes on.
  std::vector<std::optional<Busy>> prefill(model::DecoderCache& cache,
                                           const std::vector<int64_t>& slots,
                                           const std::vector<size_t>& group) {
    const int64_t rows = static_cast<int64_t>(group.size());
    const int64_t length = static_cast<int64_t>(prompts_[group.front()].size());
    if (length == 0) throw std::invalid_argument("generate: a prompt has no tokens");
    std::vector<int64_t> ids;
    for (size_t prompt : group) {
      listener_->on_prompt_start(prompt);
      ids.insert(ids.end(), prompts_[prompt].begin(), prompts_[prompt].end());
    }
    const auto start = Clock::now();
    for (int64_t slot : slots) cache.clear(slot);
    cache.use_rows(slots);
    const auto input = at::tensor(ids, at::kLong).view({rows, length}).to(device_);
    const auto logits = model_.logits(input, nullptr, &cache);  // [rows, T, V]
    const auto chosen = sampler_.next_rows(logits.select(1, length - 1));
    const double seconds = seconds_since(start);
    run_.prefill_seconds += seconds;
    run_.prefill_tokens += rows * length;
    std::vector<std::optional<Busy>> out;
    for (int64_t r = 0; r < rows; ++r) {
      const size_t prompt = group[static_cast<size_t>(r)];
      run_.generations[prompt].prefill_seconds = seconds;
      out.push_back(take(prompt, chosen[static_cast<size_t>(r)], r * length + length - 1));
    }
    return out;
  }

  // One position of each busy slot.
  void decode(model::DecoderCache& cache, const std::vector<int64_t>& rows,
              const std::vector<int64_t>& fed, std::vector<std::optional<Busy>>& busy,
              int64_t step) {
    trace::PhaseTimes times;
    const auto start = Clock::now();
    std::vector<int64_t> chosen;
    {
      trace::ActivePhaseTimes active(&times);
      cache.use_rows(rows);
      const auto input =
          at::tensor(fed, at::kLong).view({static_cast<int64_t>(rows.size()), 1}).to(device_);
      const auto logits = model_.logits(input, nullptr, &cache);  // [B, 1, V]
      trace::ScopedPhase phase("sampling");
      chosen = sampler_.next_rows(logits.select(1, 0));
    }
    DecodeStep report;
    report.step = step;
    report.batch = static_cast<int64_t>(rows.size());
    report.seconds = seconds_since(start);
    report.phase_ms = times.ms();
    run_.decode_seconds += report.seconds;
    run_.decode_tokens += report.batch;
    for (size_t r = 0; r < rows.size(); ++r) {
      auto& slot = busy[static_cast<size_t>(rows[r])];
      slot = take(slot->prompt, chosen[r], static_cast<int64_t>(r));
    }
    listener_->on_step(report);
  }

  // `token` chosen for `prompt` from position `n` of the latest pass; the sequence if it goes on.
  std::optional<Busy> take(size_t prompt, int64_t token, int64_t n) {
    auto& generation = run_.generations[prompt];
    generation.tokens.push_back(token);
    GeneratedToken event;
    event.prompt = prompt;
    event.index = static_cast<int64_t>(generation.tokens.size()) - 1;
    event.id = token;
    if (recorder_) event.routing = recorder_->choices(n);
    const bool stop = std::find(options_.stop_tokens.begin(), options_.stop_tokens.end(), token) !=
                      options_.stop_tokens.end();
    const bool go_on = listener_->on_token(event);
    if (stop) {
      generation.finish = "stop_token";
    } else if (!go_on) {
      generation.finish = "stopped";
    } else if (static_cast<int64_t>(generation.tokens.size()) >= options_.max_new_tokens) {
      generation.finish = "length";
    }
    if (generation.finish.empty()) return Busy{prompt, token};
    listener_->on_prompt_end(prompt, generation);
    return std::nullopt;
  }

  model::DecoderModelImpl& model_;
  const std::vector<std::vector<int64_t>>& prompts_;
  const GenerationOptions& options_;
  Sampler& sampler_;
  GenerationListener silent_;
  GenerationListener* listener_;
  at::Device device_;
  std::optional<RoutingRecorder> recorder_;
  GenerationRun run_;
};

}  // namespace

GenerationRun generate(model::DecoderModelImpl& model,
                       const std::vector<std::vector<int64_t>>& prompts,
                       const GenerationOptions& options, Sampler& sampler,
                       GenerationListener* listener) {
  at::NoGradGuard no_grad;
  if (options.max_new_tokens <= 0) {
    GenerationRun run;
    run.generations.resize(prompts.size());
    for (auto& g : run.generations) g.finish = "length";
    return run;
  }
  return Generator(model, prompts, options, sampler, listener).run();
}

}  // namespace moe::infer
