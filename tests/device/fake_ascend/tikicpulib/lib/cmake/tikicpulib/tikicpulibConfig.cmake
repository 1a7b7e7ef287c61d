# A stand-in for CANN's tikicpulib CMake package (tools/tikicpulib/lib/cmake): one imported target per SoC,
# tikicpulib::<SoC>, carrying the CPU-twin headers. The real package also links the simulator libraries.
get_filename_component(_kope_tiki_inc "${CMAKE_CURRENT_LIST_DIR}/../../include" ABSOLUTE)
foreach(soc Ascend910B1 Ascend910B2 Ascend910B3 Ascend910B4 Ascend910_9391 Ascend910_9392 Ascend310P3)
  if(NOT TARGET tikicpulib::${soc})
    add_library(tikicpulib::${soc} INTERFACE IMPORTED)
    set_target_properties(tikicpulib::${soc} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${_kope_tiki_inc}"
                          INTERFACE_COMPILE_DEFINITIONS "KOPE_FAKE_TIKICPULIB_SOC=\"${soc}\"")
  endif()
endforeach()
set(tikicpulib_FOUND TRUE)
