//===- CudaMemory.cpp - CUDA memory, copies and memsets -------------------===//
//
// The entry points of libgpu-runner-cuda-standin.so for memory, copies and
// memsets (see CudaDriver.cpp): allocations, host registrations, 1-D, 2-D
// and 3-D copies and memsets, with the helpers that read and describe a
// CUDA_MEMCPY2D's or CUDA_MEMCPY3D's sides and the memsets' rules.
//
//===----------------------------------------------------------------------===//

#include "standin/CudaEntry.h"

#include <cinttypes>
#include <cstdio>
#include <string>

using namespace gpu_runner::standin;
using namespace gpu_runner::standin::cuda;

namespace {

std::string hex(uint64_t value) {
  char text[32];
  std::snprintf(text, sizeof(text), "0x%" PRIx64, value);
  return text;
}

const void *pointerOf(CUdeviceptr address) {
  return reinterpret_cast<const void *>(static_cast<uintptr_t>(address));
}

CUdeviceptr addressOf(const void *pointer) {
  return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(pointer));
}

const char *getMemoryTypeName(CUmemorytype type) {
  switch (type) {
  case CU_MEMORYTYPE_HOST:
    return "HOST";
  case CU_MEMORYTYPE_DEVICE:
    return "DEVICE";
  case CU_MEMORYTYPE_ARRAY:
    return "ARRAY";
  case CU_MEMORYTYPE_UNIFIED:
    return "UNIFIED";
  }
  return "invalid";
}

/// One side of a 2-D or 3-D copy from its memory type and pointer fields.
/// cuda.h, CUDA_MEMCPY2D: HOST uses the host pointer, DEVICE the device
/// pointer, UNIFIED "(unified virtual address space) base address" in the
/// device field, ARRAY a CUDA array; the stand-in has no arrays.
bool readCopySide(CUmemorytype type, const void *host, CUdeviceptr device,
                  CopySide &side) {
  switch (type) {
  case CU_MEMORYTYPE_HOST:
    side.base = host;
    side.expect = CopySide::Expect::Host;
    return true;
  case CU_MEMORYTYPE_DEVICE:
    side.base = pointerOf(device);
    side.expect = CopySide::Expect::Device;
    return true;
  case CU_MEMORYTYPE_UNIFIED:
    side.base = pointerOf(device);
    side.expect = CopySide::Expect::Any;
    return true;
  default:
    return false;
  }
}

/// The trace's view of one side of a copy.
std::string describeSide(const char *prefix, CUmemorytype type,
                         const void *host, CUdeviceptr device, size_t x,
                         size_t y, size_t z, size_t pitch, size_t height,
                         bool is3d) {
  std::string text = std::string(prefix) +
                     "MemoryType=" + getMemoryTypeName(type) + ", " + prefix;
  if (type == CU_MEMORYTYPE_HOST)
    text += "Host=" + driver().describePointer(host);
  else
    text += "Device=" + driver().describePointer(pointerOf(device));
  if (x)
    text += std::string(", ") + prefix + "XInBytes=" + std::to_string(x);
  if (y)
    text += std::string(", ") + prefix + "Y=" + std::to_string(y);
  if (z)
    text += std::string(", ") + prefix + "Z=" + std::to_string(z);
  text += std::string(", ") + prefix + "Pitch=" + std::to_string(pitch);
  if (is3d)
    text += std::string(", ") + prefix + "Height=" + std::to_string(height);
  return text;
}

/// The memsets: `height` rows of `width` elements of `size` bytes.
CUresult memsetRows(Call &call, CUdeviceptr dst, size_t pitch, uint64_t value,
                    unsigned size, size_t width, size_t height,
                    CUstream stream) {
  // cuda.h, cuMemsetD16 / cuMemsetD2D16: "The dstDevice pointer and dstPitch
  // offset must be two byte aligned"; the 32-bit forms four.
  if (dst % size != 0 || (height > 1 && pitch % size != 0))
    return fail(call, Error::InvalidValue);
  // dstPitch is "(Unused if Height is 1)". For more rows the documentation
  // names no bound, but rows closer than their width would overlap.
  if (height > 1 && pitch < width * size)
    return fail(call, Error::InvalidValue);
  return finish(call, driver().fill(const_cast<void *>(pointerOf(dst)),
                                    height > 1 ? pitch : width * size, value,
                                    size, width, height, stream));
}

