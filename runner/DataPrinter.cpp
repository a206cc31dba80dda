//===- DataPrinter.cpp - Results printed as printMemref prints them -------===//

#include "runner/DataPrinter.h"

#include <cstdint>
#include <cstdio>
#include <vector>

namespace gpu_runner {

std::string formatElement(ElementType type, const char *element) {
  char text[64];
  if (isFloatType(type)) {
    // As a C++ stream prints a float by default: %g, 6 digits.
    std::snprintf(text, sizeof(text), "%g", readFloat(type, element));
    return text;
  }
  return std::to_string(readInteger(type, element));
}

namespace {

/// printMemref's data printer (mlir/ExecutionEngine/RunnerUtils.h) over a
/// value in C order: `dims` is what is left of the shape.
class DataPrinter {
public:
  DataPrinter(llvm::raw_ostream &os, const DataValue &value)
      : os(os), value(value), rank(value.shape.size()),
        size(getElementSize(*value.type)) {
    // Unsigned: a shape with a size 0 may have other sizes whose product
    // does not fit, and its strides are never used.
    strides.resize(rank);
    uint64_t stride = 1;
    for (size_t i = rank; i-- > 0;) {
      strides[i] = int64_t(stride);
      stride *= uint64_t(value.shape[i]);
    }
  }

  void print() { print(rank, 0); }

private:
  void printSpace(size_t count) { os.indent(count); }

  void print(size_t dims, uint64_t offset) {
    if (dims == 0) {
      os << formatElement(*value.type, value.data.data() + offset * size);
      return;
    }
    size_t axis = rank - dims;
    int64_t count = value.shape[axis];
    if (count == 0) {
      os << "[]";
      return;
    }
    os << "[";
    print(dims - 1, offset);
    if (count == 1) {
      os << "]";
      return;
    }
    os << ", ";
    if (dims > 1)
      os << "\n";
    for (int64_t i = 1; i + 1 < count; ++i) {
      printSpace(axis + 1);
      print(dims - 1, offset + uint64_t(i) * uint64_t(strides[axis]));
      os << ", ";
      if (dims > 1)
        os << "\n";
    }
    printSpace(axis + 1);
    print(dims - 1, offset + uint64_t(count - 1) * uint64_t(strides[axis]));
    os << "]";
  }

  llvm::raw_ostream &os;
  const DataValue &value;
  size_t rank;
  unsigned size;
  std::vector<int64_t> strides;
};

} // namespace

void printData(llvm::raw_ostream &os, const DataValue &value) {
  DataPrinter(os, value).print();
  os << "\n";
}

} // namespace gpu_runner
