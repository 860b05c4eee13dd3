// A minimal HTTP/1.1 server on POSIX sockets for the daemon's GET /metrics and /status.
//
// One request per connection: the server reads the request head (at most kMaxHeadBytes, within
// kReadTimeout), answers, and closes ("Connection: close"); request bodies are not read. GET
// and HEAD reach the handler (HEAD gets the headers only); other methods get 405 with
// "Allow: GET, HEAD", a malformed request line 400, an oversized head 431, a slow client 408.
// The handler decides 200 or 404 per path; the query string is stripped before it is called.
//
// Threads: one accept thread; each connection is served on its own short-lived thread (at most
// kMaxConnections at once; more wait in the kernel's backlog). stop() closes the listener,
// wakes the accept thread and joins every connection thread; it is idempotent and the destructor
// calls it. The handler may be called from several threads at once.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <list>
#include <string>
#include <thread>

#include "util/status.hpp"

namespace cuzk::daemon {

struct HttpRequest {
    std::string method;  // "GET", "HEAD"
    std::string path;    // "/metrics" (no query string)
};

struct HttpResponse {
    int status = 200;
    std::string content_type = "text/plain; charset=utf-8";
    std::string body;
};

class HttpServer {
   public:
    static constexpr size_t kMaxHeadBytes = 16 * 1024;
    static constexpr size_t kMaxConnections = 16;
    static constexpr std::chrono::milliseconds kReadTimeout{5000};

    using Handler = std::function<HttpResponse(const HttpRequest&)>;

    HttpServer() = default;
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;
    ~HttpServer() { stop(); }

    // Binds `address` — "host:port" (IPv4 dotted or a name; port 0 = any free port),
    // "[v6addr]:port", or "unix:///path" — and starts serving. kInvalidArgument for a bad
    // address, kUnavailable when it cannot be bound.
    util::Status start(const std::string& address, Handler handler);
    void stop();

    // After start(): "127.0.0.1:41234" (the real port) or "unix:///path".
    const std::string& bound_address() const { return bound_; }

   private:
    struct Worker {
        std::thread thread;
        std::atomic<bool> done{false};
    };
    void accept_loop();
    void serve(int fd);
    void reap_finished_workers(bool all);

    Handler handler_;
    int listen_fd_ = -1;
    int wake_pipe_[2] = {-1, -1};
    std::string bound_;
    std::string unix_path_;  // removed at stop()
    std::thread acceptor_;
    std::list<Worker> workers_;  // touched by the accept thread, then by stop() after joining it
    std::atomic<bool> stopping_{false};
};

// The reason phrase of the status codes the server uses ("OK", "Not Found", ...).
const char* http_reason(int status);

}  // namespace cuzk::daemon
