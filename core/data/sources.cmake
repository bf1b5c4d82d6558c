# core/data: batch sources (synthetic, text, IDX, CIFAR-10) and the prefetching wrapper.
find_package(ZLIB REQUIRED)
target_sources(moe_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/batch_source.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cifar_reader.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gz_file.cpp
  ${CMAKE_CURRENT_LIST_DIR}/idx_reader.cpp
  ${CMAKE_CURRENT_LIST_DIR}/image_source.cpp
  ${CMAKE_CURRENT_LIST_DIR}/on_device.cpp
  ${CMAKE_CURRENT_LIST_DIR}/prefetch.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rank_slice.cpp
  ${CMAKE_CURRENT_LIST_DIR}/synthetic_source.cpp
  ${CMAKE_CURRENT_LIST_DIR}/text_source.cpp
)
target_link_libraries(moe_core PUBLIC ZLIB::ZLIB)
