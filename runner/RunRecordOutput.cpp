//===- RunRecordOutput.cpp - --trace's timeline and --print-statistics ---===//
//
// The trace follows Chrome's trace event format ("Trace Event Format",
// Google's document that chrome://tracing and Perfetto read): one track
// ("thread") per host thread and per stream, complete events ("ph": "X")
// in microseconds, and flow events ("s" then "f") from the op that produced
// a token to the op that waited for it.
//
//===----------------------------------------------------------------------===//

#include "runner/RunRecordOutput.h"

#include "runner/OutputFile.h"
#include "runner/RunnerError.h"
#include "wrappers/BackendKind.h"
#include "wrappers/common/FatalReport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>

using llvm::Error;
using llvm::StringRef;

namespace gpu_runner {

namespace {

/// What the record is for, kept for the fatal report's exit hook.
struct RecordOutputs {
  std::string tracePath;
  bool statistics = false;
  std::string program;
};

RecordOutputs &getRecordOutputs() {
  static auto *outputs = new RecordOutputs();
  return *outputs;
}

class RecordedPhases final : public PhaseListener {
public:
  size_t beginPhase(const std::string &name) override {
    return beginRecordedPhase(name);
  }
  void endPhase(size_t phase) override { endRecordedPhase(phase); }
};

/// The trace's thread id of track `index` (0 is the process's own).
int64_t getTrackId(size_t index) { return static_cast<int64_t>(index) + 1; }

/// Where an entry is drawn: on its stream when the stream got to it, else
/// on the thread that called it.
struct Slice {
  size_t track;
  int64_t beginNs;
  int64_t endNs;
  bool unfinished;
};

Slice getHostSlice(const RecordedEntry &entry, int64_t nowNs) {
  return {entry.hostTrack, entry.hostBeginNs,
          entry.hostEndNs ? entry.hostEndNs : nowNs, entry.hostEndNs == 0};
}

std::optional<Slice> getStreamSlice(const RecordedEntry &entry, int64_t nowNs) {
  if (!entry.onStream || entry.deviceBeginNs == 0)
    return std::nullopt;
  return Slice{entry.streamTrack, entry.deviceBeginNs,
               entry.deviceEndNs ? entry.deviceEndNs : nowNs,
               entry.deviceEndNs == 0};
}

/// Decimal gigabytes per second, as the benchmarks count them.
double getGigabytesPerSecond(uint64_t bytes, int64_t nanoseconds) {
  return nanoseconds > 0 ? static_cast<double>(bytes) / nanoseconds : 0.0;
}

class TraceWriter {
public:
  TraceWriter(const RunRecordSnapshot &record, llvm::raw_ostream &os)
      : record(record), json(os) {}

  void write(StringRef program) {
    json.object([&] {
      json.attribute("displayTimeUnit", "ns");
      // How far a stream's times may be off the host's: CUDA and HIP events
      // are aligned with the host's clock once per device.
      json.attributeObject("otherData", [&] {
        json.attribute("stream_clock_uncertainty_us",
                       static_cast<double>(record.clockUncertaintyNs) / 1000.0);
      });
      json.attributeArray("traceEvents", [&] {
        writeMetadata(program);
        for (const RecordedPhase &phase : record.phases)
          writePhase(phase);
        for (const RecordedEntry &entry : record.entries)
          writeEntry(entry);
        for (const RecordedEntry &entry : record.entries)
          writeFlows(entry);
      });
    });
  }

private:
  double toMicroseconds(int64_t ns) const {
    return static_cast<double>(ns - record.startNs) / 1000.0;
  }

  void writeMetadata(StringRef program) {
    auto metadata = [&](const char *name, int64_t tid, auto args) {
      json.object([&] {
        json.attribute("name", name);
        json.attribute("ph", "M");
        json.attribute("pid", 1);
        json.attribute("tid", tid);
        json.attributeObject("args", args);
      });
    };
    metadata("process_name", 0,
             [&] { json.attribute("name", ("gpu-runner " + program).str()); });
    for (auto [index, track] : llvm::enumerate(record.tracks)) {
      metadata("thread_name", getTrackId(index),
               [&] { json.attribute("name", track.name); });
      metadata("thread_sort_index", getTrackId(index), [&] {
        json.attribute("sort_index", static_cast<int64_t>(index));
      });
    }
  }

  template <typename Args>
  void writeSlice(StringRef name, const char *category, const Slice &slice,
                  Args args) {
    json.object([&] {
      json.attribute("name", name);
      json.attribute("cat", category);
      json.attribute("ph", "X");
      json.attribute("pid", 1);
      json.attribute("tid", getTrackId(slice.track));
      json.attribute("ts", toMicroseconds(slice.beginNs));
      json.attribute("dur",
                     static_cast<double>(slice.endNs - slice.beginNs) / 1000.0);
      json.attributeObject("args", [&] {
        args();
        if (slice.unfinished)
          json.attribute("unfinished", true);
      });
    });
  }

