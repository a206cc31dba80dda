//===- StridedCopyTest.cpp - Copies and fills of strided memrefs ----------===//
//
// Descriptor reading, byte ranges, the coalescing of dimensions into
// contiguous runs, and the data that copies and fills write (and do not
// write) on plain host buffers.
//
//===----------------------------------------------------------------------===//

#include "wrappers/common/StridedCopy.h"
#include "wrappers/host/HostCopies.h"

#include "unittests/wrappers/TestSupport.h"

#include <cstring>
#include <numeric>
#include <vector>

using namespace gpu_runner;
using namespace gpu_runner::test;

namespace {

MemRefView view(void *aligned, int64_t offset, std::vector<int64_t> sizes,
                std::vector<int64_t> strides, int64_t elementSizeBytes) {
  MemRefView result;
  result.aligned = static_cast<char *>(aligned);
  result.offset = offset;
  result.sizes = std::move(sizes);
  result.strides = std::move(strides);
  result.elementSizeBytes = elementSizeBytes;
  return result;
}

} // namespace

TEST_CASE("descriptors are read field by field as MLIR lays them out",
          "[strided]") {
  int32_t data[12];
  Descriptor<2> descriptor{data + 1, data, 3, {2, 4}, {5, 1}};
  MemRefView result;
  REQUIRE_OK(readMemRefDescriptor(2, &descriptor, 4, "source", result));
  CHECK(result.aligned == reinterpret_cast<char *>(data));
  CHECK(result.offset == 3);
  CHECK(result.sizes == std::vector<int64_t>{2, 4});
  CHECK(result.strides == std::vector<int64_t>{5, 1});
  CHECK(result.elementSizeBytes == 4);

  Descriptor<0> scalar{data, data + 2, 1};
  REQUIRE_OK(readMemRefDescriptor(0, &scalar, 8, "source", result));
  CHECK(result.aligned == reinterpret_cast<char *>(data + 2));
  CHECK(result.offset == 1);
  CHECK(result.rank() == 0);
}

TEST_CASE("bad descriptors are errors that name the side", "[strided]") {
  MemRefView result;
  REQUIRE_ERROR(readMemRefDescriptor(1, nullptr, 4, "destination", result),
                "the destination memref descriptor is a null pointer");
  int32_t data[4];
  Descriptor<2> negative{data, data, 0, {2, -3}, {1, 1}};
  REQUIRE_ERROR(readMemRefDescriptor(2, &negative, 4, "source", result),
                "the source has a negative size, -3, in dimension 1");
  REQUIRE_ERROR(readMemRefDescriptor(-1, &negative, 4, "source", result),
                "negative rank");
  REQUIRE_ERROR(readMemRefDescriptor(2, &negative, 0, "source", result),
                "element size of 0 bytes");
}

TEST_CASE("shapes print joined with x, rank 0 as a scalar", "[strided]") {
  CHECK(formatShape({3, 5}) == "3x5");
  CHECK(formatShape({7}) == "7");
  CHECK(formatShape({}) == "a scalar");
  CHECK(formatShape({2, 0, 4}) == "2x0x4");
}

TEST_CASE("a memref's byte range covers its lowest to its highest element",
          "[strided]") {
  char base[256];
  ByteRange range;
  // Rows walk backwards: elements at 8 - 4r + c for r < 3, c < 4: 0 .. 11.
  REQUIRE_OK(
      computeByteRange(view(base, 8, {3, 4}, {-4, 1}, 2), "source", range));
  CHECK(range.begin == base);
  CHECK(range.bytes == 24);

  // A 2x3 window at (2, 1) of a 6x6 matrix: elements 13 .. 21.
  REQUIRE_OK(
      computeByteRange(view(base, 13, {2, 3}, {6, 1}, 4), "source", range));
  CHECK(range.begin == base + 52);
  CHECK(range.bytes == 9 * 4);

  // Rank 0 is one element.
  REQUIRE_OK(computeByteRange(view(base, 5, {}, {}, 8), "source", range));
  CHECK(range.begin == base + 40);
  CHECK(range.bytes == 8);

  // A zero size spans nothing.
  REQUIRE_OK(
      computeByteRange(view(base, 5, {4, 0}, {1, 1}, 8), "source", range));
  CHECK(range.bytes == 0);

  REQUIRE_ERROR(computeByteRange(view(base, 0, {int64_t(1) << 62, 4},
                                      {int64_t(1) << 62, 1}, 4),
                                 "destination", range),
                "the destination (4611686018427387904x4) spans more bytes "
                "than 64 bits can count");
}

