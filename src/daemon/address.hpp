// Listen and connect addresses of the daemon: "unix:///abs/path" (also "unix:/abs/path" and
// "unix:rel/path", gRPC's spellings) or "host:port" / "[ipv6]:port". A bare path starting with
// '/' is read as a Unix socket path (convenient on the command line).
#pragma once

#include <string>
#include <string_view>

#include "util/status.hpp"

namespace cuzk::daemon {

struct Address {
    bool is_unix = false;
    std::string path;  // is_unix: the socket file
    std::string host;  // TCP: "127.0.0.1", "::1", "localhost" (brackets removed)
    std::string port;  // TCP: decimal, 0..65535
};

// kInvalidArgument naming the text when it is neither form.
util::Result<Address> parse_address(std::string_view text);

// The form gRPC's CreateChannel / AddListeningPort take: "unix:///path" or "host:port"
// ("[::1]:port" for IPv6 hosts).
std::string grpc_target(const Address& a);

// Before binding a Unix socket at `path`: nothing there → OK; a socket nobody answers on (left
// by a process that died) → removed, OK; a socket that accepts connections → kUnavailable
// ("another process is listening"); anything else → kInvalidArgument ("not a socket"). A path
// longer than sun_path allows → kInvalidArgument.
util::Status clear_stale_unix_socket(const std::string& path);

}  // namespace cuzk::daemon