  void writePhase(const RecordedPhase &phase) {
    Slice slice{phase.track, phase.beginNs,
                phase.endNs ? phase.endNs : record.nowNs, phase.endNs == 0};
    writeSlice(phase.name, "phase", slice, [] {});
  }

  void writeEntryArgs(const RecordedEntry &entry,
                      const std::optional<Slice> &onStream) {
    if (!entry.loc.empty())
      json.attribute("loc", entry.loc);
    switch (entry.kind) {
    case RecordKind::Copy:
      json.attribute("direction", getCopyDirectionName(entry.direction));
      [[fallthrough]];
    case RecordKind::Memset:
      json.attribute("bytes", static_cast<int64_t>(entry.bytes));
      if (onStream && !onStream->unfinished)
        json.attribute(
            "GB/s", getGigabytesPerSecond(entry.bytes,
                                          onStream->endNs - onStream->beginNs));
      break;
    case RecordKind::Allocation:
      json.attribute("bytes", static_cast<int64_t>(entry.bytes));
      break;
    case RecordKind::Launch:
      json.attribute("kernel", entry.kernel);
      json.attributeArray("grid", [&] {
        for (int64_t size : entry.grid)
          json.value(size);
      });
      json.attributeArray("block", [&] {
        for (int64_t size : entry.block)
          json.value(size);
      });
      json.attribute("dynamic_shared_memory", entry.dynamicSharedBytes);
      break;
    case RecordKind::Free:
    case RecordKind::HostWait:
      break;
    }
  }

  void writeEntry(const RecordedEntry &entry) {
    std::optional<Slice> onStream = getStreamSlice(entry, record.nowNs);
    writeSlice(entry.name, "host", getHostSlice(entry, record.nowNs),
               [&] { writeEntryArgs(entry, onStream); });
    if (!onStream)
      return;
    // On a stream, a kernel goes by its name, as profilers show it.
    StringRef name =
        entry.kind == RecordKind::Launch ? StringRef(entry.kernel) : entry.name;
    writeSlice(name, "stream", *onStream, [&] {
      json.attribute("op", entry.name);
      writeEntryArgs(entry, onStream);
    });
  }

  /// The slice a flow binds to: the stream's where there is one.
  Slice getFlowSlice(const RecordedEntry &entry) const {
    std::optional<Slice> onStream = getStreamSlice(entry, record.nowNs);
    return onStream ? *onStream : getHostSlice(entry, record.nowNs);
  }

  void writeFlows(const RecordedEntry &entry) {
    for (size_t producer : entry.after) {
      Slice from = getFlowSlice(record.entries[producer]);
      Slice to = getFlowSlice(entry);
      int64_t id = ++flowCount;
      auto flow = [&](const char *phase, const Slice &slice, int64_t ns) {
        json.object([&] {
          json.attribute("name", "token");
          json.attribute("cat", "token");
          json.attribute("ph", phase);
          json.attribute("id", id);
          json.attribute("pid", 1);
          json.attribute("tid", getTrackId(slice.track));
          json.attribute("ts", toMicroseconds(ns));
          if (phase[0] == 'f')
            json.attribute("bp", "e");
        });
      };
      // The arrow leaves the producer where it ends and reaches the
      // consumer where it begins, or where a host wait returns; each point
      // lies inside its slice.
      flow("s", from, std::max(from.beginNs, from.endNs - 1));
      flow("f", to,
           entry.kind == RecordKind::HostWait
               ? std::max(to.beginNs, to.endNs - 1)
               : to.beginNs);
    }
  }

