// ProblemListModel: the document's problems as a list model, one row per problem: the JSON
// syntax error alone while there is one, else every problem protocol::check found.
#pragma once

#include <QAbstractListModel>

namespace moe::ui {

class ExperimentDocument;

class ProblemListModel : public QAbstractListModel {
  Q_OBJECT

 public:
  // The JSON pointer of a row's key ("" for the document; the syntax error has no pointer).
  static constexpr int kPointerRole = Qt::UserRole + 1;
  // True on the syntax error's row.
  static constexpr int kSyntaxErrorRole = Qt::UserRole + 2;

  explicit ProblemListModel(ExperimentDocument* document, QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

 private:
  struct Row {
    QString pointer, text;
    bool syntax = false;
  };
  void reload();

  ExperimentDocument* document_;
  QList<Row> rows_;
};

}  // namespace moe::ui
