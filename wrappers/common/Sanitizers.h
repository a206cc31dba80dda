//===- Sanitizers.h - Which sanitizers the build instruments --------------===//
//
// GPU_RUNNER_ASAN and GPU_RUNNER_TSAN are defined where AddressSanitizer or
// ThreadSanitizer instruments the code, as GCC and clang each say it.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_COMMON_SANITIZERS_H
#define GPU_RUNNER_WRAPPERS_COMMON_SANITIZERS_H

#if defined(__SANITIZE_ADDRESS__)
#define GPU_RUNNER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GPU_RUNNER_ASAN 1
#endif
#endif

#if defined(__SANITIZE_THREAD__)
#define GPU_RUNNER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define GPU_RUNNER_TSAN 1
#endif
#endif

#endif // GPU_RUNNER_WRAPPERS_COMMON_SANITIZERS_H
