# What reports and exports are made of without drawing (docs/REPORTS.md): a run read for its
# report, its warning history, the report documents (blocks, tables, and charts as data), the
# telemetry as CSV files, the config with its command lines. Drawing the charts and the HTML / PDF
# writers are ui/report.
target_sources(moe_ui_base PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/analysis_charts.cpp
  ${CMAKE_CURRENT_LIST_DIR}/analysis_charts.h
  ${CMAKE_CURRENT_LIST_DIR}/analysis_section.cpp
  ${CMAKE_CURRENT_LIST_DIR}/analysis_section.h
  ${CMAKE_CURRENT_LIST_DIR}/comparison_report.cpp
  ${CMAKE_CURRENT_LIST_DIR}/comparison_report.h
  ${CMAKE_CURRENT_LIST_DIR}/command_exports.cpp
  ${CMAKE_CURRENT_LIST_DIR}/command_exports.h
  ${CMAKE_CURRENT_LIST_DIR}/config_export.cpp
  ${CMAKE_CURRENT_LIST_DIR}/config_export.h
  ${CMAKE_CURRENT_LIST_DIR}/metrics_csv.cpp
  ${CMAKE_CURRENT_LIST_DIR}/metrics_csv.h
  ${CMAKE_CURRENT_LIST_DIR}/report_chart.cpp
  ${CMAKE_CURRENT_LIST_DIR}/report_chart.h
  ${CMAKE_CURRENT_LIST_DIR}/report_document.cpp
  ${CMAKE_CURRENT_LIST_DIR}/report_document.h
  ${CMAKE_CURRENT_LIST_DIR}/report_format.cpp
  ${CMAKE_CURRENT_LIST_DIR}/report_format.h
  ${CMAKE_CURRENT_LIST_DIR}/run_report.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_report.h
  ${CMAKE_CURRENT_LIST_DIR}/run_report_document.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_report_document.h
  ${CMAKE_CURRENT_LIST_DIR}/run_report_summary.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_report_summary.h
  ${CMAKE_CURRENT_LIST_DIR}/warning_history.cpp
  ${CMAKE_CURRENT_LIST_DIR}/warning_history.h
)
