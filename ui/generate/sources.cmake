# The Generate tab (docs/INFERENCE.md, "In the app: Generate"): the form, the streamed text and
# the routing strip coloured by expert, the live figures and the generated tokens' expert load,
# over ui/base/generate's process and session.
target_sources(moe_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/generate_form.cpp
  ${CMAKE_CURRENT_LIST_DIR}/generate_form.h
  ${CMAKE_CURRENT_LIST_DIR}/generate_view.cpp
  ${CMAKE_CURRENT_LIST_DIR}/generate_view.h
  ${CMAKE_CURRENT_LIST_DIR}/generated_load_bars.cpp
  ${CMAKE_CURRENT_LIST_DIR}/generated_load_bars.h
  ${CMAKE_CURRENT_LIST_DIR}/phase_share_bar.cpp
  ${CMAKE_CURRENT_LIST_DIR}/phase_share_bar.h
  ${CMAKE_CURRENT_LIST_DIR}/routing_strip.cpp
  ${CMAKE_CURRENT_LIST_DIR}/routing_strip.h
  ${CMAKE_CURRENT_LIST_DIR}/sparkline.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sparkline.h
  ${CMAKE_CURRENT_LIST_DIR}/token_style.cpp
  ${CMAKE_CURRENT_LIST_DIR}/token_style.h
  ${CMAKE_CURRENT_LIST_DIR}/token_text_view.cpp
  ${CMAKE_CURRENT_LIST_DIR}/token_text_view.h
)
