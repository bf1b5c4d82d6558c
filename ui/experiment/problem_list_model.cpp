#include "experiment/problem_list_model.h"

#include <QApplication>
#include <QStyle>

#include "base/experiment/experiment_document.h"

namespace moe::ui {

ProblemListModel::ProblemListModel(ExperimentDocument* document, QObject* parent)
    : QAbstractListModel(parent), document_(document) {
  connect(document_, &ExperimentDocument::contentChanged, this, &ProblemListModel::reload);
  reload();
}

void ProblemListModel::reload() {
  QList<Row> rows;
  if (const auto& error = document_->syntaxError()) {
    rows.append({QString(),
                 tr("JSON syntax error at line %1, column %2: %3")
                     .arg(error->line)
                     .arg(error->column)
                     .arg(QString::fromStdString(error->message)),
                 true});
  } else {
    for (const protocol::ConfigProblem& p : document_->problems()) {
      rows.append({QString::fromStdString(p.pointer),
                   QString::fromStdString(protocol::format_problem(p)), false});
    }
  }
  beginResetModel();
  rows_ = std::move(rows);
  endResetModel();
}

int ProblemListModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(rows_.size());
}

QVariant ProblemListModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rows_.size()) return {};
  const Row& row = rows_[index.row()];
  switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
      return row.text;
    case Qt::DecorationRole:
      return QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
    case kPointerRole:
      return row.pointer;
    case kSyntaxErrorRole:
      return row.syntax;
    default:
      return {};
  }
}

}  // namespace moe::ui
