// DevicePicker: least-held device, round-robin among equals (device_picker.hpp).
#include "engine/device_picker.hpp"

#include <algorithm>

namespace cuzk::engine {

DevicePicker::DevicePicker(size_t devices) : holders_(std::max<size_t>(1, devices), 0) {}

DevicePicker::Lease DevicePicker::acquire() {
    std::lock_guard<std::mutex> lock(mu_);
    const size_t n = holders_.size();
    size_t best = cursor_ % n;
    for (size_t step = 1; step < n; ++step) {
        const size_t i = (cursor_ + step) % n;
        if (holders_[i] < holders_[best]) best = i;
    }
    ++holders_[best];
    cursor_ = (best + 1) % n;
    Lease lease;
    lease.picker_ = this;
    lease.index_ = best;
    return lease;
}

std::vector<unsigned> DevicePicker::holders() const {
    std::lock_guard<std::mutex> lock(mu_);
    return holders_;
}

void DevicePicker::give_back(size_t index) {
    std::lock_guard<std::mutex> lock(mu_);
    if (index < holders_.size() && holders_[index] > 0) --holders_[index];
}

DevicePicker::Lease& DevicePicker::Lease::operator=(Lease&& other) noexcept {
    if (this != &other) {
        release();
        picker_ = other.picker_;
        index_ = other.index_;
        other.picker_ = nullptr;
    }
    return *this;
}

void DevicePicker::Lease::release() {
    if (picker_ != nullptr) picker_->give_back(index_);
    picker_ = nullptr;
}

}  // namespace cuzk::engine
