//===- AssertSource.cpp - Where a failed cf.assert says it is -------------===//

#include "lowering/AssertSource.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;

namespace gpu_runner {

AssertSource getAssertSource(Location loc) {
  AssertSource source;
  while (auto callSite = dyn_cast<CallSiteLoc>(loc))
    loc = callSite.getCallee();
  auto fromFile = [&](Location child) {
    if (auto file = dyn_cast<FileLineColRange>(child)) {
      source.file = file.getFilename().str();
      source.line = static_cast<int32_t>(file.getStartLine());
    }
  };
  if (auto name = dyn_cast<NameLoc>(loc)) {
    source.function = name.getName().str();
    fromFile(name.getChildLoc());
  } else {
    fromFile(loc);
  }
  return source;
}

} // namespace gpu_runner
