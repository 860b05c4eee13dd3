// The hand-written HTTP/1.1 server, driven by raw socket clients: status lines and headers per
// RFC 9112 (request line, Content-Length, Connection: close), GET/HEAD only, 404 from the
// handler, 400/405/408/431/505 for bad requests, concurrent clients, a slow client not blocking
// others, Unix sockets, stop() with clients still connected.
#include "daemon/http_server.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace cuzk::daemon {
namespace {

int connect_tcp(const std::string& bound) {
    const size_t colon = bound.rfind(':');
    const int port = std::stoi(bound.substr(colon + 1));
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_port = htons(static_cast<uint16_t>(port));
    ::inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof(sa)) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

int connect_unix(const std::string& path) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un sa{};
    sa.sun_family = AF_UNIX;
    std::memcpy(sa.sun_path, path.data(), path.size());
    if (::connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof(sa)) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

// Sends `request` and reads until the server closes (or 10 s pass).
std::string exchange(int fd, const std::string& request) {
    if (request.empty()) {
        ::shutdown(fd, SHUT_WR);  // a client that connects and sends nothing
    } else {
        ::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
    }
    std::string out;
    char buf[4096];
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 100) <= 0) continue;
        const ssize_t n = ::recv(fd, buf, sizeof(buf), 0);
        if (n <= 0) break;
        out.append(buf, static_cast<size_t>(n));
    }
    ::close(fd);
    return out;
}

std::string get(const std::string& bound, const std::string& request) {
    const int fd = connect_tcp(bound);
    EXPECT_GE(fd, 0);
    return fd < 0 ? std::string() : exchange(fd, request);
}

std::string status_line(const std::string& response) {
    return response.substr(0, response.find("\r\n"));
}

std::string body_of(const std::string& response) {
    const size_t p = response.find("\r\n\r\n");
    return p == std::string::npos ? std::string() : response.substr(p + 4);
}

HttpResponse test_handler(const HttpRequest& req) {
    HttpResponse r;
    if (req.path == "/metrics") {
        r.body = "cuzk_up 1\n";
    } else if (req.path == "/status") {
        r.content_type = "application/json";
        r.body = "{\"ok\":true}";
    } else {
        r.status = 404;
        r.body = std::string("not found: ") + req.path + "\n";
    }
    return r;
}

class HttpServerTest : public ::testing::Test {
   protected:
    void SetUp() override { ASSERT_TRUE(server_.start("127.0.0.1:0", test_handler).ok()); }
    HttpServer server_;
};

TEST_F(HttpServerTest, GetMetricsAndStatus) {
    EXPECT_EQ(server_.bound_address().rfind("127.0.0.1:", 0), 0u);
    EXPECT_NE(server_.bound_address(), "127.0.0.1:0");
    const std::string r = get(server_.bound_address(), "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_EQ(status_line(r), "HTTP/1.1 200 OK");
    EXPECT_NE(r.find("\r\nContent-Length: 10\r\n"), std::string::npos) << r;
    EXPECT_NE(r.find("\r\nConnection: close\r\n"), std::string::npos);
    EXPECT_NE(r.find("\r\nContent-Type: text/plain; charset=utf-8\r\n"), std::string::npos);
    EXPECT_EQ(body_of(r), "cuzk_up 1\n");
    const std::string s = get(server_.bound_address(), "GET /status?pretty=1 HTTP/1.0\r\n\r\n");
    EXPECT_EQ(status_line(s), "HTTP/1.1 200 OK");
    EXPECT_NE(s.find("Content-Type: application/json"), std::string::npos);
    EXPECT_EQ(body_of(s), "{\"ok\":true}");
    // Bare LF line ends are tolerated.
    EXPECT_EQ(status_line(get(server_.bound_address(), "GET /metrics HTTP/1.1\n\n")),
              "HTTP/1.1 200 OK");
}

TEST_F(HttpServerTest, HeadHasHeadersOnly) {
    const std::string r = get(server_.bound_address(), "HEAD /metrics HTTP/1.1\r\n\r\n");
    EXPECT_EQ(status_line(r), "HTTP/1.1 200 OK");
    EXPECT_NE(r.find("Content-Length: 10\r\n"), std::string::npos);
    EXPECT_EQ(body_of(r), "");
}

TEST_F(HttpServerTest, ErrorsForBadRequests) {
    const std::string& a = server_.bound_address();
    EXPECT_EQ(status_line(get(a, "GET /nope HTTP/1.1\r\n\r\n")), "HTTP/1.1 404 Not Found");
    EXPECT_EQ(body_of(get(a, "GET /nope HTTP/1.1\r\n\r\n")), "not found: /nope\n");
    const std::string post = get(a, "POST /metrics HTTP/1.1\r\nContent-Length: 0\r\n\r\n");
    EXPECT_EQ(status_line(post), "HTTP/1.1 405 Method Not Allowed");
    EXPECT_NE(post.find("\r\nAllow: GET, HEAD\r\n"), std::string::npos);
    EXPECT_EQ(status_line(get(a, "DELETE /status HTTP/1.1\r\n\r\n")),
              "HTTP/1.1 405 Method Not Allowed");
    EXPECT_EQ(status_line(get(a, "GET\r\n\r\n")), "HTTP/1.1 400 Bad Request");
    EXPECT_EQ(status_line(get(a, "GET metrics HTTP/1.1\r\n\r\n")), "HTTP/1.1 400 Bad Request");
    EXPECT_EQ(status_line(get(a, "get /metrics HTTP/1.1\r\n\r\n")), "HTTP/1.1 400 Bad Request");
    EXPECT_EQ(status_line(get(a, "GET /metrics FTP/1.0\r\n\r\n")), "HTTP/1.1 400 Bad Request");
    EXPECT_EQ(status_line(get(a, "GET /metrics HTTP/2.0\r\n\r\n")),
              "HTTP/1.1 505 HTTP Version Not Supported");
    EXPECT_EQ(status_line(get(a, "\x16\x03\x01\x02\r\n\r\n")), "HTTP/1.1 400 Bad Request");
    std::string big = "GET /metrics HTTP/1.1\r\nX-Big: ";
    big += std::string(HttpServer::kMaxHeadBytes + 100, 'a');
    big += "\r\n\r\n";
    EXPECT_EQ(status_line(get(a, big)), "HTTP/1.1 431 Request Header Fields Too Large");
    // A client that connects and closes without a request gets nothing and does no harm.
    EXPECT_EQ(get(a, ""), "");
    EXPECT_EQ(status_line(get(a, "GET /metrics HTTP/1.1\r\n\r\n")), "HTTP/1.1 200 OK");
}

TEST_F(HttpServerTest, ManyConcurrentClients) {
    std::atomic<int> ok{0};
    std::vector<std::thread> clients;
    for (int i = 0; i < 40; ++i) {
        clients.emplace_back([&] {
            const std::string r = get(server_.bound_address(), "GET /metrics HTTP/1.1\r\n\r\n");
            if (status_line(r) == "HTTP/1.1 200 OK" && body_of(r) == "cuzk_up 1\n") ++ok;
        });
    }
    for (auto& t : clients) t.join();
    EXPECT_EQ(ok.load(), 40);
}

TEST_F(HttpServerTest, SlowClientDoesNotBlockOthers) {
    // Sends half a request and then nothing: its own thread waits; others are served.
    const int slow = connect_tcp(server_.bound_address());
    ASSERT_GE(slow, 0);
    ::send(slow, "GET /met", 8, MSG_NOSIGNAL);
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(status_line(get(server_.bound_address(), "GET /metrics HTTP/1.1\r\n\r\n")),
              "HTTP/1.1 200 OK");
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(2));
    ::close(slow);
}

