target_sources(moe_core PRIVATE ${CMAKE_CURRENT_LIST_DIR}/trace_recorder.cpp)
