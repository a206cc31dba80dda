# GPU_RUNNER_SANITIZE: everything built with AddressSanitizer (its leak
# checker included) and UndefinedBehaviorSanitizer (scripts/test --sanitize).

option(GPU_RUNNER_SANITIZE
  "Build with AddressSanitizer and UndefinedBehaviorSanitizer (scripts/test --sanitize)" OFF)
if(GPU_RUNNER_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined
    -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