TEST(HttpServer, SlowClientTimesOutWith408) {
    HttpServer server;
    ASSERT_TRUE(server.start("127.0.0.1:0", test_handler).ok());
    const int fd = connect_tcp(server.bound_address());
    ASSERT_GE(fd, 0);
    const auto t0 = std::chrono::steady_clock::now();
    const std::string r = exchange(fd, "GET /metrics HTTP/1.1\r\n");  // head never ends
    const auto waited = std::chrono::steady_clock::now() - t0;
    EXPECT_EQ(status_line(r), "HTTP/1.1 408 Request Timeout");
    EXPECT_GE(waited, HttpServer::kReadTimeout - std::chrono::milliseconds(100));
}

TEST(HttpServer, StopWithAConnectedClientReturnsPromptly) {
    HttpServer server;
    ASSERT_TRUE(server.start("127.0.0.1:0", test_handler).ok());
    const int fd = connect_tcp(server.bound_address());
    ASSERT_GE(fd, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const auto t0 = std::chrono::steady_clock::now();
    server.stop();
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(2));
    server.stop();  // idempotent
    ::close(fd);
}

TEST(HttpServer, UnixSocketAndStaleSocketFile) {
    std::string name = "cuzk_http_test_";
    name += std::to_string(::getpid());
    name += ".sock";
    const std::string path = (std::filesystem::temp_directory_path() / name).string();
    const std::string url = std::string("unix://") + path;
    {
        HttpServer server;
        ASSERT_TRUE(server.start(url, test_handler).ok());
        EXPECT_EQ(server.bound_address(), url);
        const int fd = connect_unix(path);
        ASSERT_GE(fd, 0);
        const std::string r = exchange(fd, "GET /status HTTP/1.1\r\n\r\n");
        EXPECT_EQ(body_of(r), "{\"ok\":true}");
        // A second server on the same live socket is refused, not stolen.
        HttpServer second;
        auto st = second.start(url, test_handler);
        EXPECT_FALSE(st.ok());
        EXPECT_NE(st.message().find("another process is listening"), std::string::npos)
            << st.message();
    }
    EXPECT_FALSE(std::filesystem::exists(path)) << "stop() removes the socket file";
    // A stale socket file (bound, never listened on, its owner gone) is replaced.
    {
        const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
        sockaddr_un sa{};
        sa.sun_family = AF_UNIX;
        std::memcpy(sa.sun_path, path.data(), path.size());
        ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&sa), sizeof(sa)), 0);
        ::close(fd);
    }
    ASSERT_TRUE(std::filesystem::exists(path));
    HttpServer server;
    ASSERT_TRUE(server.start(url, test_handler).ok());
    EXPECT_EQ(status_line(exchange(connect_unix(path), "GET /metrics HTTP/1.1\r\n\r\n")),
              "HTTP/1.1 200 OK");
    server.stop();
    // A regular file in the way is left alone.
    { std::ofstream(path) << "data"; }
    HttpServer blocked;
    auto st = blocked.start(url, test_handler);
    EXPECT_FALSE(st.ok());
    EXPECT_NE(st.message().find("not a socket"), std::string::npos);
    EXPECT_TRUE(std::filesystem::exists(path));
    std::filesystem::remove(path);
}

TEST(HttpServer, BadAddressesAndBusyPorts) {
    HttpServer a;
    EXPECT_EQ(a.start("no-port", test_handler).code(), util::StatusCode::kInvalidArgument);
    ASSERT_TRUE(a.start("127.0.0.1:0", test_handler).ok());
    HttpServer b;
    auto st = b.start(a.bound_address(), test_handler);
    EXPECT_EQ(st.code(), util::StatusCode::kUnavailable) << st.message();
}

}  // namespace
}  // namespace cuzk::daemon
