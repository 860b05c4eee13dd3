#include "util/status.hpp"

namespace cuzk::util {

const char* status_code_name(StatusCode code) {
    switch (code) {
        case StatusCode::kOk: return "OK";
        case StatusCode::kInvalidArgument: return "INVALID_ARGUMENT";
        case StatusCode::kOutOfRange: return "OUT_OF_RANGE";
        case StatusCode::kNotFound: return "NOT_FOUND";
        case StatusCode::kIoError: return "IO_ERROR";
        case StatusCode::kResourceExhausted: return "RESOURCE_EXHAUSTED";
        case StatusCode::kCancelled: return "CANCELLED";
        case StatusCode::kUnavailable: return "UNAVAILABLE";
        case StatusCode::kInternal: return "INTERNAL";
    }
    return "UNKNOWN";
}

std::string Status::to_string() const {
    if (ok()) return "OK";
    return std::string(status_code_name(code_)) + ": " + message_;
}

}  // namespace cuzk::util
