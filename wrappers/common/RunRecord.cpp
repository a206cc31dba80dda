//===- RunRecord.cpp - What a run did, op by op ---------------------------===//
//
// See wrappers/RunRecord.h. One table under one lock: the ops of every
// thread append to it, and a snapshot copies it out. The runtime is called
// outside the lock, so that a time point that waits (the null stream's) never
// holds up other threads' records.
//
//===----------------------------------------------------------------------===//

#include "wrappers/RunRecord.h"

#include "wrappers/Runtime.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <unordered_map>

namespace gpu_runner {

namespace {

constexpr size_t kNotRecorded = ~size_t(0);

/// The stream points of an op on a stream, until both are read.
struct PendingOp {
  size_t op;
  /// Its kernel's statistics, for a launch; else npos.
  size_t kernel = kNotRecorded;
  void *beginPoint = nullptr;
  void *endPoint = nullptr;
  int64_t beginNs = 0;
  int64_t endNs = 0;
  /// Whether the call returned: no point is to come.
  bool ended = false;
};

struct RunRecorder {
  std::mutex mutex;
  int64_t startNs = 0;
  /// Ops made so far, kept or not.
  size_t ops = 0;
  std::vector<RecordTrack> tracks;
  std::vector<RecordedEntry> entries;
  std::vector<RecordedPhase> phases;
  /// By op number.
  std::unordered_map<size_t, PendingOp> pending;
  /// Stream ops ended since the points were last read.
  size_t endedSinceRead = 0;
  /// Threads and streams by their track.
  std::unordered_map<uint64_t, size_t> threadTracks;
  std::unordered_map<void *, size_t> streamTracks;
  uint64_t streamNumber = 0;
  /// The last kept entry on each stream track, and what the next one
  /// waits for.
  std::unordered_map<size_t, size_t> lastOnTrack;
  std::unordered_map<size_t, std::vector<size_t>> waitsOnTrack;
  /// Events, by the entry they stand for.
  std::unordered_map<void *, size_t> eventEntries;
  std::unordered_map<void *, std::string> functionNames;
  std::unordered_map<const void *, uint64_t> liveAllocations;
  uint64_t liveBytes = 0;
  RecordStatistics statistics;
  std::unordered_map<std::string, size_t> kernelIndices;
};

std::atomic<bool> recording{false};

RunRecorder &getRecorder() {
  // Never destroyed: threads may record while the process exits.
  static auto *recorder = new RunRecorder();
  return *recorder;
}

/// The entry of op `op`, where it is kept.
RecordedEntry *findEntryLocked(RunRecorder &recorder, size_t op) {
  return op < recorder.entries.size() ? &recorder.entries[op] : nullptr;
}

/// A number per thread, in the order threads first record.
uint64_t getThreadNumber() {
  static std::atomic<uint64_t> next{0};
  thread_local uint64_t number = next++;
  return number;
}

size_t getThreadTrackLocked(RunRecorder &recorder) {
  uint64_t thread = getThreadNumber();
  auto [it, inserted] =
      recorder.threadTracks.emplace(thread, recorder.tracks.size());
  if (inserted)
    recorder.tracks.push_back({recorder.tracks.empty()
                                   ? "host thread"
                                   : "thread " + std::to_string(thread),
                               false});
  return it->second;
}

size_t getStreamTrackLocked(RunRecorder &recorder, void *stream) {
  auto [it, inserted] =
      recorder.streamTracks.emplace(stream, recorder.tracks.size());
  if (inserted)
    recorder.tracks.push_back(
        {stream ? "stream " + std::to_string(++recorder.streamNumber)
                : std::string("null stream (synchronous ops)"),
         true});
  return it->second;
}

/// The entry whose work `token` stands for: an event's, or a stream's last.
size_t findTokenEntryLocked(RunRecorder &recorder, void *token) {
  auto event = recorder.eventEntries.find(token);
  if (event != recorder.eventEntries.end())
    return event->second;
  auto track = recorder.streamTracks.find(token);
  if (track == recorder.streamTracks.end())
    return kNotRecorded;
  auto last = recorder.lastOnTrack.find(track->second);
  return last == recorder.lastOnTrack.end() ? kNotRecorded : last->second;
}

size_t getKernelIndexLocked(RunRecorder &recorder, const std::string &name) {
  auto [it, inserted] =
      recorder.kernelIndices.emplace(name, recorder.statistics.kernels.size());
  if (inserted)
    recorder.statistics.kernels.push_back({name});
  return it->second;
}

void *recordPoint(void *stream) {
  void *point = nullptr;
  // A point that cannot be recorded costs the record a time: the op itself
  // reports what is wrong with its stream.
  if (!getRuntime().recordTimePoint(stream, point).ok())
    return nullptr;
  return point;
}

/// Reads the points the streams reached by now into their ops; an op whose
/// points are all read leaves the pending table, its launch time counted.
void readReachedPointsLocked(RunRecorder &recorder) {
  Runtime &runtime = getRuntime();
  auto read = [&](void *&point, int64_t &ns, int64_t RecordedEntry::*field,
                  RecordedEntry *entry) {
    if (!point || !runtime.takeTimePoint(point, ns))
      return;
    point = nullptr;
    if (entry)
      entry->*field = ns;
  };
  for (auto it = recorder.pending.begin(); it != recorder.pending.end();) {
    PendingOp &op = it->second;
    RecordedEntry *entry = findEntryLocked(recorder, op.op);
    read(op.beginPoint, op.beginNs, &RecordedEntry::deviceBeginNs, entry);
    read(op.endPoint, op.endNs, &RecordedEntry::deviceEndNs, entry);
    if (!op.ended || op.beginPoint || op.endPoint) {
      ++it;
      continue;
    }
    if (op.kernel != kNotRecorded && op.beginNs && op.endNs) {
      RecordStatistics::Kernel &kernel = recorder.statistics.kernels[op.kernel];
      ++kernel.timed;
      kernel.totalNs += op.endNs - op.beginNs;
    }
    it = recorder.pending.erase(it);
  }
}

} // namespace

const char *getCopyDirectionName(CopyDirection direction) {
  switch (direction) {
  case CopyDirection::HostToHost:
    return "h2h";
  case CopyDirection::HostToDevice:
    return "h2d";
  case CopyDirection::DeviceToHost:
    return "d2h";
  case CopyDirection::DeviceToDevice:
    return "d2d";
  }
  return "?";
}

void startRunRecord() {
  RunRecorder &recorder = getRecorder();
  std::lock_guard<std::mutex> lock(recorder.mutex);
  recorder.startNs = getHostClockNs();
  getThreadTrackLocked(recorder);
  recording.store(true, std::memory_order_release);
}

bool isRunRecorded() { return recording.load(std::memory_order_acquire); }

RunRecordSnapshot takeRunRecordSnapshot() {
  RunRecorder &recorder = getRecorder();
  std::lock_guard<std::mutex> lock(recorder.mutex);
  readReachedPointsLocked(recorder);
  RunRecordSnapshot snapshot;
  snapshot.tracks = recorder.tracks;
  snapshot.entries = recorder.entries;
  snapshot.unkeptEntries = recorder.ops - recorder.entries.size();
  snapshot.phases = recorder.phases;
  snapshot.startNs = recorder.startNs;
  snapshot.nowNs = getHostClockNs();
  snapshot.clockUncertaintyNs = getRuntime().getTimePointUncertaintyNs();
  snapshot.statistics = recorder.statistics;
  return snapshot;
}

size_t countRecordedEntries() {
  RunRecorder &recorder = getRecorder();
  std::lock_guard<std::mutex> lock(recorder.mutex);
  return recorder.ops;
}

RecordedOp::RecordedOp(const char *name, const char *loc, RecordKind kind)
    : index(kNotRecorded), kind(kind) {
  if (isRunRecorded())
    begin(name, loc, kind);
}

RecordedOp::RecordedOp(const char *name, const char *loc, RecordKind kind,
                       void *stream)
    : index(kNotRecorded), stream(stream), onStream(true), kind(kind) {
  if (!isRunRecorded())
    return;
  begin(name, loc, kind);
  RunRecorder &recorder = getRecorder();
  {
    std::lock_guard<std::mutex> lock(recorder.mutex);
    recorder.pending[index].op = index;
    if (RecordedEntry *entry = findEntryLocked(recorder, index)) {
      entry->onStream = true;
      entry->streamTrack = getStreamTrackLocked(recorder, stream);
      auto waits = recorder.waitsOnTrack.find(entry->streamTrack);
      if (waits != recorder.waitsOnTrack.end()) {
        entry->after = std::move(waits->second);
        recorder.waitsOnTrack.erase(waits);
      }
      recorder.lastOnTrack[entry->streamTrack] = index;
    }
  }
  void *point = recordPoint(stream);
  std::lock_guard<std::mutex> lock(recorder.mutex);
  recorder.pending[index].beginPoint = point;
}

void RecordedOp::begin(const char *name, const char *loc, RecordKind kind) {
  RunRecorder &recorder = getRecorder();
  std::lock_guard<std::mutex> lock(recorder.mutex);
  index = recorder.ops++;
  if (index >= kMaxRecordedEntries)
    return;
  RecordedEntry &entry = recorder.entries.emplace_back();
  entry.name = name;
  // A loc is "gpu.memcpy@file.mlir:12:5", or the op's name alone where the
  // program has no location for it (RuntimeError.h).
  const char *at = loc ? std::strchr(loc, '@') : nullptr;
  entry.loc = at ? at + 1 : "";
  entry.kind = kind;
  entry.hostTrack = getThreadTrackLocked(recorder);
  entry.hostBeginNs = getHostClockNs();
}

RecordedOp::~RecordedOp() {
  if (index == kNotRecorded)
    return;
  RunRecorder &recorder = getRecorder();
  void *endPoint = onStream ? recordPoint(stream) : nullptr;
  std::lock_guard<std::mutex> lock(recorder.mutex);
  if (RecordedEntry *entry = findEntryLocked(recorder, index))
    entry->hostEndNs = getHostClockNs();
  // The op is done: count it.
  RecordStatistics &statistics = recorder.statistics;
  switch (kind) {
  case RecordKind::Copy:
    ++statistics.copies[static_cast<int>(direction)].count;
    statistics.copies[static_cast<int>(direction)].bytes += bytes;
    break;
  case RecordKind::Memset:
    ++statistics.memsets.count;
    statistics.memsets.bytes += bytes;
    break;
  case RecordKind::Launch:
    ++statistics.kernels[kernel].launches;
    break;
  case RecordKind::HostWait:
    ++statistics.hostWaits;
    break;
  case RecordKind::Allocation:
  case RecordKind::Free:
    break;
  }
  if (!onStream)
    return;
  PendingOp &op = recorder.pending[index];
  op.endPoint = endPoint;
  op.ended = true;
  if (kind == RecordKind::Launch)
    op.kernel = kernel;
  // Points of ops long done are read now and then, so that they do not pile
  // up in the runtime.
  if (++recorder.endedSinceRead >= 4096) {
    recorder.endedSinceRead = 0;
    readReachedPointsLocked(recorder);
  }
}

void RecordedOp::setCopy(const void *dst, const void *src, uint64_t bytes) {
  if (index == kNotRecorded)
    return;
  Runtime &runtime = getRuntime();
  bool fromDevice = !runtime.describeDeviceMemory(src).empty();
  bool toDevice = !runtime.describeDeviceMemory(dst).empty();
  direction = fromDevice ? (toDevice ? CopyDirection::DeviceToDevice
                                     : CopyDirection::DeviceToHost)
                         : (toDevice ? CopyDirection::HostToDevice
                                     : CopyDirection::HostToHost);
  setBytes(bytes);
  RunRecorder &recorder = getRecorder();
  std::lock_guard<std::mutex> lock(recorder.mutex);
  if (RecordedEntry *entry = findEntryLocked(recorder, index))
    entry->direction = direction;
}

void RecordedOp::setBytes(uint64_t bytes) {
  if (index == kNotRecorded)
    return;
  this->bytes = bytes;
  RunRecorder &recorder = getRecorder();
  std::lock_guard<std::mutex> lock(recorder.mutex);
  if (RecordedEntry *entry = findEntryLocked(recorder, index))
    entry->bytes = bytes;
}

void RecordedOp::setLaunch(const char *kernelName, const int64_t grid[3],
                           const int64_t block[3], int64_t dynamicSharedBytes) {
  if (index == kNotRecorded)
    return;
  RunRecorder &recorder = getRecorder();
  std::lock_guard<std::mutex> lock(recorder.mutex);
  kernel = getKernelIndexLocked(recorder, kernelName);
  RecordedEntry *entry = findEntryLocked(recorder, index);
  if (!entry)
    return;
  entry->kernel = kernelName;
  std::copy(grid, grid + 3, entry->grid);
  std::copy(block, block + 3, entry->block);
  entry->dynamicSharedBytes = dynamicSharedBytes;
}

void RecordedOp::setWaitsFor(void *token) const {
  if (index == kNotRecorded)
    return;
  RunRecorder &recorder = getRecorder();
  std::lock_guard<std::mutex> lock(recorder.mutex);
  size_t producer = findTokenEntryLocked(recorder, token);
  RecordedEntry *entry = findEntryLocked(recorder, index);
  if (entry && producer != kNotRecorded)
    entry->after.push_back(producer);
}

void noteRecordedStream(void *stream) {
  if (!isRunRecorded())
    return;
  RunRecorder &recorder = getRecorder();
  std::lock_guard<std::mutex> lock(recorder.mutex);
  // Stream handles are never given twice (GpuRuntime.h, HostStreams.h).
  getStreamTrackLocked(recorder, stream);
  ++recorder.statistics.streamsCreated;
}

void noteRecordedEvent(void *event, void *stream) {
  if (!isRunRecorded())
    return;
  RunRecorder &recorder = getRecorder();
  std::lock_guard<std::mutex> lock(recorder.mutex);
  size_t producer = findTokenEntryLocked(recorder, stream);
  if (producer == kNotRecorded)
    recorder.eventEntries.erase(event);
  else
    recorder.eventEntries[event] = producer;
}

void noteRecordedStreamWait(void *stream, void *token) {
  if (!isRunRecorded())
    return;
  RunRecorder &recorder = getRecorder();
  std::lock_guard<std::mutex> lock(recorder.mutex);
  ++recorder.statistics.streamWaits;
  size_t producer = findTokenEntryLocked(recorder, token);
  if (producer != kNotRecorded)
    recorder.waitsOnTrack[getStreamTrackLocked(recorder, stream)].push_back(
        producer);
}

void noteRecordedAllocation(const void *pointer, uint64_t bytes) {
  if (!isRunRecorded() || !pointer)
    return;
  RunRecorder &recorder = getRecorder();
  std::lock_guard<std::mutex> lock(recorder.mutex);
  RecordStatistics &statistics = recorder.statistics;
  recorder.liveAllocations[pointer] = bytes;
  recorder.liveBytes += bytes;
  statistics.peakDeviceBytes =
      std::max(statistics.peakDeviceBytes, recorder.liveBytes);
  statistics.allocatedDeviceBytes += bytes;
  ++statistics.allocationCount;
}

void noteRecordedFree(const void *pointer) {
  if (!isRunRecorded())
    return;
  RunRecorder &recorder = getRecorder();
  std::lock_guard<std::mutex> lock(recorder.mutex);
  auto it = recorder.liveAllocations.find(pointer);
  if (it == recorder.liveAllocations.end())
    return;
  recorder.liveBytes -= it->second;
  recorder.liveAllocations.erase(it);
}

void noteRecordedFunction(void *function, const char *name) {
  if (!isRunRecorded())
    return;
  RunRecorder &recorder = getRecorder();
  std::lock_guard<std::mutex> lock(recorder.mutex);
  recorder.functionNames[function] = name ? name : "";
}

std::string getRecordedFunctionName(void *function) {
  if (!isRunRecorded())
    return "";
  RunRecorder &recorder = getRecorder();
  std::lock_guard<std::mutex> lock(recorder.mutex);
  auto it = recorder.functionNames.find(function);
  return it == recorder.functionNames.end() ? "(unnamed)" : it->second;
}

size_t beginRecordedPhase(const std::string &name) {
  if (!isRunRecorded())
    return kNotRecorded;
  RunRecorder &recorder = getRecorder();
  std::lock_guard<std::mutex> lock(recorder.mutex);
  size_t track = getThreadTrackLocked(recorder);
  recorder.phases.push_back({name, track, getHostClockNs(), 0});
  return recorder.phases.size() - 1;
}

void endRecordedPhase(size_t phase) {
  if (phase == kNotRecorded)
    return;
  RunRecorder &recorder = getRecorder();
  std::lock_guard<std::mutex> lock(recorder.mutex);
  // A phase handed to another thread (a GPU kernel job) is drawn where it
  // ran, around the phases it ran there.
  recorder.phases[phase].track = getThreadTrackLocked(recorder);
  recorder.phases[phase].endNs = getHostClockNs();
}

} // namespace gpu_runner
