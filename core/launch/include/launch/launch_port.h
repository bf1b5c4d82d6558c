#pragma once
// A TCP port that is free on an address now, for rank 0's rendezvous on a one-node launch. The
// port is released before the ranks start, so another program could take it in between; torchrun
// picks its port the same way.
#include <string>

namespace moe::launch {

// Throws LaunchError naming --master-addr when the address cannot be resolved or bound.
int free_port_on(const std::string& address);

}  // namespace moe::launch
