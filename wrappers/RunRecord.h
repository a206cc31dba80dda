//===- RunRecord.h - What a run did, op by op: --trace, --print-statistics ===//
//
// When the runner asks for it (--trace, --print-statistics), the runtime
// records every op the program runs through the mgpu ABI: on the host
// thread that called it, from the call to its return (enqueueing), and, for
// the ops that run on a stream (copies, memsets, launches), on the stream,
// from the point the stream reached the op to the point it finished it
// (Runtime::recordTimePoint: CUDA/HIP events, or the host stream worker's
// clock). Ops that wait for a token record which op they waited for. The
// runner's own phases join them, so one timeline holds it all.
//
// Recording is off unless started, and then costs each op two time points
// and a lock. Every time is the host's steady clock, in nanoseconds. The
// runner starts the record and reads it; the mgpu ABI's functions
// (common/MgpuWrappers.cpp and each backend's launches) write it.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_RUNRECORD_H
#define GPU_RUNNER_WRAPPERS_RUNRECORD_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpu_runner {

/// What a recorded op did, for the statistics.
enum class RecordKind {
  Allocation,
  Free,
  Copy,
  Memset,
  Launch,
  /// The host waited for a stream or an event (gpu.wait).
  HostWait,
};

/// Where a copy's bytes went, by what holds them: the backend's device
/// memory (gpu.alloc), or any other memory.
enum class CopyDirection {
  HostToHost,
  HostToDevice,
  DeviceToHost,
  DeviceToDevice
};

/// "h2d", "d2h", "d2d", "h2h".
const char *getCopyDirectionName(CopyDirection direction);

/// The track of the thread or stream an event was on.
struct RecordTrack {
  /// "host thread", "thread 2", "stream 1", "null stream (synchronous
  /// ops)".
  std::string name;
  /// Whether the track is a stream's (its events are device times).
  bool isStream = false;
};

/// One op the program ran.
struct RecordedEntry {
  /// The op: "gpu.memcpy", "gpu.launch_func".
  const char *name = "";
  /// Where the program has it: "file.mlir:12:5"; empty where it has no
  /// location.
  std::string loc;
  RecordKind kind = RecordKind::Allocation;
  /// The calling thread's track, and the call's begin and end; an end of 0
  /// is a call that never returned (the run ended in it).
  size_t hostTrack = 0;
  int64_t hostBeginNs = 0;
  int64_t hostEndNs = 0;
  /// For an op on a stream: its track, and when the stream began and ended
  /// it, 0 where the stream never got there.
  bool onStream = false;
  size_t streamTrack = 0;
  int64_t deviceBeginNs = 0;
  int64_t deviceEndNs = 0;
  /// Copies and memsets: the bytes written; allocations: the bytes.
  uint64_t bytes = 0;
  CopyDirection direction = CopyDirection::HostToHost;
  /// Launches.
  std::string kernel;
  int64_t grid[3] = {1, 1, 1};
  int64_t block[3] = {1, 1, 1};
  int64_t dynamicSharedBytes = 0;
  /// The ops this one waited for through tokens (indices of earlier
  /// entries).
  std::vector<size_t> after;
};

/// A phase of the runner ("Parse", "Run"), on the thread that ended it.
struct RecordedPhase {
  std::string name;
  size_t track = 0;
  int64_t beginNs = 0;
  /// 0 while it lasts.
  int64_t endNs = 0;
};

/// What --print-statistics counts, kept as ops end, so that it stays exact
/// however many ops a run makes. An op the run ended in is not counted.
struct RecordStatistics {
  struct Transfers {
    uint64_t count = 0;
    uint64_t bytes = 0;
  };
  /// Indexed by CopyDirection.
  Transfers copies[4];
  Transfers memsets;
  /// Device memory: the most live at once, the total and the count of
  /// allocations.
  uint64_t peakDeviceBytes = 0;
  uint64_t allocatedDeviceBytes = 0;
  uint64_t allocationCount = 0;
  uint64_t streamsCreated = 0;
  uint64_t hostWaits = 0;
  /// Streams made to wait for another stream's token (no host wait).
  uint64_t streamWaits = 0;
  struct Kernel {
    std::string name;
    uint64_t launches = 0;
    /// The launches whose stream times were read, and their sum.
    uint64_t timed = 0;
    int64_t totalNs = 0;
  };
  /// In the order of their first launch.
  std::vector<Kernel> kernels;
};

