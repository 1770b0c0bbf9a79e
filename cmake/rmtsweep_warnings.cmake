# Warnings on for every target of ours: -Wall -Wextra -Wshadow -Wconversion (style.md).
function(rmtsweep_enable_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wshadow -Wconversion -Wno-sign-conversion)
endfunction()