CUresult memsetAsync(const char *entry, CUdeviceptr dst, uint64_t value,
                     unsigned size, size_t count, CUstream stream) {
  Call call(entry);
  call.argPointer("dstDevice", pointerOf(dst))
      .argText(size == 1   ? "uc"
               : size == 2 ? "us"
                           : "ui",
               hex(value))
      .arg("N", count)
      .argHandle("hStream", HandleKind::Stream, stream);
  ENTER(call, Context);
  return memsetRows(call, dst, count * size, value, size, count, 1, stream);
}

CUresult memset2DAsync(const char *entry, CUdeviceptr dst, size_t pitch,
                       uint64_t value, unsigned size, size_t width,
                       size_t height, CUstream stream) {
  Call call(entry);
  call.argPointer("dstDevice", pointerOf(dst))
      .arg("dstPitch", pitch)
      .argText(size == 1   ? "uc"
               : size == 2 ? "us"
                           : "ui",
               hex(value))
      .arg("Width", width)
      .arg("Height", height)
      .argHandle("hStream", HandleKind::Stream, stream);
  ENTER(call, Context);
  return memsetRows(call, dst, pitch, value, size, width, height, stream);
}

} // namespace

//===----------------------------------------------------------------------===//
// Memory.
//===----------------------------------------------------------------------===//

CUresult cuMemGetInfo(size_t *free, size_t *total) {
  Call call("cuMemGetInfo_v2");
  ENTER(call, Context);
  if (!free || !total)
    return fail(call, Error::InvalidValue);
  uint64_t freeBytes = 0, totalBytes = 0;
  driver().getMemoryInfo(freeBytes, totalBytes);
  *free = freeBytes;
  *total = totalBytes;
  return finish(call, Error::Success);
}

CUresult cuMemAlloc(CUdeviceptr *dptr, size_t bytesize) {
  Call call("cuMemAlloc_v2");
  call.arg("bytesize", bytesize);
  ENTER(call, Context);
  // cuda.h, cuMemAlloc: "If bytesize is 0, cuMemAlloc() returns
  // CUDA_ERROR_INVALID_VALUE."
  if (!dptr || bytesize == 0)
    return fail(call, Error::InvalidValue);
  void *pointer = nullptr;
  Error error = driver().allocate(bytesize, /*managed=*/false, pointer);
  *dptr = addressOf(pointer);
  if (error == Error::Success)
    call.out("*dptr", driver().describePointer(pointer));
  return finish(call, error);
}

CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize,
                           unsigned int flags) {
  Call call("cuMemAllocManaged");
  call.arg("bytesize", bytesize).arg("flags", flags);
  ENTER(call, Context);
  // cuda.h, cuMemAllocManaged: "If bytesize is 0, cuMemAllocManaged returns
  // CUDA_ERROR_INVALID_VALUE"; "flags must be one of CU_MEM_ATTACH_GLOBAL
  // or CU_MEM_ATTACH_HOST".
  if (!dptr || bytesize == 0 ||
      (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST))
    return fail(call, Error::InvalidValue);
  void *pointer = nullptr;
  Error error = driver().allocate(bytesize, /*managed=*/true, pointer);
  *dptr = addressOf(pointer);
  if (error == Error::Success)
    call.out("*dptr", driver().describePointer(pointer));
  return finish(call, error);
}

CUresult cuMemFree(CUdeviceptr dptr) {
  Call call("cuMemFree_v2");
  call.argPointer("dptr", pointerOf(dptr));
  ENTER(call, Context);
  // dptr "must have been returned by a previous call to" an allocation
  // function. As cudaFree, which cuda_runtime_api.h documents: "If
  // cudaFree(devPtr) has already been called before, an error is returned.
  // If devPtr is 0, no operation is performed."
  if (!dptr)
    return finish(call, Error::Success);
  return finish(call, driver().free(const_cast<void *>(pointerOf(dptr))));
}

CUresult cuMemHostRegister(void *p, size_t bytesize, unsigned int Flags) {
  Call call("cuMemHostRegister_v2");
  call.argPointer("p", p).arg("bytesize", bytesize).arg("Flags", Flags);
  ENTER(call, Context);
  unsigned known = CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP |
                   CU_MEMHOSTREGISTER_IOMEMORY | CU_MEMHOSTREGISTER_READ_ONLY;
  if (Flags & ~known)
    return fail(call, Error::InvalidValue);
  // CU_MEMHOSTREGISTER_IOMEMORY is for memory of another PCIe device, which
  // the stand-in has none of.
  if (Flags & CU_MEMHOSTREGISTER_IOMEMORY)
    return fail(call, Error::InvalidValue);
  Error error = driver().registerHost(p, bytesize, Flags,
                                      Flags & CU_MEMHOSTREGISTER_READ_ONLY);
  if (error == Error::Success)
    call.out("p", driver().describePointer(p));
  return finish(call, error);
}