/// The most ops a record keeps one by one (for --trace): about 200 MB.
/// Ops past it are counted in the statistics, not kept.
constexpr size_t kMaxRecordedEntries = size_t(1) << 20;

/// Everything recorded so far.
struct RunRecordSnapshot {
  std::vector<RecordTrack> tracks;
  /// The first kMaxRecordedEntries ops, in the order they were called.
  std::vector<RecordedEntry> entries;
  /// The ops made past those.
  uint64_t unkeptEntries = 0;
  std::vector<RecordedPhase> phases;
  /// When recording started, and when the snapshot was taken.
  int64_t startNs = 0;
  int64_t nowNs = 0;
  /// How far a stream's times may be from the host's clock
  /// (Runtime::getTimePointUncertaintyNs).
  int64_t clockUncertaintyNs = 0;
  RecordStatistics statistics;
};

/// Starts recording; the calling thread's track is the "host thread".
void startRunRecord();
bool isRunRecorded();

/// Everything recorded so far, with the device times of every point the
/// streams reached by now (it never waits). Safe after an error too.
RunRecordSnapshot takeRunRecordSnapshot();

/// How many ops were recorded so far: where the next one goes in the
/// snapshot's entries, while there are fewer than kMaxRecordedEntries.
size_t countRecordedEntries();

/// Records one op for as long as it lives, when recording; else does
/// nothing. On a stream op, the stream's begin and end points bracket what
/// the op enqueues.
class RecordedOp {
public:
  /// A host-only op (allocation, free, host wait).
  RecordedOp(const char *name, const char *loc, RecordKind kind);
  /// An op that runs on `stream` (null: the synchronous form).
  RecordedOp(const char *name, const char *loc, RecordKind kind, void *stream);
  ~RecordedOp();
  RecordedOp(const RecordedOp &) = delete;
  RecordedOp &operator=(const RecordedOp &) = delete;

  /// A copy of `bytes` from `src` to `dst`.
  void setCopy(const void *dst, const void *src, uint64_t bytes);
  void setBytes(uint64_t bytes);
  void setLaunch(const char *kernel, const int64_t grid[3],
                 const int64_t block[3], int64_t dynamicSharedBytes);
  /// The op waits for the work of `token` (a stream or an event) so far.
  void setWaitsFor(void *token) const;

private:
  void begin(const char *name, const char *loc, RecordKind kind);

  /// The op's number, its entry's index while entries are kept; npos when
  /// not recording.
  size_t index;
  void *stream = nullptr;
  /// Whether the op runs on `stream`, with points of its own there.
  bool onStream = false;
  /// What the statistics count once the op ends.
  RecordKind kind = RecordKind::Allocation;
  uint64_t bytes = 0;
  CopyDirection direction = CopyDirection::HostToHost;
  size_t kernel = 0;
};

/// The program made `stream` (gpu.wait async): a new track.
void noteRecordedStream(void *stream);
/// `event` was recorded at the current end of `stream`: it stands for the
/// last op there.
void noteRecordedEvent(void *event, void *stream);
/// `stream` waits for `token` (a stream or an event): the next op on it
/// follows token's last op.
void noteRecordedStreamWait(void *stream, void *token);
/// A device allocation of `bytes` at `pointer`, and its free.
void noteRecordedAllocation(const void *pointer, uint64_t bytes);
void noteRecordedFree(const void *pointer);
/// The name of a GPU function handle (mgpuModuleGetFunction), for launches.
void noteRecordedFunction(void *function, const char *name);
std::string getRecordedFunctionName(void *function);

/// A phase of the runner on the calling thread; returns its index for
/// endRecordedPhase. Does nothing when not recording.
size_t beginRecordedPhase(const std::string &name);
void endRecordedPhase(size_t phase);

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_RUNRECORD_H
