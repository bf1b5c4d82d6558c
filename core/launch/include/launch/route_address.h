#pragma once
// Which of this host's addresses reaches another host: the source address the kernel's routing
// table picks for it, as NCCL's socket-interface detection does. A rank binds its Gloo transport
// there, so that it advertises an address the other hosts can reach (a hostname that resolves to
// 127.0.1.1, as Debian's /etc/hosts has it, would make every rank advertise loopback).
#include <string>

namespace moe::launch {

struct RouteAddress {
  std::string address;  // numeric, e.g. "10.0.0.2"; empty when none was found
  std::string problem;  // why not, when address is empty ("cannot resolve ...", "no route ...")
};

// Resolves `host` (a name or a numeric IPv4/IPv6 address) and asks the kernel for the source
// address of a datagram to it; nothing is sent.
RouteAddress local_address_towards(const std::string& host);

}  // namespace moe::launch
