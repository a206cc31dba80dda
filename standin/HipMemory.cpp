//===- HipMemory.cpp - HIP memory, copies and memsets ---------------------===//
//
// The entry points of libgpu-runner-hip-standin.so for memory, copies and
// memsets (see HipRuntime.cpp): allocations, host registrations, 1-D, 2-D
// and 3-D copies and memsets, with the helpers for copy kinds and the
// memsets' rules.
//
//===----------------------------------------------------------------------===//

#include "standin/HipEntry.h"

#include <cinttypes>
#include <cstdio>
#include <string>

using namespace gpu_runner::standin;
using namespace gpu_runner::standin::hip;

namespace {

std::string hex(uint64_t value) {
  char text[32];
  std::snprintf(text, sizeof(text), "0x%" PRIx64, value);
  return text;
}

const char *getKindName(hipMemcpyKind kind) {
  switch (kind) {
  case hipMemcpyHostToHost:
    return "hipMemcpyHostToHost";
  case hipMemcpyHostToDevice:
    return "hipMemcpyHostToDevice";
  case hipMemcpyDeviceToHost:
    return "hipMemcpyDeviceToHost";
  case hipMemcpyDeviceToDevice:
    return "hipMemcpyDeviceToDevice";
  case hipMemcpyDefault:
    return "hipMemcpyDefault";
  }
  return "invalid";
}

/// What each side of a copy must be for its kind. hip_runtime_api.h,
/// hipMemcpy: "Calling hipMemcpy with dst and src pointers that do not match
/// the hipMemcpyKind results in undefined behavior"; the stand-in refuses
/// it. hipMemcpyDefault infers the kind "based on virtual addresses".
bool setKind(hipMemcpyKind kind, CopySide &src, CopySide &dst) {
  using Expect = CopySide::Expect;
  switch (kind) {
  case hipMemcpyHostToHost:
    src.expect = dst.expect = Expect::Host;
    return true;
  case hipMemcpyHostToDevice:
    src.expect = Expect::Host;
    dst.expect = Expect::Device;
    return true;
  case hipMemcpyDeviceToHost:
    src.expect = Expect::Device;
    dst.expect = Expect::Host;
    return true;
  case hipMemcpyDeviceToDevice:
    src.expect = dst.expect = Expect::Device;
    return true;
  case hipMemcpyDefault:
    return true;
  }
  return false;
}

/// The memsets: `height` rows of `width` elements of `size` bytes.
hipError_t memsetRows(Call &call, void *dst, size_t pitch, uint64_t value,
                      unsigned size, size_t width, size_t height,
                      hipStream_t stream) {
  // HIP documents no alignment for its 16- and 32-bit memsets; CUDA's,
  // which they mirror, say "The dstDevice pointer must be two byte aligned"
  // (four for 32 bits).
  if (reinterpret_cast<uintptr_t>(dst) % size != 0)
    return finish(call, Error::InvalidValue);
  // Rows closer than their width would overlap.
  if (height > 1 && pitch < width * size)
    return finish(call, Error::InvalidPitch);
  return finish(call, driver().fill(dst, height > 1 ? pitch : width * size,
                                    value, size, width, height, stream));
}

hipError_t memsetAsync(const char *entry, void *dst, uint64_t value,
                       unsigned size, size_t count, hipStream_t stream) {
  Call call(entry);
  call.argPointer("dst", dst)
      .argText("value", hex(value))
      .arg("count", count)
      .argHandle("stream", HandleKind::Stream, stream);
  ENTER(call, Context);
  return memsetRows(call, dst, count * size, value, size, count, 1, stream);
}

} // namespace

//===----------------------------------------------------------------------===//
// Memory.
//===----------------------------------------------------------------------===//

hipError_t hipMemGetInfo(size_t *free, size_t *total) {
  Call call("hipMemGetInfo");
  ENTER(call, Context);
  if (!free || !total)
    return finish(call, Error::InvalidValue);
  uint64_t freeBytes = 0, totalBytes = 0;
  driver().getMemoryInfo(freeBytes, totalBytes);
  *free = freeBytes;
  *total = totalBytes;
  return finish(call, Error::Success);
}

hipError_t hipMalloc(void **ptr, size_t size) {
  Call call("hipMalloc");
  call.arg("size", size);
  ENTER(call, Context);
  if (!ptr)
    return finish(call, Error::InvalidValue);
  // "If size is 0, no memory is allocated, *ptr returns nullptr, and
  // hipSuccess is returned."
  *ptr = nullptr;
  if (size == 0)
    return finish(call, Error::Success);
  Error error = driver().allocate(size, /*managed=*/false, *ptr);
  if (error == Error::Success)
    call.out("*ptr", driver().describePointer(*ptr));
  return finish(call, error);
}