TEST_CASE("a copy between contiguous memrefs is a single memcpy", "[strided]") {
  std::vector<float> src(20), dst(20, -1.0f);
  std::iota(src.begin(), src.end(), 0.0f);
  StridedCopyPlan plan;
  REQUIRE_OK(planStridedCopy(view(dst.data(), 0, {4, 5}, {5, 1}, 4),
                             view(src.data(), 0, {4, 5}, {5, 1}, 4), plan));
  CHECK(plan.sizes.empty());
  CHECK(plan.runBytes == 80);
  CHECK(plan.runCount() == 1);
  runStridedCopy(plan);
  CHECK(dst == src);

  // Size-1 dimensions never step, whatever their stride.
  REQUIRE_OK(planStridedCopy(view(dst.data(), 0, {4, 1, 5}, {5, 99, 1}, 4),
                             view(src.data(), 0, {4, 1, 5}, {5, 1, 1}, 4),
                             plan));
  CHECK(plan.runCount() == 1);
  CHECK(plan.runBytes == 80);
}

TEST_CASE("a 2x3 window copied into a 6x6 matrix at (2, 1) changes only the "
          "window",
          "[strided]") {
  std::vector<int32_t> matrix(36, -1);
  std::vector<int32_t> window{1, 2, 3, 4, 5, 6};
  StridedCopyPlan plan;
  REQUIRE_OK(planStridedCopy(view(matrix.data(), 2 * 6 + 1, {2, 3}, {6, 1}, 4),
                             view(window.data(), 0, {2, 3}, {3, 1}, 4), plan));
  // Rows are contiguous on both sides, the matrix's rows are not adjacent.
  CHECK(plan.runBytes == 12);
  CHECK(plan.sizes == std::vector<int64_t>{2});
  CHECK(plan.dstStrides == std::vector<int64_t>{24});
  CHECK(plan.srcStrides == std::vector<int64_t>{12});
  CHECK(plan.runCount() == 2);
  runStridedCopy(plan);

  std::vector<int32_t> expected(36, -1);
  expected[2 * 6 + 1] = 1;
  expected[2 * 6 + 2] = 2;
  expected[2 * 6 + 3] = 3;
  expected[3 * 6 + 1] = 4;
  expected[3 * 6 + 2] = 5;
  expected[3 * 6 + 3] = 6;
  CHECK(matrix == expected);

  // And back out of the matrix.
  std::vector<int32_t> out(6, 0);
  REQUIRE_OK(planStridedCopy(view(out.data(), 0, {2, 3}, {3, 1}, 4),
                             view(matrix.data(), 13, {2, 3}, {6, 1}, 4), plan));
  runStridedCopy(plan);
  CHECK(out == window);
}

TEST_CASE("a stride-2 column selection copies every other column",
          "[strided]") {
  // 4x6 matrix with value 10 * row + column; columns 0, 2, 4 into a 4x3.
  std::vector<int32_t> matrix(24);
  for (int row = 0; row < 4; ++row)
    for (int column = 0; column < 6; ++column)
      matrix[row * 6 + column] = 10 * row + column;
  std::vector<int32_t> selected(12, -1);
  StridedCopyPlan plan;
  REQUIRE_OK(planStridedCopy(view(selected.data(), 0, {4, 3}, {3, 1}, 4),
                             view(matrix.data(), 0, {4, 3}, {6, 2}, 4), plan));
  // No run is longer than one element, but the two loops fold into one.
  CHECK(plan.runBytes == 4);
  CHECK(plan.sizes == std::vector<int64_t>{12});
  CHECK(plan.dstStrides == std::vector<int64_t>{4});
  CHECK(plan.srcStrides == std::vector<int64_t>{8});
  runStridedCopy(plan);
  CHECK(selected ==
        std::vector<int32_t>{0, 2, 4, 10, 12, 14, 20, 22, 24, 30, 32, 34});
}