CUresult cuMemHostUnregister(void *p) {
  Call call("cuMemHostUnregister");
  call.argPointer("p", p);
  ENTER(call, Context);
  return finish(call, driver().unregisterHost(p));
}

CUresult cuMemHostGetDevicePointer(CUdeviceptr *pdptr, void *p,
                                   unsigned int Flags) {
  Call call("cuMemHostGetDevicePointer_v2");
  call.argPointer("p", p).arg("Flags", Flags);
  ENTER(call, Context);
  // "Flags provided for future releases. For now, it must be set to 0."
  if (!pdptr || Flags != 0)
    return fail(call, Error::InvalidValue);
  void *device = nullptr;
  Error error = driver().getMappedPointer(p, device);
  if (error == Error::Success) {
    *pdptr = addressOf(device);
    call.out("*pdptr", driver().describePointer(device));
  }
  return finish(call, error);
}

//===----------------------------------------------------------------------===//
// Copies and memsets.
//===----------------------------------------------------------------------===//

CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount) {
  Call call("cuMemcpy");
  call.argPointer("dst", pointerOf(dst))
      .argPointer("src", pointerOf(src))
      .arg("ByteCount", ByteCount);
  ENTER(call, Context);
  CopySide from, to;
  from.base = pointerOf(src);
  to.base = pointerOf(dst);
  CopyExtent extent;
  extent.widthBytes = ByteCount;
  // The synchronous form: on the legacy stream, returning once done.
  Error error = driver().copy(from, to, extent, nullptr);
  if (error == Error::Success)
    error = driver().synchronizeStream(nullptr);
  return finish(call, error);
}

CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount,
                       CUstream hStream) {
  Call call("cuMemcpyAsync");
  call.argPointer("dst", pointerOf(dst))
      .argPointer("src", pointerOf(src))
      .arg("ByteCount", ByteCount)
      .argHandle("hStream", HandleKind::Stream, hStream);
  ENTER(call, Context);
  // cuda.h, cuMemcpyAsync: "infers the type of the transfer (host to host,
  // host to device, device to device, or device to host) from the pointer
  // values."
  CopySide from, to;
  from.base = pointerOf(src);
  to.base = pointerOf(dst);
  CopyExtent extent;
  extent.widthBytes = ByteCount;
  return finish(call, driver().copy(from, to, extent, hStream));
}

CUresult cuMemcpy2DAsync(const CUDA_MEMCPY2D *pCopy, CUstream hStream) {
  Call call("cuMemcpy2DAsync_v2");
  if (pCopy && driver().canRead(pCopy, sizeof(*pCopy)))
    call.argText("pCopy",
                 "{" +
                     describeSide("src", pCopy->srcMemoryType, pCopy->srcHost,
                                  pCopy->srcDevice, pCopy->srcXInBytes,
                                  pCopy->srcY, 0, pCopy->srcPitch, 0, false) +
                     ", " +
                     describeSide("dst", pCopy->dstMemoryType, pCopy->dstHost,
                                  pCopy->dstDevice, pCopy->dstXInBytes,
                                  pCopy->dstY, 0, pCopy->dstPitch, 0, false) +
                     ", WidthInBytes=" + std::to_string(pCopy->WidthInBytes) +
                     ", Height=" + std::to_string(pCopy->Height) + "}");
  call.argHandle("hStream", HandleKind::Stream, hStream);
  ENTER(call, Context);
  if (!pCopy || !driver().canRead(pCopy, sizeof(*pCopy)))
    return fail(call, Error::InvalidValue);
  CopySide from, to;
  if (!readCopySide(pCopy->srcMemoryType, pCopy->srcHost, pCopy->srcDevice,
                    from) ||
      !readCopySide(pCopy->dstMemoryType, pCopy->dstHost, pCopy->dstDevice, to))
    return fail(call, Error::InvalidValue);
  from.x = pCopy->srcXInBytes;
  from.y = pCopy->srcY;
  from.pitch = pCopy->srcPitch;
  to.x = pCopy->dstXInBytes;
  to.y = pCopy->dstY;
  to.pitch = pCopy->dstPitch;
  CopyExtent extent;
  extent.widthBytes = pCopy->WidthInBytes;
  extent.height = pCopy->Height;
  extent.pitched = true;
  extent.maxPitch = getLimits().maxPitch;
  return finish(call, driver().copy(from, to, extent, hStream));
}