  const RunRecordSnapshot &record;
  llvm::json::OStream json;
  int64_t flowCount = 0;
};

/// "4096 bytes (4.0 KiB)", or "100 bytes".
std::string formatBytes(uint64_t bytes) {
  std::string text = std::to_string(bytes) + " bytes";
  if (bytes < 1024)
    return text;
  static const char *const units[] = {"KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes) / 1024;
  unsigned unit = 0;
  while (value >= 1024 && unit + 1 < std::size(units)) {
    value /= 1024;
    ++unit;
  }
  return text + " (" + llvm::formatv("{0:F1}", value).str() + " " +
         units[unit] + ")";
}

/// "1.234 ms", in the unit that fits.
std::string formatDuration(double nanoseconds) {
  if (nanoseconds < 1e6)
    return llvm::formatv("{0:F3} us", nanoseconds / 1e3).str();
  if (nanoseconds < 1e9)
    return llvm::formatv("{0:F3} ms", nanoseconds / 1e6).str();
  return llvm::formatv("{0:F3} s", nanoseconds / 1e9).str();
}

void writeRecordAfterError() {
  const RecordOutputs &outputs = getRecordOutputs();
  RunRecordSnapshot record = takeRunRecordSnapshot();
  if (outputs.statistics) {
    std::string text = formatStatistics(record);
    writeToStderr(text.data(), text.size());
  }
  if (outputs.tracePath.empty())
    return;
  if (Error error = writeFileWhole(outputs.tracePath,
                                   formatTrace(record, outputs.program))) {
    std::string text =
        "error: --trace=" + outputs.tracePath +
        ": cannot write it: " + llvm::toString(std::move(error)) + "\n";
    writeToStderr(text.data(), text.size());
  }
}

} // namespace

void startRunRecordIfAsked(const RunnerOptions &options) {
  // A --launch benchmark reads the kernel's own time from the record.
  bool timesLaunches =
      !options.launch.empty() && options.benchmarkRepetitions != 0;
  if (options.trace.empty() && !options.printStatistics && !timesLaunches)
    return;
  RecordOutputs &outputs = getRecordOutputs();
  outputs.tracePath = options.trace;
  outputs.statistics = options.printStatistics;
  outputs.program = options.inputFilename;
  startRunRecord();
  if (!outputs.tracePath.empty() || outputs.statistics)
    setFatalReportExitHook(&writeRecordAfterError);
}

PhaseListener &getRecordedPhaseListener() {
  static RecordedPhases listener;
  return listener;
}

std::string formatTrace(const RunRecordSnapshot &record, StringRef program) {
  std::string text;
  llvm::raw_string_ostream os(text);
  TraceWriter(record, os).write(program);
  os << "\n";
  return text;
}

std::string formatStatistics(const RunRecordSnapshot &record) {
  const RecordStatistics &statistics = record.statistics;
  std::string text;
  llvm::raw_string_ostream os(text);
  auto transfers = [&](const RecordStatistics::Transfers &counted) {
    os << counted.count;
    if (counted.count)
      os << ", " << formatBytes(counted.bytes);
    os << "\n";
  };
  os << "statistics:\n"
     << "  device memory:  peak " << formatBytes(statistics.peakDeviceBytes)
     << "; " << statistics.allocationCount
     << (statistics.allocationCount == 1 ? " allocation, " : " allocations, ")
     << formatBytes(statistics.allocatedDeviceBytes) << " in all\n";
  for (CopyDirection direction :
       {CopyDirection::HostToDevice, CopyDirection::DeviceToHost,
        CopyDirection::DeviceToDevice, CopyDirection::HostToHost}) {
    os << "  copies " << getCopyDirectionName(direction) << ":     ";
    transfers(statistics.copies[static_cast<int>(direction)]);
  }
  os << "  memsets:        ";
  transfers(statistics.memsets);
  std::vector<RecordStatistics::Kernel> kernels = statistics.kernels;
  llvm::sort(kernels,
             [](const auto &a, const auto &b) { return a.name < b.name; });
  uint64_t launches = 0;
  for (const RecordStatistics::Kernel &kernel : kernels)
    launches += kernel.launches;
  os << "  launches:       " << launches << "\n";
  for (const RecordStatistics::Kernel &kernel : kernels) {
    if (!kernel.launches)
      continue;
    os << "    " << kernel.name << ": " << kernel.launches;
    if (kernel.timed)
      os << ", total " << formatDuration(kernel.totalNs) << ", mean "
         << formatDuration(static_cast<double>(kernel.totalNs) / kernel.timed)
         << (kernel.timed < kernel.launches ? " (of the timed ones)" : "");
    os << "\n";
  }
  os << "  streams:        " << statistics.streamsCreated << " created\n"
     << "  waits:          " << statistics.hostWaits << " by the host, "
     << statistics.streamWaits << " of a stream for another's token\n";
  return text;
}

Error finishRunRecord(const RunnerOptions &options) {
  if (!isRunRecorded())
    return Error::success();
  // From here on, an error is reported without the hook.
  setFatalReportExitHook(nullptr);
  RunRecordSnapshot record = takeRunRecordSnapshot();
  if (options.printStatistics)
    llvm::errs() << formatStatistics(record);
  if (options.trace.empty())
    return Error::success();
  if (record.unkeptEntries)
    llvm::errs() << "warning: --trace: the run called the runtime "
                 << record.entries.size() + record.unkeptEntries
                 << " times; the trace holds the first "
                 << record.entries.size() << "\n";
  if (Error error = writeFileWhole(options.trace,
                                   formatTrace(record, options.inputFilename)))
    return makeError("--trace=" + options.trace +
                     ": cannot write it: " + llvm::toString(std::move(error)));
  return Error::success();
}

} // namespace gpu_runner
