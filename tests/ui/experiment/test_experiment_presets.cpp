// Presets load and validate; recent files keep the newest ten; the file actions open presets.
#include <QCoreApplication>
#include <QDir>
#include <QMenu>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

#include "base/experiment/experiment_document.h"
#include "base/experiment/preset_library.h"
#include "base/experiment/recent_files.h"
#include "experiment/experiment_file_actions.h"

using moe::ui::ExperimentDocument;
using moe::ui::PresetLibrary;
using moe::ui::RecentFiles;

class TestExperimentPresets : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    // Keep the user's real settings out of it.
    QVERIFY(settings_dir_.isValid());
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings_dir_.path());
    QCoreApplication::setOrganizationName("moe-studio-tests");
    QCoreApplication::setApplicationName("test_experiment_presets");
  }

  void findsTheSourceTreePresets() {
    const PresetLibrary library;
    QVERIFY(!library.folders().isEmpty());
    QStringList names;
    for (const auto& p : library.presets()) names << p.name;
    QVERIFY2(names.contains("fashion-mnist"), qPrintable(names.join(", ")));
    QVERIFY(names.contains("tiny-lm"));
    QVERIFY(names.contains("helloworld"));
  }

  void everyPresetLoadsAndValidates() {
    const PresetLibrary library;
    for (const auto& preset : library.presets()) {
      ExperimentDocument doc;
      doc.setValidateOptions({/*check_files=*/false});  // data sets may live elsewhere
      QString error;
      QVERIFY2(doc.open(preset.path, &error, /*as_template=*/true), qPrintable(error));
      QVERIFY2(!doc.hasSyntaxError(), qPrintable(preset.name));
      QString problems;
      for (const auto& p : doc.problems()) {
        problems += QString::fromStdString(moe::protocol::format_problem(p)) + "\n";
      }
      QVERIFY2(doc.problems().empty(), qPrintable(preset.name + ": " + problems));
      QCOMPARE(QString::fromStdString(doc.config().name), preset.name);
      QVERIFY(!doc.isModified());
    }
  }

  void firstFolderWins() {
    QTemporaryDir a, b;
    auto write = [](const QString& path, const char* text) {
      QFile f(path);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(text);
    };
    write(a.filePath("same.json"), R"({"name": "from-a"})");
    write(b.filePath("same.json"), R"({"name": "from-b"})");
    write(b.filePath("other.json"), R"({"name": "other"})");
    write(b.filePath("notes.txt"), "not a preset");
    const PresetLibrary library({a.path(), b.path()});
    QCOMPARE(library.presets().size(), 2);
    QCOMPARE(library.path("same"), a.filePath("same.json"));
    QCOMPARE(library.path("other"), b.filePath("other.json"));
    QVERIFY(library.path("missing").isEmpty());
  }

  void fileActionsOpenAPreset() {
    QWidget window;
    ExperimentDocument doc;
    moe::ui::ExperimentFileActions actions(&doc, &window);
    QVERIFY(!actions.presetMenu()->isEmpty());
    QVERIFY(actions.openPreset("tiny-lm"));
    QCOMPARE(doc.config().model.kind, moe::protocol::ModelKind::Lm);
    QVERIFY(doc.filePath().isEmpty());  // Save asks where to write
    QCOMPARE(doc.displayName(), QString("tiny-lm (preset)"));
  }

  void recentFilesKeepTheNewestTen() {
    RecentFiles recent;
    recent.clear();
    for (int i = 0; i < 12; ++i) recent.add(QDir::temp().filePath(QString("r%1.json").arg(i)));
    QStringList files = recent.files();
    QCOMPARE(files.size(), RecentFiles::kMax);
    QCOMPARE(files.first(), QDir::temp().filePath("r11.json"));
    QCOMPARE(files.last(), QDir::temp().filePath("r2.json"));
    // Re-adding moves to the front without duplicating.
    recent.add(QDir::temp().filePath("r5.json"));
    files = recent.files();
    QCOMPARE(files.size(), RecentFiles::kMax);
    QCOMPARE(files.first(), QDir::temp().filePath("r5.json"));
    QCOMPARE(files.count(QDir::temp().filePath("r5.json")), 1);
    // Persisted: a new instance sees the same list.
    QCOMPARE(RecentFiles().files(), files);
    recent.remove(QDir::temp().filePath("r5.json"));
    QCOMPARE(recent.files().size(), RecentFiles::kMax - 1);
  }

 private:
  QTemporaryDir settings_dir_;
};

QTEST_MAIN(TestExperimentPresets)
#include "test_experiment_presets.moc"
