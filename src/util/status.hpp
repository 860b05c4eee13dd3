// Status and Result<T>: how errors cross layer boundaries in cuzk.
//
// A Status is either OK or carries a code and a human-readable message that names what is wrong
// ("G1 point not on curve", "x coordinate >= p"). Result<T> holds either a value or a non-OK
// Status. Neither throws; no exception crosses a layer boundary.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace cuzk::util {

enum class StatusCode {
    kOk = 0,
    kInvalidArgument,  // malformed input: bad encoding, wrong size, not on curve, ...
    kOutOfRange,       // a size or index beyond what is supported
    kNotFound,
    kIoError,
    kResourceExhausted,
    kCancelled,
    kUnavailable,
    kInternal,  // a bug: an invariant did not hold
};

const char* status_code_name(StatusCode code);

class [[nodiscard]] Status {
   public:
    Status() = default;
    Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

    static Status ok_status() { return Status(); }
    bool ok() const { return code_ == StatusCode::kOk; }
    StatusCode code() const { return code_; }
    const std::string& message() const { return message_; }
    // "INVALID_ARGUMENT: x coordinate >= p"
    std::string to_string() const;

   private:
    StatusCode code_ = StatusCode::kOk;
    std::string message_;
};

inline Status invalid_argument(std::string message) {
    return Status(StatusCode::kInvalidArgument, std::move(message));
}
inline Status out_of_range(std::string message) {
    return Status(StatusCode::kOutOfRange, std::move(message));
}
inline Status internal_error(std::string message) {
    return Status(StatusCode::kInternal, std::move(message));
}
inline Status io_error(std::string message) {
    return Status(StatusCode::kIoError, std::move(message));
}

// Either a T or a non-OK Status.
template <class T>
class [[nodiscard]] Result {
   public:
    Result(T value) : data_(std::move(value)) {}  // NOLINT: implicit by design
    Result(Status status) : data_(std::move(status)) {  // NOLINT: implicit by design
        assert(!std::get<Status>(data_).ok() && "Result built from an OK status");
    }

    bool ok() const { return std::holds_alternative<T>(data_); }
    const T& value() const& { return std::get<T>(data_); }
    T& value() & { return std::get<T>(data_); }
    T&& value() && { return std::get<T>(std::move(data_)); }
    const T& operator*() const& { return value(); }
    T& operator*() & { return value(); }
    const T* operator->() const { return &value(); }
    T* operator->() { return &value(); }
    Status status() const { return ok() ? Status() : std::get<Status>(data_); }

   private:
    std::variant<T, Status> data_;
};

}  // namespace cuzk::util

// Propagate a non-OK Status from an expression returning Status.
#define CUZK_RETURN_IF_ERROR(expr)                 \
    do {                                           \
        ::cuzk::util::Status cuzk_status_ = (expr); \
        if (!cuzk_status_.ok()) return cuzk_status_; \
    } while (0)

// Evaluates expr (a Result<T>); returns its Status when it failed, else moves the value into
// lhs (a declaration such as `auto x` or an existing variable).
#define CUZK_ASSIGN_OR_RETURN(lhs, expr) \
    CUZK_ASSIGN_OR_RETURN_IMPL_(CUZK_STATUS_CONCAT_(cuzk_result_, __LINE__), lhs, expr)
#define CUZK_STATUS_CONCAT_INNER_(a, b) a##b
#define CUZK_STATUS_CONCAT_(a, b) CUZK_STATUS_CONCAT_INNER_(a, b)
#define CUZK_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
    auto tmp = (expr);                              \
    if (!tmp.ok()) return tmp.status();             \
    lhs = std::move(tmp).value()
