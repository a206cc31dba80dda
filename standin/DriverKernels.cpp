//===- DriverKernels.cpp - Kernel IR, and launches that run it ------------===//
//
// The Driver's part of running kernels (see Driver.cpp): compiling the IR a
// module's image was made from (KernelCompiler), queueing a launch on its
// stream with a copy of its parameters, and, when the grid has run on the
// stream's worker (KernelRuntime), keeping what it printed until the next
// flush and leaving its failure on the context as CUDA's sticky errors.
//
//===----------------------------------------------------------------------===//

#include "standin/Driver.h"

#include "standin/KernelCompiler.h"
#include "standin/KernelRuntime.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace gpu_runner {
namespace standin {

Error Driver::attachKernelIR(Call &call, void *module, const void *bitcode,
                             size_t bytes, char *log, size_t logBytes) {
  std::string message;
  Error error = Error::InvalidValue;
  if (!bitcode || !bytes || !canRead(bitcode, bytes) ||
      (logBytes && !canRead(log, logBytes)))
    message = "the bitcode or the log cannot be read";
  else
    error = attachKernelIR(module, bitcode, bytes, message);
  if (log && logBytes)
    std::snprintf(log, logBytes, "%s", message.c_str());
  if (!message.empty())
    call.out("why", message);
  return error;
}

Error Driver::attachKernelIR(void *handle, const void *bitcode, uint64_t bytes,
                             std::string &message) {
  ImageInfo image;
  int device = 0;
  {
    std::lock_guard<std::mutex> lock(scheduler.mutex);
    uint64_t id = 0;
    auto it = readHandle(handle, HandleKind::Module, id) ? modules.find(id)
                                                         : modules.end();
    if (it == modules.end())
      return Error::InvalidHandle;
    if (it->second.program) {
      message = "the module has its kernel IR already";
      return Error::InvalidValue;
    }
    image = it->second.image;
    device = it->second.device;
  }
  // Compiled without the lock: it takes a while, and needs nothing of the
  // driver's state but the arena, which never moves.
  const Arena &arena = memory.getDeviceArena(device);
  ArenaView view;
  view.base = arena.getBase();
  view.size = arena.getSize();
  view.delta = reinterpret_cast<uintptr_t>(arena.access(arena.getBase())) -
               arena.getBase();
  std::unique_ptr<KernelProgram> program;
  if (Error error =
          KernelProgram::compile(bitcode, bytes, image, view, program, message);
      error != Error::Success)
    return error;
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  uint64_t id = 0;
  readHandle(handle, HandleKind::Module, id);
  auto it = modules.find(id);
  if (it == modules.end())
    return Error::InvalidHandle;
  it->second.program = std::move(program);
  return Error::Success;
}

Error Driver::enqueueLaunch(Stream &stream, const Module &module,
                            const CompiledKernel &kernel,
                            const LaunchRequest &request) {
  auto grid = std::make_shared<GridRun>();
  grid->program = module.program;
  grid->kernel = &kernel;
  for (int i = 0; i < 3; ++i) {
    grid->grid[i] = static_cast<uint32_t>(request.grid[i]);
    grid->block[i] = static_cast<uint32_t>(request.block[i]);
    grid->cluster[i] = static_cast<uint32_t>(request.cluster[i]);
  }
  grid->explicitCluster = request.useCluster;
  grid->dynamicSharedBytes = request.sharedBytes;
  grid->gridId = nextId++;
  // cuda.h, cuLaunchKernel: the parameters' values are read when the
  // launch is made (the arrays may be reused at once): each is copied, at
  // an offset aligned to 16 bytes.
  size_t count = kernel.paramSizes.size();
  std::vector<size_t> offsets(count);
  size_t words = 0;
  for (size_t i = 0; i < count; ++i) {
    offsets[i] = words;
    words += (kernel.paramSizes[i] + 15) / 16 * 2;
  }
  grid->paramStorage.assign(words + 2, 0);
  grid->params.resize(count);
  for (size_t i = 0; i < count; ++i) {
    char *to = reinterpret_cast<char *>(&grid->paramStorage[offsets[i]]);
    const char *from = request.extra
                           ? static_cast<const char *>(request.extraBuffer) +
                                 kernel.paramOffsets[i]
                           : static_cast<const char *>(request.kernelParams[i]);
    std::memcpy(to, from, kernel.paramSizes[i]);
    grid->params[i] = to;
  }
  // Managed memory and the registrations, as they are now: what the kernel
  // may reach besides its device's memory.
  const Arena &managed = memory.getManagedArena();
  grid->memory.managedBase = managed.getBase();
  grid->memory.managedSize = managed.getSize();
  for (const Registration &registration : memory.liveRegistrations())
    grid->memory.registrations.push_back(
        {registration.begin, registration.bytes, registration.readOnly});
  std::sort(grid->memory.registrations.begin(),
            grid->memory.registrations.end(),
            [](const ReachableMemory::Range &a,
               const ReachableMemory::Range &b) { return a.begin < b.begin; });
  int device = stream.device;
  submit(stream, [this, grid, device] {
    // A context with a sticky error runs nothing more.
    if (getStickyCode(device))
      return;
    runGrid(*grid);
    finishGrid(*grid, device);
  });
  return Error::Success;
}

void Driver::finishGrid(GridRun &grid, int device) {
  std::string output, errors;
  for (auto &[block, text] : grid.output)
    output += text;
  for (auto &[block, text] : grid.errorOutput)
    errors += text;
  for (auto &[block, text] : grid.assertions)
    errors += text;
  // What the grid printed on stderr before a failure of the stand-in's
  // finding (a HIP device assert's line, before its trap) comes out before
  // that finding, as it would from a GPU.
  bool reported = grid.error != Error::Success && !grid.report.empty();
  {
    std::lock_guard<std::mutex> lock(outputMutex);
    pendingOutput += output;
    if (!reported)
      pendingErrors += errors;
  }
  if (reported && !errors.empty()) {
    std::fwrite(errors.data(), 1, errors.size(), stderr);
    std::fflush(stderr);
  }
  if (grid.error == Error::Success)
    return;
  const Vendor &vendor = getVendor();
  int code = vendor.getCode(grid.error);
  const char *name = vendor.getErrorName(code);
  std::string line = "launch of kernel '" + grid.kernel->name +
                     "' failed: " + (name ? name : std::to_string(code));
  if (!grid.report.empty()) {
    // The stand-in's own finding: at once, on stderr.
    std::string text = std::string("gpu-runner ") + vendor.getName() +
                       " stand-in: " + grid.report + "\n";
    std::fputs(text.c_str(), stderr);
    std::fflush(stderr);
    line += ": " + grid.report;
  }
  log.write(line);
  if (vendor.isSticky(code))
    setStickyCode(device, code);
}

void Driver::flushKernelOutput() {
  std::string output, errors;
  {
    std::lock_guard<std::mutex> lock(outputMutex);
    output.swap(pendingOutput);
    errors.swap(pendingErrors);
  }
  if (!output.empty()) {
    std::fwrite(output.data(), 1, output.size(), stdout);
    std::fflush(stdout);
  }
  // CUDA C++ Programming Guide, "Assertion": each failing thread's message
  // is printed to stderr after the host synchronizes.
  if (!errors.empty()) {
    std::fwrite(errors.data(), 1, errors.size(), stderr);
    std::fflush(stderr);
  }
}

} // namespace standin
} // namespace gpu_runner
