# Warnings on for every target of ours: -Wall -Wextra -Wshadow -Wconversion (docs/extending.md, "Code style").
function(rmtsweep_enable_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wshadow -Wconversion -Wno-sign-conversion)
endfunction()
