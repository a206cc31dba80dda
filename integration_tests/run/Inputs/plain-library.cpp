// A library whose functions a program finds through --shared-libs.
extern "C" int gpuRunnerTestAnswer() { return 42; }
