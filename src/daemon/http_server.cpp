#include "daemon/http_server.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "daemon/address.hpp"

namespace cuzk::daemon {
namespace {

util::Status unavailable(std::string m) {
    return util::Status(util::StatusCode::kUnavailable, std::move(m));
}

using SteadyClock = std::chrono::steady_clock;

int remaining_ms(SteadyClock::time_point deadline) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now());
    return left.count() > 0 ? static_cast<int>(left.count()) : 0;
}

// Sends all of `data` before the deadline (or until stop is signalled on wake_fd).
bool send_all(int fd, int wake_fd, std::string_view data, SteadyClock::time_point deadline) {
    size_t off = 0;
    while (off < data.size()) {
        const ssize_t n = ::send(fd, data.data() + off, data.size() - off, MSG_NOSIGNAL);
        if (n > 0) {
            off += static_cast<size_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            pollfd p[2] = {{fd, POLLOUT, 0}, {wake_fd, POLLIN, 0}};
            const int ms = remaining_ms(deadline);
            if (ms == 0 || ::poll(p, 2, ms) <= 0 || (p[1].revents & POLLIN)) return false;
            continue;
        }
        return false;
    }
    return true;
}

bool is_token_char(char c) { return c >= 'A' && c <= 'Z'; }

std::string response_text(int status, const HttpResponse& r, bool head_only, bool allow) {
    std::string out = "HTTP/1.1 ";
    out += std::to_string(status);
    out += " ";
    out += http_reason(status);
    out += "\r\nContent-Type: ";
    out += r.content_type;
    out += "\r\nContent-Length: ";
    out += std::to_string(r.body.size());
    if (allow) out += "\r\nAllow: GET, HEAD";
    out += "\r\nConnection: close\r\nCache-Control: no-store\r\n\r\n";
    if (!head_only) out += r.body;
    return out;
}

}  // namespace

const char* http_reason(int status) {
    switch (status) {
        case 200:
            return "OK";
        case 400:
            return "Bad Request";
        case 404:
            return "Not Found";
        case 405:
            return "Method Not Allowed";
        case 408:
            return "Request Timeout";
        case 431:
            return "Request Header Fields Too Large";
        case 500:
            return "Internal Server Error";
        case 503:
            return "Service Unavailable";
        case 505:
            return "HTTP Version Not Supported";
        default:
            return "Unknown";
    }
}

util::Status HttpServer::start(const std::string& address, Handler handler) {
    if (listen_fd_ >= 0) return util::invalid_argument("HTTP server already started");
    CUZK_ASSIGN_OR_RETURN(Address addr, parse_address(address));
    handler_ = std::move(handler);
    int fd = -1;
    if (addr.is_unix) {
        CUZK_RETURN_IF_ERROR(clear_stale_unix_socket(addr.path));
        fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0) return unavailable(std::string("socket: ") + std::strerror(errno));
        sockaddr_un sa{};
        sa.sun_family = AF_UNIX;
        std::memcpy(sa.sun_path, addr.path.data(), addr.path.size());
        if (::bind(fd, reinterpret_cast<const sockaddr*>(&sa), sizeof(sa)) != 0) {
            const int err = errno;
            ::close(fd);
            return unavailable(address + ": cannot bind: " + std::strerror(err));
        }
        unix_path_ = addr.path;
        bound_ = std::string("unix://") + addr.path;
    } else {
        addrinfo hints{};
        hints.ai_family = AF_UNSPEC;
        hints.ai_socktype = SOCK_STREAM;
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
        addrinfo* res = nullptr;
        const int gai = ::getaddrinfo(addr.host.c_str(), addr.port.c_str(), &hints, &res);
        if (gai != 0) return util::invalid_argument(address + ": " + ::gai_strerror(gai));
        std::string last_error = "no address";
        for (addrinfo* ai = res; ai != nullptr; ai = ai->ai_next) {
            fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
            if (fd < 0) continue;
            const int one = 1;
            ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
            if (::bind(fd, ai->ai_addr, ai->ai_addrlen) == 0) break;
            last_error = std::strerror(errno);
            ::close(fd);
            fd = -1;
        }
        ::freeaddrinfo(res);
        if (fd < 0) return unavailable(address + ": cannot bind: " + last_error);
        sockaddr_storage ss{};
        socklen_t len = sizeof(ss);
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &len);
        char host[INET6_ADDRSTRLEN] = {};
        unsigned port = 0;
        if (ss.ss_family == AF_INET6) {
            const auto* s6 = reinterpret_cast<const sockaddr_in6*>(&ss);
            ::inet_ntop(AF_INET6, &s6->sin6_addr, host, sizeof(host));
            port = ntohs(s6->sin6_port);
            bound_ = std::string("[") + host + "]:" + std::to_string(port);
        } else {
            const auto* s4 = reinterpret_cast<const sockaddr_in*>(&ss);
            ::inet_ntop(AF_INET, &s4->sin_addr, host, sizeof(host));
            port = ntohs(s4->sin_port);
            bound_ = std::string(host) + ":" + std::to_string(port);
        }
    }
    if (::listen(fd, 64) != 0) {
        const int err = errno;
        ::close(fd);
        return unavailable(address + ": listen: " + std::strerror(err));
    }
    if (::pipe2(wake_pipe_, O_CLOEXEC) != 0) {
        const int err = errno;
        ::close(fd);
        return unavailable(std::string("pipe: ") + std::strerror(err));
    }
    listen_fd_ = fd;
    stopping_ = false;
    acceptor_ = std::thread([this] { accept_loop(); });
    return util::Status();
}

