#include "launch/launch_port.h"

#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "launch/launcher.h"

namespace moe::launch {

int free_port_on(const std::string& address) {
  addrinfo hints = {};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (const int rc = getaddrinfo(address.c_str(), "0", &hints, &found); rc != 0)
    throw LaunchError("--master-addr " + address + ": " + gai_strerror(rc));
  std::string why = "no address";
  int port = 0;
  for (addrinfo* a = found; a && port == 0; a = a->ai_next) {
    const int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    sockaddr_storage bound = {};
    socklen_t size = sizeof bound;
    if (fd >= 0 && bind(fd, a->ai_addr, a->ai_addrlen) == 0 &&
        getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &size) == 0) {
      port = ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                               : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
    } else {
      why = std::strerror(errno);
    }
    if (fd >= 0) close(fd);
  }
  freeaddrinfo(found);
  if (port == 0)
    throw LaunchError("--master-addr " + address + ": cannot bind a port there (" + why +
                      "); give --master-port");
  return port;
}

}  // namespace moe::launch