hipError_t hipMallocManaged(void **dev_ptr, size_t size, unsigned int flags) {
  Call call("hipMallocManaged");
  call.arg("size", size).arg("flags", flags);
  ENTER(call, Context);
  // "flags - must be either hipMemAttachGlobal or hipMemAttachHost"; a size
  // of 0 is refused.
  if (!dev_ptr || size == 0 ||
      (flags != hipMemAttachGlobal && flags != hipMemAttachHost))
    return finish(call, Error::InvalidValue);
  Error error = driver().allocate(size, /*managed=*/true, *dev_ptr);
  if (error == Error::Success)
    call.out("*dev_ptr", driver().describePointer(*dev_ptr));
  return finish(call, error);
}

hipError_t hipFree(void *ptr) {
  Call call("hipFree");
  call.argPointer("ptr", ptr);
  ENTER(call, Context);
  // "If pointer is NULL, the hip runtime is initialized and hipSuccess is
  // returned"; an invalid one gives "hipErrorInvalidDevicePointer".
  if (!ptr)
    return finish(call, Error::Success);
  Error error = driver().free(ptr);
  if (error == Error::InvalidValue)
    return static_cast<hipError_t>(call.done(hipErrorInvalidDevicePointer));
  return finish(call, error);
}

hipError_t hipHostRegister(void *hostPtr, size_t sizeBytes,
                           unsigned int flags) {
  Call call("hipHostRegister");
  call.argPointer("hostPtr", hostPtr)
      .arg("sizeBytes", sizeBytes)
      .arg("flags", flags);
  ENTER(call, Context);
  unsigned known = hipHostRegisterPortable | hipHostRegisterMapped |
                   hipExtHostRegisterCoarseGrained;
  // hipHostRegisterIoMemory: "Not supported."
  if (flags & ~known)
    return finish(call, Error::InvalidValue);
  Error error = driver().registerHost(hostPtr, sizeBytes, flags, false);
  if (error == Error::Success)
    call.out("hostPtr", driver().describePointer(hostPtr));
  return finish(call, error);
}

hipError_t hipHostUnregister(void *hostPtr) {
  Call call("hipHostUnregister");
  call.argPointer("hostPtr", hostPtr);
  ENTER(call, Context);
  return finish(call, driver().unregisterHost(hostPtr));
}

hipError_t hipHostGetDevicePointer(void **devPtr, void *hstPtr,
                                   unsigned int flags) {
  Call call("hipHostGetDevicePointer");
  call.argPointer("hstPtr", hstPtr).arg("flags", flags);
  ENTER(call, Context);
  // "flags: Flags to be passed for extension", which must be 0.
  if (!devPtr || flags != 0)
    return finish(call, Error::InvalidValue);
  Error error = driver().getMappedPointer(hstPtr, *devPtr);
  if (error == Error::Success)
    call.out("*devPtr", driver().describePointer(*devPtr));
  return finish(call, error);
}

//===----------------------------------------------------------------------===//
// Copies and memsets.
//===----------------------------------------------------------------------===//

hipError_t hipMemcpyAsync(void *dst, const void *src, size_t sizeBytes,
                          hipMemcpyKind kind, hipStream_t stream) {
  Call call("hipMemcpyAsync");
  call.argPointer("dst", dst)
      .argPointer("src", src)
      .arg("sizeBytes", sizeBytes)
      .argText("kind", getKindName(kind))
      .argHandle("stream", HandleKind::Stream, stream);
  ENTER(call, Context);
  CopySide from, to;
  from.base = src;
  to.base = dst;
  if (!setKind(kind, from, to))
    return finish(call, Error::InvalidMemcpyDirection);
  CopyExtent extent;
  extent.widthBytes = sizeBytes;
  return finish(call, driver().copy(from, to, extent, stream));
}

hipError_t hipMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
                            size_t spitch, size_t width, size_t height,
                            hipMemcpyKind kind, hipStream_t stream) {
  Call call("hipMemcpy2DAsync");
  call.argPointer("dst", dst)
      .arg("dpitch", dpitch)
      .argPointer("src", src)
      .arg("spitch", spitch)
      .arg("width", width)
      .arg("height", height)
      .argText("kind", getKindName(kind))
      .argHandle("stream", HandleKind::Stream, stream);
  ENTER(call, Context);
  // As cudaMemcpy2D, which HIP follows: "width must not exceed either
  // dpitch or spitch", and "returns an error if dpitch or spitch exceeds
  // the maximum allowed".
  CopySide from, to;
  from.base = src;
  from.pitch = spitch;
  to.base = dst;
  to.pitch = dpitch;
  if (!setKind(kind, from, to))
    return finish(call, Error::InvalidMemcpyDirection);
  CopyExtent extent;
  extent.widthBytes = width;
  extent.height = height;
  extent.pitched = true;
  extent.maxPitch = getLimits().maxPitch;
  return finish(call, driver().copy(from, to, extent, stream));
}

