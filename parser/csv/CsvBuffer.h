#pragma once
// Growable array of trivially copyable values without value-initialisation.
//
// std::vector / std::string zero-fill on resize; the CSV reader sizes its output for the whole input up front
// and writes it exactly once, so that fill would be a wasted pass over hundreds of MB. Large blocks are also
// advised as transparent huge pages (Linux), which removes most first-touch page faults while parsing.

#include "HugePages.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <type_traits>
#include <utility>

namespace at::detail {

template <typename T> class PodBuffer
{
    static_assert(std::is_trivially_copyable_v<T>);

public:
    PodBuffer() = default;
    PodBuffer(const PodBuffer &o)
    {
        reserve(o.size_);
        if (o.size_)
            std::memcpy(data_, o.data_, o.size_ * sizeof(T));
        size_ = o.size_;
    }
    PodBuffer(PodBuffer &&o) noexcept
        : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)),
          cap_(std::exchange(o.cap_, 0))
    {}
    PodBuffer &operator=(PodBuffer o) noexcept
    {
        std::swap(data_, o.data_);
        std::swap(size_, o.size_);
        std::swap(cap_, o.cap_);
        return *this;
    }
    ~PodBuffer() { freeLarge(data_); }

    T *data() { return data_; }
    const T *data() const { return data_; }
    std::size_t size() const { return size_; }
    std::size_t capacity() const { return cap_; }
    bool empty() const { return size_ == 0; }
    T &operator[](std::size_t i) { return data_[i]; }
    const T &operator[](std::size_t i) const { return data_[i]; }
    T &back() { return data_[size_ - 1]; }

    void reserve(std::size_t n)
    {
        if (n > cap_)
            reallocate(n);
    }
    // Growing leaves the new elements uninitialised: callers write them before reading.
    void resize(std::size_t n)
    {
        reserve(n);
        size_ = n;
    }
    void push_back(const T &v)
    {
        if (size_ == cap_)
            reallocate(cap_ + cap_ / 2 + 64);
        data_[size_++] = v;
    }
    void append(const T *p, std::size_t n)
    {
        if (size_ + n > cap_)
            reallocate(std::max(size_ + n, cap_ + cap_ / 2));
        if (n)
            std::memcpy(data_ + size_, p, n * sizeof(T));
        size_ += n;
    }

private:
    void reallocate(std::size_t n)
    {
        T *p = static_cast<T *>(allocateLarge(n * sizeof(T)));
        if (size_)
            std::memcpy(p, data_, size_ * sizeof(T));
        freeLarge(data_);
        data_ = p;
        cap_ = n;
    }

    T *data_ = nullptr;
    std::size_t size_ = 0;
    std::size_t cap_ = 0;
};

} // namespace at::detail
