#include "daemon/address.hpp"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace cuzk::daemon {
namespace {

util::Status bad_address(std::string_view text, const char* why) {
    std::string m = "address '";
    m += text;
    m += "': ";
    m += why;
    m += " (expected unix:///path or host:port)";
    return util::invalid_argument(std::move(m));
}

}  // namespace

util::Result<Address> parse_address(std::string_view text) {
    Address a;
    if (text.starts_with("unix:") || text.starts_with("/")) {
        std::string_view p = text;
        if (p.starts_with("unix://")) {
            p.remove_prefix(7);
        } else if (p.starts_with("unix:")) {
            p.remove_prefix(5);
        }
        if (p.empty()) return bad_address(text, "empty socket path");
        if (p.size() >= sizeof(sockaddr_un{}.sun_path))
            return bad_address(text, "socket path longer than 107 bytes");
        a.is_unix = true;
        a.path = std::string(p);
        return a;
    }
    std::string_view host, port;
    if (text.starts_with("[")) {
        const size_t close = text.find(']');
        if (close == std::string_view::npos) return bad_address(text, "missing ']'");
        host = text.substr(1, close - 1);
        if (close + 1 >= text.size() || text[close + 1] != ':')
            return bad_address(text, "missing ':port' after ']'");
        port = text.substr(close + 2);
    } else {
        const size_t colon = text.rfind(':');
        if (colon == std::string_view::npos) return bad_address(text, "missing ':port'");
        host = text.substr(0, colon);
        port = text.substr(colon + 1);
        if (host.find(':') != std::string_view::npos)
            return bad_address(text, "put an IPv6 host in brackets");
    }
    if (host.empty()) return bad_address(text, "empty host");
    if (port.empty() || port.size() > 5) return bad_address(text, "port must be 0..65535");
    unsigned value = 0;
    for (char c : port) {
        if (c < '0' || c > '9') return bad_address(text, "port must be 0..65535");
        value = value * 10 + static_cast<unsigned>(c - '0');
    }
    if (value > 65535) return bad_address(text, "port must be 0..65535");
    a.host = std::string(host);
    a.port = std::to_string(value);
    return a;
}

std::string grpc_target(const Address& a) {
    // Built with push_back/append: GCC 12 reports a false -Wrestrict for `t = "["; t += host`.
    std::string t;
    t.reserve(a.path.size() + a.host.size() + a.port.size() + 8);
    if (a.is_unix) {
        t.append("unix:");
        if (a.path.starts_with("/")) t.append("//");
        t.append(a.path);
        return t;
    }
    const bool v6 = a.host.find(':') != std::string::npos;
    if (v6) t.push_back('[');
    t.append(a.host);
    if (v6) t.push_back(']');
    t.push_back(':');
    t.append(a.port);
    return t;
}

util::Status clear_stale_unix_socket(const std::string& path) {
    sockaddr_un sa{};
    if (path.empty() || path.size() >= sizeof(sa.sun_path))
        return util::invalid_argument(path + ": not a usable Unix socket path");
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) {
        if (errno == ENOENT) return util::Status();
        return util::invalid_argument(path + ": " + std::strerror(errno));
    }
    if (!S_ISSOCK(st.st_mode))
        return util::invalid_argument(path + ": exists and is not a socket (not removed)");
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return util::Status(util::StatusCode::kUnavailable, std::strerror(errno));
    sa.sun_family = AF_UNIX;
    std::memcpy(sa.sun_path, path.data(), path.size());
    const int rc = ::connect(fd, reinterpret_cast<const sockaddr*>(&sa), sizeof(sa));
    const int err = errno;
    ::close(fd);
    if (rc == 0)
        return util::Status(util::StatusCode::kUnavailable,
                            path + ": another process is listening on this socket");
    if (err != ECONNREFUSED && err != ENOENT)
        return util::Status(util::StatusCode::kUnavailable, path + ": " + std::strerror(err));
    if (::unlink(path.c_str()) != 0 && errno != ENOENT)
        return util::Status(util::StatusCode::kUnavailable,
                            path + ": cannot remove the stale socket: " + std::strerror(errno));
    return util::Status();
}

}  // namespace cuzk::daemon
