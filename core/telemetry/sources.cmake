target_sources(moe_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/run_trace.cpp
  ${CMAKE_CURRENT_LIST_DIR}/trace_recorder.cpp
)

# moe_tensorboard: TensorBoard event files (CRC-32C, TFRecord framing, the Event messages of
# tensorboard_event.proto compiled by protoc at build time). Torch-free, so its tests are too.
# Only a device-checks build (cmake/MoeDependencies.cmake) may lack protobuf: its moe-train then
# refuses telemetry.tensorboard.
if(MOE_DEVICE_CHECKS_ONLY)
  find_package(Protobuf QUIET)
else()
  moe_require(Protobuf "libprotobuf-dev and protobuf-compiler")
endif()
add_library(moe_tensorboard STATIC
  ${CMAKE_CURRENT_LIST_DIR}/crc32c.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tfrecord_writer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tensorboard_scalars.cpp
)
target_include_directories(moe_tensorboard PUBLIC ${CMAKE_CURRENT_LIST_DIR}/..)
target_link_libraries(moe_tensorboard PUBLIC nlohmann_json::nlohmann_json)
if(Protobuf_FOUND)
  protobuf_generate_cpp(MOE_TB_PROTO_SRCS MOE_TB_PROTO_HDRS
    ${CMAKE_CURRENT_LIST_DIR}/tensorboard_event.proto)
  # protoc's code is not ours to keep free of warnings.
  set_source_files_properties(${MOE_TB_PROTO_SRCS} PROPERTIES COMPILE_OPTIONS "-w")
  target_sources(moe_tensorboard PRIVATE ${CMAKE_CURRENT_LIST_DIR}/tensorboard_writer.cpp
    ${MOE_TB_PROTO_SRCS})
  # tensorboard_event.pb.h, for the writer and the tests that read event files back.
  target_include_directories(moe_tensorboard PUBLIC ${CMAKE_CURRENT_BINARY_DIR})
  # The library itself, not the protobuf::libprotobuf target: a torch wheel's CMake files define
  # that name as an empty stand-in (torch carries its own protobuf, hidden), and FindProtobuf
  # then keeps it.
  target_include_directories(moe_tensorboard SYSTEM PUBLIC ${Protobuf_INCLUDE_DIRS})
  target_link_libraries(moe_tensorboard PUBLIC ${Protobuf_LIBRARIES})
else()
  target_compile_definitions(moe_core PRIVATE MOE_NO_TENSORBOARD)
endif()
target_link_libraries(moe_core PRIVATE moe_tensorboard)
