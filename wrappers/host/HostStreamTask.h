//===- HostStreamTask.h - What a host stream runs -------------------------===//
//
// The task a host stream's worker runs (HostStreams.h): a callable kept in
// the task itself when it is small, so that enqueueing allocates nothing.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_HOST_HOSTSTREAMTASK_H
#define GPU_RUNNER_WRAPPERS_HOST_HOSTSTREAMTASK_H

#include "wrappers/common/RuntimeError.h"

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace gpu_runner {

/// A callable that returns a Status, like std::function<Status()>, but
/// kept in the object itself when it fits in kInlineBytes (what copies,
/// fills, launches and waits capture all do), so that enqueueing one
/// allocates nothing; larger ones are kept on the heap. Move-only.
class StreamTask {
public:
  static constexpr size_t kInlineBytes = 48;

  StreamTask() = default;
  StreamTask(std::nullptr_t) {}
  template <typename F, typename = std::enable_if_t<
                            !std::is_same_v<std::decay_t<F>, StreamTask> &&
                            std::is_invocable_r_v<Status, std::decay_t<F> &>>>
  StreamTask(F &&function) {
    using Stored = std::decay_t<F>;
    if constexpr (fitsInline<Stored>()) {
      new (storage) Stored(std::forward<F>(function));
      ops = &kInlineOps<Stored>;
    } else {
      *reinterpret_cast<Stored **>(storage) =
          new Stored(std::forward<F>(function));
      ops = &kHeapOps<Stored>;
    }
  }
  StreamTask(StreamTask &&other) noexcept { take(other); }
  StreamTask &operator=(StreamTask &&other) noexcept {
    if (this != &other) {
      reset();
      take(other);
    }
    return *this;
  }
  StreamTask &operator=(std::nullptr_t) {
    reset();
    return *this;
  }
  StreamTask(const StreamTask &) = delete;
  StreamTask &operator=(const StreamTask &) = delete;
  ~StreamTask() { reset(); }

  explicit operator bool() const { return ops != nullptr; }
  Status operator()() { return ops->call(storage); }

private:
  struct Ops {
    Status (*call)(void *storage);
    /// Move-constructs into `to` and destroys `from`.
    void (*relocate)(void *to, void *from);
    void (*destroy)(void *storage);
  };

  template <typename Stored> static constexpr bool fitsInline() {
    return sizeof(Stored) <= kInlineBytes &&
           alignof(Stored) <= alignof(std::max_align_t) &&
           std::is_nothrow_move_constructible_v<Stored>;
  }

  template <typename Stored>
  static inline const Ops kInlineOps = {
      [](void *storage) { return (*static_cast<Stored *>(storage))(); },
      [](void *to, void *from) {
        new (to) Stored(std::move(*static_cast<Stored *>(from)));
        static_cast<Stored *>(from)->~Stored();
      },
      [](void *storage) { static_cast<Stored *>(storage)->~Stored(); }};

  template <typename Stored>
  static inline const Ops kHeapOps = {
      [](void *storage) { return (**static_cast<Stored **>(storage))(); },
      [](void *to, void *from) {
        *static_cast<Stored **>(to) = *static_cast<Stored **>(from);
      },
      [](void *storage) { delete *static_cast<Stored **>(storage); }};

  void take(StreamTask &other) {
    if (other.ops) {
      other.ops->relocate(storage, other.storage);
      ops = other.ops;
      other.ops = nullptr;
    }
  }
  void reset() {
    if (ops) {
      ops->destroy(storage);
      ops = nullptr;
    }
  }

  alignas(std::max_align_t) unsigned char storage[kInlineBytes];
  const Ops *ops = nullptr;
};

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_HOST_HOSTSTREAMTASK_H
