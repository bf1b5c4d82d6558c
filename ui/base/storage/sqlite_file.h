// SqliteFile: one of MoE Studio's own SQLite databases (runs.db, profiler.db) over Qt SQL's
// QSQLITE driver, the part every such store shares: a connection of its own per instance (so a
// worker thread can open a second one on the same file; Qt SQL connections belong to the thread
// that opened them), the checks before the driver touches the file (a file, a SQLite database,
// its folder made), and the connection closed and removed with the instance.
//
// The store on top checks the tables (whose file it is, its schema version) and creates them.
#pragma once

#include <QSqlDatabase>
#include <QString>
#include <QStringList>

namespace moe::ui {

class SqliteFile {
 public:
  // `connection_prefix` names the connections (<prefix>_<n>), which Qt SQL lists process-wide.
  SqliteFile(QString path, const QString& connection_prefix);
  ~SqliteFile();
  SqliteFile(const SqliteFile&) = delete;
  SqliteFile& operator=(const SqliteFile&) = delete;

  // <GenericDataLocation>/moe-studio/<file_name>
  static QString defaultPath(const QString& file_name);

  QString path() const { return path_; }

  // Opens the connection, creating the file's folder. False with *error "<path>: why" when the
  // path is no file, the file is something other than a SQLite database (it is left as it is),
  // the folder cannot be made, the driver is missing or SQLite refuses the file.
  bool open(QString* error);
  // The open connection, for queries.
  QSqlDatabase database() const;
  // The table names in the file (empty for a new file); false with *error (without the path).
  bool tables(QStringList* names, QString* error) const;
  // For a store's own checks after open(): closes the connection, sets *error to
  // "<path>: <message>" and returns false.
  bool fail(const QString& message, QString* error);

 private:
  QString path_;
  QString connection_;
};

}  // namespace moe::ui
