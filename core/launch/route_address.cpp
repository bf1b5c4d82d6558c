#include "launch/route_address.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

namespace moe::launch {
namespace {

struct AddrInfoFree {
  void operator()(addrinfo* a) const { freeaddrinfo(a); }
};

// The numeric form of a socket address, or "" when it is neither IPv4 nor IPv6.
std::string numeric(const sockaddr_storage& s) {
  char text[INET6_ADDRSTRLEN] = {};
  if (s.ss_family == AF_INET) {
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(s).sin_addr, text, sizeof text);
  } else if (s.ss_family == AF_INET6) {
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6&>(s).sin6_addr, text, sizeof text);
  }
  return text;
}

// The source address for a datagram to `to`: connect() on a UDP socket only picks the route.
std::string source_address(const addrinfo& to, std::string& problem) {
  const int fd = socket(to.ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    problem = std::string("socket: ") + std::strerror(errno);
    return "";
  }
  std::string found;
  sockaddr_storage local{};
  socklen_t length = sizeof local;
  if (connect(fd, to.ai_addr, to.ai_addrlen) != 0) {
    problem = std::string("no route: ") + std::strerror(errno);
  } else if (getsockname(fd, reinterpret_cast<sockaddr*>(&local), &length) != 0) {
    problem = std::string("getsockname: ") + std::strerror(errno);
  } else {
    found = numeric(local);
  }
  close(fd);
  return found;
}

}  // namespace

RouteAddress local_address_towards(const std::string& host) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_DGRAM;
  addrinfo* list = nullptr;
  // Any port: a datagram socket's connect needs one, and nothing is sent.
  const int rc = getaddrinfo(host.c_str(), "9", &hints, &list);
  if (rc != 0) return {"", "cannot resolve " + host + ": " + gai_strerror(rc)};
  std::unique_ptr<addrinfo, AddrInfoFree> owned(list);
  std::string problem;
  for (const addrinfo* a = list; a; a = a->ai_next) {
    std::string address = source_address(*a, problem);
    if (!address.empty()) return {address, ""};
  }
  return {"", problem + " (to " + host + ")"};
}

}  // namespace moe::launch