CUresult cuMemcpy3DAsync(const CUDA_MEMCPY3D *pCopy, CUstream hStream) {
  Call call("cuMemcpy3DAsync_v2");
  if (pCopy && driver().canRead(pCopy, sizeof(*pCopy)))
    call.argText(
        "pCopy",
        "{" +
            describeSide("src", pCopy->srcMemoryType, pCopy->srcHost,
                         pCopy->srcDevice, pCopy->srcXInBytes, pCopy->srcY,
                         pCopy->srcZ, pCopy->srcPitch, pCopy->srcHeight, true) +
            ", " +
            describeSide("dst", pCopy->dstMemoryType, pCopy->dstHost,
                         pCopy->dstDevice, pCopy->dstXInBytes, pCopy->dstY,
                         pCopy->dstZ, pCopy->dstPitch, pCopy->dstHeight, true) +
            ", WidthInBytes=" + std::to_string(pCopy->WidthInBytes) +
            ", Height=" + std::to_string(pCopy->Height) +
            ", Depth=" + std::to_string(pCopy->Depth) + "}");
  call.argHandle("hStream", HandleKind::Stream, hStream);
  ENTER(call, Context);
  if (!pCopy || !driver().canRead(pCopy, sizeof(*pCopy)))
    return fail(call, Error::InvalidValue);
  // cuda.h, cuMemcpy3D: "The srcLOD and dstLOD members of the CUDA_MEMCPY3D
  // structure must be set to 0"; reserved0 and reserved1 "Must be NULL".
  if (pCopy->srcLOD || pCopy->dstLOD || pCopy->reserved0 || pCopy->reserved1)
    return fail(call, Error::InvalidValue);
  CopySide from, to;
  if (!readCopySide(pCopy->srcMemoryType, pCopy->srcHost, pCopy->srcDevice,
                    from) ||
      !readCopySide(pCopy->dstMemoryType, pCopy->dstHost, pCopy->dstDevice, to))
    return fail(call, Error::InvalidValue);
  from.x = pCopy->srcXInBytes;
  from.y = pCopy->srcY;
  from.z = pCopy->srcZ;
  from.pitch = pCopy->srcPitch;
  from.sliceRows = pCopy->srcHeight;
  to.x = pCopy->dstXInBytes;
  to.y = pCopy->dstY;
  to.z = pCopy->dstZ;
  to.pitch = pCopy->dstPitch;
  to.sliceRows = pCopy->dstHeight;
  CopyExtent extent;
  extent.widthBytes = pCopy->WidthInBytes;
  extent.height = pCopy->Height;
  extent.depth = pCopy->Depth;
  extent.pitched = true;
  extent.maxPitch = getLimits().maxPitch;
  return finish(call, driver().copy(from, to, extent, hStream));
}

CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N,
                         CUstream hStream) {
  return memsetAsync("cuMemsetD8Async", dstDevice, uc, 1, N, hStream);
}

CUresult cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N,
                          CUstream hStream) {
  return memsetAsync("cuMemsetD16Async", dstDevice, us, 2, N, hStream);
}

CUresult cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N,
                          CUstream hStream) {
  return memsetAsync("cuMemsetD32Async", dstDevice, ui, 4, N, hStream);
}

CUresult cuMemsetD2D8Async(CUdeviceptr dstDevice, size_t dstPitch,
                           unsigned char uc, size_t Width, size_t Height,
                           CUstream hStream) {
  return memset2DAsync("cuMemsetD2D8Async", dstDevice, dstPitch, uc, 1, Width,
                       Height, hStream);
}

CUresult cuMemsetD2D16Async(CUdeviceptr dstDevice, size_t dstPitch,
                            unsigned short us, size_t Width, size_t Height,
                            CUstream hStream) {
  return memset2DAsync("cuMemsetD2D16Async", dstDevice, dstPitch, us, 2, Width,
                       Height, hStream);
}

CUresult cuMemsetD2D32Async(CUdeviceptr dstDevice, size_t dstPitch,
                            unsigned int ui, size_t Width, size_t Height,
                            CUstream hStream) {
  return memset2DAsync("cuMemsetD2D32Async", dstDevice, dstPitch, ui, 4, Width,
                       Height, hStream);
}
