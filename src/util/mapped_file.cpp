#include "util/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace cuzk::util {
namespace {

Status errno_status(const std::string& path, const char* call, int err) {
    std::string msg = path;
    msg += ": ";
    msg += call;
    msg += " failed: ";
    msg += std::strerror(err);
    msg += " (errno ";
    msg += std::to_string(err);
    msg += ")";
    return io_error(std::move(msg));
}

// Closes a descriptor on scope exit.
struct FdGuard {
    int fd;
    ~FdGuard() {
        if (fd >= 0) ::close(fd);
    }
};

}  // namespace

Result<MappedFile> MappedFile::open(const std::string& path) {
    int fd;
    do fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) return errno_status(path, "open", errno);
    FdGuard guard{fd};

    struct stat st {};
    if (::fstat(fd, &st) != 0) return errno_status(path, "fstat", errno);
    if (!S_ISREG(st.st_mode)) {
        std::string msg = path;
        msg += ": not a regular file";
        return io_error(std::move(msg));
    }
    MappedFile file;
    file.path_ = path;
    if (st.st_size == 0) return file;  // mmap of length 0 is invalid; an empty span is correct

    const size_t size = static_cast<size_t>(st.st_size);
    void* addr = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (addr == MAP_FAILED) return errno_status(path, "mmap", errno);
    (void)::madvise(addr, size, MADV_SEQUENTIAL);
    (void)::madvise(addr, size, MADV_WILLNEED);
    file.data_ = static_cast<const uint8_t*>(addr);
    file.size_ = size;
    return file;  // the descriptor is closed by the guard; the mapping stays valid
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      path_(std::move(other.path_)) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
    if (this != &other) {
        release();
        data_ = std::exchange(other.data_, nullptr);
        size_ = std::exchange(other.size_, 0);
        path_ = std::move(other.path_);
    }
    return *this;
}

MappedFile::~MappedFile() { release(); }

void MappedFile::release() {
    if (data_ != nullptr) ::munmap(const_cast<uint8_t*>(data_), size_);
    data_ = nullptr;
    size_ = 0;
}

}  // namespace cuzk::util
