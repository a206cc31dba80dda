# GPU_RUNNER_SANITIZE: everything built with AddressSanitizer (its leak
# checker included) and UndefinedBehaviorSanitizer (scripts/test --sanitize).

option(GPU_RUNNER_SANITIZE
  "Build with AddressSanitizer and UndefinedBehaviorSanitizer (scripts/test --sanitize)" OFF)
if(GPU_RUNNER_SANITIZE)
  # -O1, as the AddressSanitizer documentation advises, and -g1 (line tables
  # and function names, all a sanitizer's stack trace prints): the
  # instrumented build compiles in about half the time it takes at -O2 -g,
  # and GCC takes the last -O and -g it is given.
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined
    -fno-omit-frame-pointer -O1 -g1)
  add_link_options(-fsanitize=address,undefined)
endif()
