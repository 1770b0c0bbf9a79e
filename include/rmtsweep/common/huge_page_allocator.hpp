#pragma once
/// An allocator for the large per-point arrays (the covariance S, the data panels, the noise
/// table): blocks of 2 MiB or more are aligned to 2 MiB and offered to the kernel as
/// transparent huge pages (madvise MADV_HUGEPAGE, honoured when THP is "madvise" or
/// "always"), and elements are default-initialised, so a buffer that is written before it is
/// read is not zero-filled first.
///
/// Why: every point allocates its S (32 MB at d = 2000) and its table (64 MB) afresh, and with
/// 4 KiB pages the first touch costs one page fault per 4 KiB (16 000 for the table). Measured at
/// d = 2000 on 2 cores: drawing the table into fresh memory took 0.080 s against 0.063 s into
/// memory already touched, and asking for huge pages took 0.01 s off the fresh case. Where THP
/// is off the advice is ignored and the allocation behaves like any aligned one.
#include <cstddef>
#include <cstdlib>
#include <new>
#include <utility>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace rmtsweep {

template <class T>
class HugePageAllocator {
 public:
  using value_type = T;
  /// Blocks from this size up are huge-page aligned and advised.
  static constexpr std::size_t huge_page = std::size_t{2} << 20;

  HugePageAllocator() noexcept = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}  // NOLINT: rebinding is implicit

  T* allocate(std::size_t n) {
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_array_new_length();
    const std::size_t bytes = n * sizeof(T);
    if (bytes < huge_page) return static_cast<T*>(::operator new (bytes, std::align_val_t{alignof(T)}));
    const std::size_t rounded = (bytes + huge_page - 1) / huge_page * huge_page;
    void* p = std::aligned_alloc(huge_page, rounded);
    if (p == nullptr) throw std::bad_alloc();
#if defined(MADV_HUGEPAGE)
    ::madvise(p, rounded, MADV_HUGEPAGE);  // advice only: its failure (THP off) changes nothing
#endif
    return static_cast<T*>(p);
  }

  void deallocate(T* p, std::size_t n) noexcept {
    if (n * sizeof(T) < huge_page) {
      ::operator delete (p, std::align_val_t{alignof(T)});
    } else {
      std::free(p);
    }
  }

  /// Default-initialisation for value-less construction (no zero-fill of doubles).
  template <class U>
  void construct(U* p) noexcept(noexcept(::new (static_cast<void*>(p)) U)) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }

  template <class U>
  bool operator==(const HugePageAllocator<U>&) const noexcept {
    return true;
  }
};

}  // namespace rmtsweep
