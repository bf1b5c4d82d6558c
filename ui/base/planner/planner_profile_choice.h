// PlannerProfileChoice: the hardware profile the app's planner figures use (the editor's
// estimates, the Scaling view, the dashboard's predicted step): one choice for the whole app.
//
// The choice is a string kept in QSettings under kSettingsKey ("planner/profile"):
//   - a shipped profile's name ("h100-sxm"; plan::shipped_profile_names()),
//   - NAME+NETWORK, the device with another inter-node link ("h100-sxm+ib-hdr"),
//   - or the path of a measured profile (`moe-train bench --calibrate --json FILE`).
// Without a stored choice: thisMachinePath() when that file exists, else "h100-sxm".
//
// Use: make one per view, connect loaded() and failed(), call load(). setChoice() stores a new
// choice, and every PlannerProfileChoice of the app emits changed() and loads it again. The
// profile is read and parsed on a worker; the signals come on the GUI thread, only for the
// latest load.
#pragma once

#include <QList>
#include <QObject>
#include <QString>

#include <optional>

#include "base/planner/plan_model.h"

namespace moe::ui {

// One entry of a profile list: what to store as the choice, what to show, and a tooltip.
struct PlannerProfileOption {
  QString choice, label, tooltip;
};

class PlannerProfileChoice : public QObject {
  Q_OBJECT

 public:
  static constexpr const char* kSettingsKey = "planner/profile";
  static constexpr const char* kFallback = "h100-sxm";

  explicit PlannerProfileChoice(QObject* parent = nullptr);
  ~PlannerProfileChoice() override;

  // <AppDataLocation>/profiles/this-machine.json: where a calibration of this machine goes.
  static QString thisMachinePath();
  // The stored choice, else the default above.
  static QString currentChoice();
  // The shipped device profiles (name and description), then this machine's file when it
  // exists. Reads and parses: call it on a worker.
  static QList<PlannerProfileOption> availableProfiles();

  QString choice() const { return currentChoice(); }
  // Stores `choice` (trimmed; an empty one goes back to the default) and reloads every choice.
  void setChoice(const QString& choice);
  // Reads the current choice's profile on a worker: loaded() or failed().
  void load();

  // The last profile loaded; nullopt before the first load and after a failed one.
  const std::optional<plan::HardwareProfile>& profile() const { return profile_; }
  QString error() const { return error_; }

 signals:
  void changed(const QString& choice);
  void loaded(const moe::plan::HardwareProfile& profile);
  void failed(const QString& error);

 private:
  std::optional<plan::HardwareProfile> profile_;
  QString error_;
  quint64 generation_ = 0;  // results of older loads are dropped
};

}  // namespace moe::ui
