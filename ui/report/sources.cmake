# Reports drawn (docs/REPORTS.md): the report documents' charts as QCustomPlots, the HTML and PDF
# writers, and moe-studio's export commands (what a report says, the CSV and config exports are
# ui/base/report).
target_sources(moe_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/report_charts.cpp
  ${CMAKE_CURRENT_LIST_DIR}/report_charts.h
  ${CMAKE_CURRENT_LIST_DIR}/report_cli.cpp
  ${CMAKE_CURRENT_LIST_DIR}/report_cli.h
  ${CMAKE_CURRENT_LIST_DIR}/report_export.cpp
  ${CMAKE_CURRENT_LIST_DIR}/report_export.h
  ${CMAKE_CURRENT_LIST_DIR}/report_html.cpp
  ${CMAKE_CURRENT_LIST_DIR}/report_html.h
  ${CMAKE_CURRENT_LIST_DIR}/report_pdf.cpp
  ${CMAKE_CURRENT_LIST_DIR}/report_pdf.h
  ${CMAKE_CURRENT_LIST_DIR}/report_pdf_flow.cpp
  ${CMAKE_CURRENT_LIST_DIR}/report_pdf_flow.h
)
# The command lines that start a config's run by hand (moe-train, its launcher, torchrun, srun,
# sbatch) and the dialog that shows them.
target_sources(moe_ui PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/command_export_dialog.cpp
  ${CMAKE_CURRENT_LIST_DIR}/command_export_dialog.h
)
