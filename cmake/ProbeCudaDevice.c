/* Exits 0 when the NVIDIA driver loads and sees at least one device: how
   configure decides that build/bin/gpu-runner is the CUDA binary. */
#include <cuda.h>
#include <dlfcn.h>

int main(void) {
  void *library = dlopen("libcuda.so.1", RTLD_NOW);
  if (!library)
    return 1;
  CUresult (*init)(unsigned) = (CUresult (*)(unsigned))dlsym(library, "cuInit");
  CUresult (*count)(int *) =
      (CUresult (*)(int *))dlsym(library, "cuDeviceGetCount");
  int devices = 0;
  if (!init || !count || init(0) != CUDA_SUCCESS ||
      count(&devices) != CUDA_SUCCESS)
    return 1;
  return devices > 0 ? 0 : 1;
}
