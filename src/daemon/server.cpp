#include "daemon/server.hpp"

#include <grpcpp/grpcpp.h>
#include <signal.h>
#include <time.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>

#include "daemon/address.hpp"
#include "daemon/http_server.hpp"
#include "daemon/service.hpp"
#include "daemon/status_json.hpp"
#include "engine/engine.hpp"

#ifndef CUZK_VERSION
#define CUZK_VERSION "unknown"
#endif

namespace cuzk::daemon {
namespace {

void say(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
void say(const char* fmt, ...) {
    std::fputs("cuzk daemon: ", stderr);
    va_list ap;
    va_start(ap, fmt);
    std::vfprintf(stderr, fmt, ap);
    va_end(ap);
    std::fputc('\n', stderr);
    std::fflush(stderr);
}

sigset_t termination_set() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    return set;
}

engine::EngineConfig engine_config(const DaemonConfig& c) {
    engine::EngineConfig e;
    e.params_dir = c.params_dir;
    e.journal_dir = c.journal_dir;
    e.trace_dir = c.trace_dir;
    e.params_subgroup_check = c.params_subgroup_check;
    // Checked when the configuration was read (a bad name never gets here).
    const util::Result<groth16::HBasis> basis = groth16::parse_h_basis(c.params_h_basis);
    if (basis.ok()) e.params_h_basis = *basis;
    e.params_h_basis_dir = c.params_h_basis_dir;
    e.synthesis_workers = c.synthesis_workers;
    e.prover_workers = c.prover_workers;
    e.max_batch_size = c.max_batch_size;
    e.max_batch_wait_ms = c.max_batch_wait_ms;
    e.max_ready_partitions = c.look_ahead;
    e.max_pending_jobs = c.max_pending_jobs;
    e.host_memory_budget_bytes = c.host_memory_budget_bytes;
    e.verify_proofs = c.verify_proofs;
    e.use_gpu = c.use_gpu;
    e.gpus = c.gpus;
    if (c.compiled_synthesis.has_value()) e.compiled_synthesis = *c.compiled_synthesis;
    return e;
}

void say_exit_line(const engine::EngineStatus& st) {
    say("exit: completed=%llu failed=%llu cancelled=%llu queued=%zu running=%zu",
        static_cast<unsigned long long>(st.jobs_completed),
        static_cast<unsigned long long>(st.jobs_failed),
        static_cast<unsigned long long>(st.jobs_cancelled), st.jobs_queued, st.jobs_running);
}

// Waits up to `ms` for SIGTERM/SIGINT; returns the signal or 0.
int wait_signal(const sigset_t& set, long ms) {
    timespec ts{ms / 1000, (ms % 1000) * 1000000L};
    while (true) {
        const int sig = ::sigtimedwait(&set, nullptr, &ts);
        if (sig > 0) return sig;
        if (errno == EINTR) continue;
        return 0;
    }
}

}  // namespace

void block_termination_signals() {
    const sigset_t set = termination_set();
    ::pthread_sigmask(SIG_BLOCK, &set, nullptr);
    ::signal(SIGPIPE, SIG_IGN);
}

int run_daemon(const DaemonConfig& config) {
    // Before any thread exists, so every thread inherits the mask and only sigtimedwait below
    // receives the termination signals.
    block_termination_signals();
    const sigset_t signals = termination_set();

    auto address = parse_address(config.listen);
    if (!address.ok()) {
        say("listen: %s", address.status().message().c_str());
        return 2;
    }
    if (address->is_unix) {
        if (auto st = clear_stale_unix_socket(address->path); !st.ok()) {
            say("listen: %s", st.message().c_str());
            return 1;
        }
    }
    say("starting (version %s): params_dir=%s journal_dir=%s synthesis_workers=%u "
        "max_batch_size=%u max_pending_jobs=%llu",
        CUZK_VERSION, config.params_dir.c_str(),
        config.journal_dir.empty() ? "(none)" : config.journal_dir.c_str(),
        engine::resolve_synthesis_workers(config.synthesis_workers), config.max_batch_size,
        static_cast<unsigned long long>(config.max_pending_jobs));
    auto started = engine::Engine::start(engine_config(config));
    if (!started.ok()) {
        say("the engine did not start: %s", started.status().to_string().c_str());
        return 1;
    }
    std::unique_ptr<engine::Engine> engine = std::move(*started);
    const engine::EngineStatus initial = engine->status();
    for (const std::string& e : initial.journal_errors) say("journal: %s", e.c_str());

    ProvingService service(*engine);
    service.set_logger([](const std::string& line) { say("%s", line.c_str()); });
    grpc::ServerBuilder builder;
    int port = 0;
    const std::string target = grpc_target(*address);
    builder.AddListeningPort(target, grpc::InsecureServerCredentials(), &port);
    apply_server_limits(builder);
    builder.RegisterService(&service);
    std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
    if (server == nullptr || (!address->is_unix && port == 0)) {
        say("cannot listen on %s (in use, or not an address of this host)", config.listen.c_str());
        return 1;
    }
    std::string listening = target;
    if (!address->is_unix && address->port == "0") {
        listening = address->host;
        listening += ":";
        listening += std::to_string(port);
    }

    HttpServer http;
    DaemonInfo info;
    info.version = CUZK_VERSION;
    info.listen = listening;
    if (!config.status_listen.empty()) {
        auto st = http.start(config.status_listen, [&](const HttpRequest& req) {
            HttpResponse r;
            if (req.path == "/metrics") {
                r.content_type = "text/plain; version=0.0.4; charset=utf-8";
                r.body = service.metrics_text();
            } else if (req.path == "/status") {
                DaemonInfo now = info;
                now.uptime_seconds = service.uptime_seconds();
                now.draining = service.draining();
                r.content_type = "application/json";
                r.body = status_json(engine->status(), now);
            } else {
                r.status = 404;
                r.body = "not found; try /metrics or /status\n";
            }
            return r;
        });
        if (!st.ok()) {
            say("status_listen: %s", st.message().c_str());
            server->Shutdown(std::chrono::system_clock::now());
            return 1;
        }
        info.status_listen = http.bound_address();
    }
    say("listening on %s (gRPC cuzk.v1.ProvingEngine)%s%s; backend %s; %zu job(s) resumed from "
        "the journal",
        listening.c_str(), info.status_listen.empty() ? "" : ", HTTP /metrics /status on ",
        info.status_listen.c_str(), initial.backend.c_str(),
        initial.jobs_queued + initial.jobs_running);

    int sig = 0;
    while (sig == 0) sig = wait_signal(signals, 1000);
    const engine::EngineStatus at_signal = engine->status();
    say("%s: draining (%zu job(s) queued, %zu running; new submissions are refused); a second "
        "signal stops at once",
        sig == SIGTERM ? "SIGTERM" : "SIGINT", at_signal.jobs_queued, at_signal.jobs_running);
    service.set_draining();
    std::atomic<bool> drained{false};
    std::thread drainer([&] {
        engine->drain();
        drained = true;
    });
    bool forced = false;
    while (!drained) {
        if (wait_signal(signals, 200) != 0) {
            forced = true;
            break;
        }
    }
    if (forced) {
        say("second signal: stopping without finishing; unfinished jobs stay in the journal and "
            "resume on the next start");
        say_exit_line(engine->status());
        service.begin_shutdown();
        server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
        http.stop();
        // The drain thread is still inside the engine: end the process without unwinding it. The
        // journal on disk is the state a restart continues from.
        std::fflush(stderr);
        std::_Exit(1);
    }
    drainer.join();
    say("drained: every accepted job has finished");
    service.begin_shutdown();
    server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5));
    server.reset();
    http.stop();
    say_exit_line(engine->status());
    engine.reset();
    return 0;
}

}  // namespace cuzk::daemon