TEST_CASE("a 3-d copy merges the contiguous inner dimensions", "[strided]") {
  // 2x3x4 contiguous into the first 3 of 5 rows of each plane of a 2x5x4.
  std::vector<int64_t> src(24), dst(40, -1);
  std::iota(src.begin(), src.end(), 100);
  StridedCopyPlan plan;
  REQUIRE_OK(planStridedCopy(view(dst.data(), 0, {2, 3, 4}, {20, 4, 1}, 8),
                             view(src.data(), 0, {2, 3, 4}, {12, 4, 1}, 8),
                             plan));
  CHECK(plan.runBytes == 12 * 8);
  CHECK(plan.sizes == std::vector<int64_t>{2});
  runStridedCopy(plan);
  for (int plane = 0; plane < 2; ++plane)
    for (int i = 0; i < 20; ++i) {
      INFO("plane " << plane << " element " << i);
      CHECK(dst[plane * 20 + i] == (i < 12 ? 100 + plane * 12 + i : -1));
    }
}

TEST_CASE("negative strides copy backwards", "[strided]") {
  std::vector<int16_t> src{0, 1, 2, 3, 4}, dst(5, -1);
  StridedCopyPlan plan;
  REQUIRE_OK(planStridedCopy(view(dst.data(), 0, {5}, {1}, 2),
                             view(src.data(), 4, {5}, {-1}, 2), plan));
  CHECK(plan.srcRange.begin == reinterpret_cast<char *>(src.data()));
  CHECK(plan.srcRange.bytes == 10);
  runStridedCopy(plan);
  CHECK(dst == std::vector<int16_t>{4, 3, 2, 1, 0});
}

TEST_CASE("a rank-0 copy moves one element", "[strided]") {
  double src[3] = {1.5, 2.5, 3.5}, dst[2] = {0, 0};
  StridedCopyPlan plan;
  REQUIRE_OK(
      planStridedCopy(view(dst, 1, {}, {}, 8), view(src, 2, {}, {}, 8), plan));
  CHECK(plan.runBytes == 8);
  CHECK(plan.runCount() == 1);
  runStridedCopy(plan);
  CHECK(dst[0] == 0);
  CHECK(dst[1] == 3.5);
}

TEST_CASE("a copy with a zero size does nothing, even on null pointers",
          "[strided]") {
  StridedCopyPlan plan;
  REQUIRE_OK(planStridedCopy(view(nullptr, 0, {3, 0}, {0, 1}, 4),
                             view(nullptr, 0, {3, 0}, {0, 1}, 4), plan));
  CHECK(plan.runBytes == 0);
  CHECK(plan.runCount() == 0);
  CHECK(plan.dstRange.bytes == 0);
  CHECK(plan.srcRange.bytes == 0);
  runStridedCopy(plan);
}

TEST_CASE("copies between different shapes are errors that print both",
          "[strided]") {
  char buffer[64];
  StridedCopyPlan plan;
  Status status = planStridedCopy(view(buffer, 0, {5, 3}, {3, 1}, 1),
                                  view(buffer, 0, {3, 5}, {5, 1}, 1), plan);
  REQUIRE_FALSE(status.ok());
  CHECK(status.message() ==
        "shape mismatch: the source is 3x5 but the destination is 5x3");
  REQUIRE_ERROR(planStridedCopy(view(buffer, 0, {4}, {1}, 1),
                                view(buffer, 0, {}, {}, 1), plan),
                "shape mismatch: the source is a scalar but the destination "
                "is 4");
  REQUIRE_ERROR(planStridedCopy(view(buffer, 0, {4}, {1}, 2),
                                view(buffer, 0, {4}, {1}, 4), plan),
                "element size mismatch");
}