hipError_t hipMemcpy3DAsync(const hipMemcpy3DParms *p, hipStream_t stream) {
  Call call("hipMemcpy3DAsync");
  if (p && driver().canRead(p, sizeof(*p)))
    call.argText(
        "p",
        "{srcPtr=" + driver().describePointer(p->srcPtr.ptr) +
            ", srcPos=" + std::to_string(p->srcPos.x) + "," +
            std::to_string(p->srcPos.y) + "," + std::to_string(p->srcPos.z) +
            ", srcPitch=" + std::to_string(p->srcPtr.pitch) +
            ", srcYsize=" + std::to_string(p->srcPtr.ysize) +
            ", dstPtr=" + driver().describePointer(p->dstPtr.ptr) +
            ", dstPos=" + std::to_string(p->dstPos.x) + "," +
            std::to_string(p->dstPos.y) + "," + std::to_string(p->dstPos.z) +
            ", dstPitch=" + std::to_string(p->dstPtr.pitch) +
            ", dstYsize=" + std::to_string(p->dstPtr.ysize) +
            ", extent=" + std::to_string(p->extent.width) + "x" +
            std::to_string(p->extent.height) + "x" +
            std::to_string(p->extent.depth) + ", kind=" + getKindName(p->kind) +
            "}");
  call.argHandle("stream", HandleKind::Stream, stream);
  ENTER(call, Context);
  if (!p || !driver().canRead(p, sizeof(*p)))
    return finish(call, Error::InvalidValue);
  // As cudaMemcpy3D, which HIP follows: it "must specify one of srcArray
  // or srcPtr and one of dstArray or dstPtr"; the stand-in has no arrays.
  // Positions and extents are in bytes for pointers ("The element for a
  // host or device pointer is assumed to be unsigned char"), and "The
  // source object must entirely contain the region defined by srcPos and
  // extent".
  if (p->srcArray || p->dstArray || !p->srcPtr.ptr || !p->dstPtr.ptr)
    return finish(call, Error::InvalidValue);
  for (const hipPitchedPtr *side : {&p->srcPtr, &p->dstPtr}) {
    const hipPos &position = side == &p->srcPtr ? p->srcPos : p->dstPos;
    if (side->xsize < position.x || side->xsize - position.x < p->extent.width)
      return finish(call, Error::InvalidValue);
  }
  CopySide from, to;
  from.base = p->srcPtr.ptr;
  from.x = p->srcPos.x;
  from.y = p->srcPos.y;
  from.z = p->srcPos.z;
  from.pitch = p->srcPtr.pitch;
  from.sliceRows = p->srcPtr.ysize;
  to.base = p->dstPtr.ptr;
  to.x = p->dstPos.x;
  to.y = p->dstPos.y;
  to.z = p->dstPos.z;
  to.pitch = p->dstPtr.pitch;
  to.sliceRows = p->dstPtr.ysize;
  if (!setKind(p->kind, from, to))
    return finish(call, Error::InvalidMemcpyDirection);
  CopyExtent extent;
  extent.widthBytes = p->extent.width;
  extent.height = p->extent.height;
  extent.depth = p->extent.depth;
  extent.pitched = true;
  extent.maxPitch = getLimits().maxPitch;
  return finish(call, driver().copy(from, to, extent, stream));
}

hipError_t hipMemsetD8Async(hipDeviceptr_t dest, unsigned char value,
                            size_t count, hipStream_t stream) {
  return memsetAsync("hipMemsetD8Async", dest, value, 1, count, stream);
}

hipError_t hipMemsetD16Async(hipDeviceptr_t dest, unsigned short value,
                             size_t count, hipStream_t stream) {
  return memsetAsync("hipMemsetD16Async", dest, value, 2, count, stream);
}

hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count,
                             hipStream_t stream) {
  return memsetAsync("hipMemsetD32Async", dst, static_cast<uint32_t>(value), 4,
                     count, stream);
}

hipError_t hipMemset2DAsync(void *dst, size_t pitch, int value, size_t width,
                            size_t height, hipStream_t stream) {
  Call call("hipMemset2DAsync");
  call.argPointer("dst", dst)
      .arg("pitch", pitch)
      .argText("value", hex(static_cast<unsigned char>(value)))
      .arg("width", width)
      .arg("height", height)
      .argHandle("stream", HandleKind::Stream, stream);
  ENTER(call, Context);
  return memsetRows(call, dst, pitch, static_cast<unsigned char>(value), 1,
                    width, height, stream);
}