void HttpServer::stop() {
    if (listen_fd_ < 0) return;
    stopping_ = true;
    const char byte = 1;
    [[maybe_unused]] ssize_t w = ::write(wake_pipe_[1], &byte, 1);
    if (acceptor_.joinable()) acceptor_.join();
    reap_finished_workers(true);
    ::close(listen_fd_);
    listen_fd_ = -1;
    ::close(wake_pipe_[0]);
    ::close(wake_pipe_[1]);
    wake_pipe_[0] = wake_pipe_[1] = -1;
    if (!unix_path_.empty()) {
        ::unlink(unix_path_.c_str());
        unix_path_.clear();
    }
}

void HttpServer::reap_finished_workers(bool all) {
    for (auto it = workers_.begin(); it != workers_.end();) {
        if (all || it->done.load()) {
            it->thread.join();
            it = workers_.erase(it);
        } else {
            ++it;
        }
    }
}

void HttpServer::accept_loop() {
    while (!stopping_) {
        reap_finished_workers(false);
        // At the connection cap, wait for a worker to finish (the backlog holds new clients).
        if (workers_.size() >= kMaxConnections) {
            pollfd p{wake_pipe_[0], POLLIN, 0};
            ::poll(&p, 1, 5);
            continue;
        }
        pollfd p[2] = {{listen_fd_, POLLIN, 0}, {wake_pipe_[0], POLLIN, 0}};
        const int rc = ::poll(p, 2, 1000);
        if (rc < 0 && errno != EINTR) break;
        if (rc <= 0 || (p[1].revents & POLLIN)) continue;
        const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0) continue;
        Worker& w = workers_.emplace_back();
        w.thread = std::thread([this, fd, &w] {
            serve(fd);
            ::close(fd);
            w.done = true;
        });
    }
}

void HttpServer::serve(int fd) {
    const auto deadline = SteadyClock::now() + kReadTimeout;
    const int wake = wake_pipe_[0];
    std::string head;
    size_t end = std::string::npos;
    const auto reply = [&](int status, const HttpResponse& r, bool head_only, bool allow) {
        send_all(fd, wake, response_text(status, r, head_only, allow), deadline + kReadTimeout);
    };
    const auto error_page = [&](int status) {
        HttpResponse r;
        r.body = std::to_string(status);
        r.body += " ";
        r.body += http_reason(status);
        r.body += "\n";
        reply(status, r, false, status == 405);
    };
    char buf[4096];
    while (true) {
        end = head.find("\r\n\r\n");
        if (end == std::string::npos) end = head.find("\n\n");
        if (end != std::string::npos) break;
        if (head.size() > kMaxHeadBytes) return error_page(431);
        pollfd p[2] = {{fd, POLLIN, 0}, {wake, POLLIN, 0}};
        const int ms = remaining_ms(deadline);
        if (ms == 0) return error_page(408);
        const int rc = ::poll(p, 2, ms);
        if (rc < 0 && errno == EINTR) continue;
        if (rc < 0 || (p[1].revents & POLLIN)) return;  // stopping
        if (rc == 0) return error_page(408);
        const ssize_t n = ::recv(fd, buf, sizeof(buf), 0);
        if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
        if (n <= 0) return;  // the client went away before finishing its request
        head.append(buf, static_cast<size_t>(n));
    }
    if (end > kMaxHeadBytes) return error_page(431);
    // Request line: METHOD SP TARGET SP HTTP/1.x
    size_t eol = head.find('\n');
    std::string_view line(head.data(), eol);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const size_t sp1 = line.find(' ');
    const size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
    if (sp1 == std::string_view::npos || sp2 == std::string_view::npos || sp1 == 0)
        return error_page(400);
    const std::string_view method = line.substr(0, sp1);
    const std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
    const std::string_view version = line.substr(sp2 + 1);
    for (char c : method) {
        if (!is_token_char(c)) return error_page(400);
    }
    if (target.empty() || target.front() != '/') return error_page(400);
    for (char c : target) {
        if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7F) return error_page(400);
    }
    if (!version.starts_with("HTTP/")) return error_page(400);
    if (version != "HTTP/1.1" && version != "HTTP/1.0") return error_page(505);
    const bool head_only = method == "HEAD";
    if (method != "GET" && !head_only) return error_page(405);
    HttpRequest req;
    req.method = std::string(method);
    req.path = std::string(target.substr(0, target.find_first_of("?#")));
    HttpResponse r = handler_(req);
    reply(r.status, r, head_only, false);
}

}  // namespace cuzk::daemon
