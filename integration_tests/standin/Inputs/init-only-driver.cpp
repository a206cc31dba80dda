// A library with the entry points that identify a CUDA driver and a HIP
// runtime (cuInit, cuDriverGetVersion, hipInit, hipRuntimeGetVersion) and
// none of the others: what an old driver or runtime looks like to
// gpu-runner-cuda and gpu-runner-hip.
extern "C" int cuInit(unsigned) { return 0; }
extern "C" int cuDriverGetVersion(int *version) {
  *version = 9000;
  return 0;
}
extern "C" int hipInit(unsigned) { return 0; }
extern "C" int hipRuntimeGetVersion(int *version) {
  *version = 10000000;
  return 0;
}
