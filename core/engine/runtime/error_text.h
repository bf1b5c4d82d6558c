#pragma once
// The message of an exception for people: LibTorch's c10::Error carries a C++ backtrace in what(),
// which belongs in a debugger, not in a run's error line.
#include <c10/util/Exception.h>

#include <exception>
#include <string>

namespace moe::runtime {

inline std::string error_text(const std::exception& e) {
  if (const auto* torch_error = dynamic_cast<const c10::Error*>(&e)) {
    return torch_error->what_without_backtrace();
  }
  return e.what();
}

}  // namespace moe::runtime