TEST_CASE("overlapping contiguous copies behave as memmove", "[strided]") {
  std::vector<int> data{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  copyBytes(data.data() + 2, data.data(), 6 * sizeof(int));
  CHECK(data == std::vector<int>{0, 1, 0, 1, 2, 3, 4, 5, 8, 9});
}

TEST_CASE("contiguous fills of 1, 2, 4 and 8 byte elements write exactly "
          "their elements",
          "[strided][memset]") {
  struct Case {
    int64_t elementSize;
    uint64_t value;
  };
  // Values with unequal bytes take the pattern path, 0x7f7f7f7f the memset
  // path; bits above the element size must be ignored.
  const Case cases[] = {{1, 0xab},
                        {1, 0xffffffffffffff00},
                        {2, 0x1234},
                        {2, 0xdead00000000beef},
                        {4, 0x89abcdef},
                        {4, 0x7f7f7f7f},
                        {8, 0x0123456789abcdef},
                        {8, 0}};
  for (const Case &c : cases)
    for (uint64_t count : {0, 1, 7, 8, 9, 31, 32, 33, 63, 64, 65, 1000}) {
      INFO("element size " << c.elementSize << ", value " << c.value
                           << ", count " << count);
      // One byte of misalignment, guard bytes on both sides.
      std::vector<unsigned char> buffer(count * c.elementSize + 3, 0x55);
      fillElements(buffer.data() + 1, c.value, c.elementSize, count);
      CHECK(buffer[0] == 0x55);
      CHECK(buffer[count * c.elementSize + 1] == 0x55);
      CHECK(buffer[count * c.elementSize + 2] == 0x55);
      bool allElementsRight = true;
      for (uint64_t i = 0; i < count; ++i) {
        uint64_t element = 0;
        std::memcpy(&element, buffer.data() + 1 + i * c.elementSize,
                    c.elementSize);
        uint64_t mask = c.elementSize == 8
                            ? ~uint64_t(0)
                            : (uint64_t(1) << (8 * c.elementSize)) - 1;
        allElementsRight &= element == (c.value & mask);
      }
      CHECK(allElementsRight);
    }
}

TEST_CASE("a strided fill of one matrix column changes only that column",
          "[strided][memset]") {
  std::vector<int16_t> matrix(5 * 4, 0);
  StridedFillPlan plan;
  REQUIRE_OK(planStridedFill(view(matrix.data(), 2, {5, 1}, {4, 1}, 2), plan));
  CHECK(plan.runElements == 1);
  CHECK(plan.sizes == std::vector<int64_t>{5});
  CHECK(plan.strides == std::vector<int64_t>{8});
  CHECK(plan.range.begin == reinterpret_cast<char *>(matrix.data() + 2));
  CHECK(plan.range.bytes == (4 * 4 + 1) * 2);
  runStridedFill(plan, 0x7777);
  for (int row = 0; row < 5; ++row)
    for (int column = 0; column < 4; ++column) {
      INFO("row " << row << " column " << column);
      CHECK(matrix[row * 4 + column] == (column == 2 ? 0x7777 : 0));
    }
}

TEST_CASE("strided fills of every element size fill windows",
          "[strided][memset]") {
  for (int64_t elementSize : {1, 2, 4, 8}) {
    INFO("element size " << elementSize);
    // A 3x2 window at (1, 1) of a 4x5 matrix.
    std::vector<unsigned char> matrix(4 * 5 * elementSize, 0);
    StridedFillPlan plan;
    REQUIRE_OK(planStridedFill(
        view(matrix.data(), 6, {3, 2}, {5, 1}, elementSize), plan));
    CHECK(plan.runElements == 2);
    CHECK(plan.runCount() == 3);
    const uint64_t value = 0x8877665544332211;
    runStridedFill(plan, value);
    for (int row = 0; row < 4; ++row)
      for (int column = 0; column < 5; ++column) {
        uint64_t element = 0;
        std::memcpy(&element, matrix.data() + (row * 5 + column) * elementSize,
                    elementSize);
        bool inWindow = row >= 1 && row <= 3 && column >= 1 && column <= 2;
        uint64_t mask = elementSize == 8
                            ? ~uint64_t(0)
                            : (uint64_t(1) << (8 * elementSize)) - 1;
        INFO("row " << row << " column " << column);
        CHECK(element == (inWindow ? (value & mask) : 0));
      }
  }
}

TEST_CASE("fills only take elements of 1, 2, 4 or 8 bytes",
          "[strided][memset]") {
  char buffer[16];
  StridedFillPlan plan;
  REQUIRE_ERROR(planStridedFill(view(buffer, 0, {4}, {1}, 3), plan),
                "cannot fill elements of 3 bytes");
  CHECK(isFillElementSize(8));
  CHECK_FALSE(isFillElementSize(16));
}

TEST_CASE("rank-1 descriptors plan what their views plan, errors included",
          "[strided]") {
  // planStridedCopy on descriptors takes a shorter path for contiguous
  // rank-1 memrefs; whatever path it takes, the plan (or the error) must be
  // the one the views give.
  std::vector<char> buffer(1024);
  char *base = buffer.data() + 512;
  struct Side {
    int64_t offset, size, stride;
  };
  // Offsets that overflow only some of the arithmetic are left out: the
  // general path would form a pointer past the address space.
  const Side sides[] = {{0, 8, 1},  {3, 8, 1},  {-2, 8, 1}, {5, 1, 7},
                        {0, 1, -1}, {0, 8, 2},  {0, 8, -1}, {0, 0, 1},
                        {0, 7, 1},  {0, -1, 1}, {4, 8, 0},  {INT64_MAX, 2, 1}};
  for (int64_t elementSize : {int64_t{1}, int64_t{4}, int64_t{8}})
    for (const Side &d : sides)
      for (const Side &s : sides) {
        INFO("element size " << elementSize << ", dst (" << d.offset << ", "
                             << d.size << ", " << d.stride << "), src ("
                             << s.offset << ", " << s.size << ", " << s.stride
                             << ")");
        Descriptor<1> dstDescriptor{base, base, d.offset, {d.size}, {d.stride}};
        Descriptor<1> srcDescriptor{base, base, s.offset, {s.size}, {s.stride}};
        StridedCopyPlan fast, general;
        Status fastStatus = planStridedCopy(1, &dstDescriptor, &srcDescriptor,
                                            elementSize, fast);
        MemRefView dstView, srcView;
        Status generalStatus = readMemRefDescriptor(
            1, &srcDescriptor, elementSize, "source", srcView);
        if (generalStatus.ok())
          generalStatus = readMemRefDescriptor(1, &dstDescriptor, elementSize,
                                               "destination", dstView);
        if (generalStatus.ok())
          generalStatus = planStridedCopy(dstView, srcView, general);
        REQUIRE(fastStatus.ok() == generalStatus.ok());
        CHECK(fastStatus.message() == generalStatus.message());
        if (!fastStatus.ok())
          continue;
        CHECK(fast.dst == general.dst);
        CHECK(fast.src == general.src);
        CHECK(fast.runBytes == general.runBytes);
        CHECK(fast.sizes == general.sizes);
        CHECK(fast.dstStrides == general.dstStrides);
        CHECK(fast.srcStrides == general.srcStrides);
        CHECK(fast.dstRange.begin == general.dstRange.begin);
        CHECK(fast.dstRange.bytes == general.dstRange.bytes);
        CHECK(fast.srcRange.begin == general.srcRange.begin);
        CHECK(fast.srcRange.bytes == general.srcRange.bytes);
      }
}
