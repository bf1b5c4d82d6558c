// TargetForm: the fields of one remote target (SSH host or Slurm cluster), each with a tooltip
// saying what it means, and the target's problems shown under them as they are typed. The Slurm
// fields show only for a Slurm cluster; "sbatch on this machine" stands for an empty host. The
// form edits a copy: target() is what it holds now, the caller decides when to save it. The
// widgets and their tooltips are built in target_form_fields.cpp.
#pragma once

#include <QStringList>
#include <QWidget>

#include "base/remote/target.h"

class QCheckBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace moe::ui {

class TargetForm : public QWidget {
  Q_OBJECT

 public:
  explicit TargetForm(QWidget* parent = nullptr);

  void setTarget(const Target& target);
  Target target() const;
  // For a Slurm cluster: sbatch on this machine (no host) or over SSH. setTarget() ticks it for
  // an empty host; a new cluster without a host yet may be either.
  void setSlurmLocal(bool local);
  // What the form's own fields get wrong (a port that is not a number, a Slurm cluster over SSH
  // with no host), then target().validate(); each names its field.
  QStringList problems() const;

 signals:
  void edited();

 private:
  QGroupBox* buildConnection();
  QGroupBox* buildRemoteSide();
  QGroupBox* buildSlurm();
  // A line edit that reports edits; addLine() also puts it in a row of `form`.
  QLineEdit* makeLine(const QString& object_name, const QString& tooltip);
  QLineEdit* addLine(QFormLayout* form, const QString& label, const QString& object_name,
                     const QString& tooltip);
  void reportEdits(QPlainTextEdit* edit);
  void reportEdits(QSpinBox* box);
  void browseIdentityFile();
  void updateEnabled();
  void showProblems();

  QLineEdit* name_;
  QLabel* kind_;
  QCheckBox* slurm_local_;
  QLineEdit* host_;
  QLineEdit* user_;
  QLineEdit* port_;
  QLineEdit* identity_file_;
  QPushButton* browse_;
  QCheckBox* accept_new_host_key_;
  QLineEdit* known_hosts_file_;
  QLineEdit* train_program_;
  QLineEdit* runs_root_;
  QPlainTextEdit* setup_commands_;
  QGroupBox* slurm_box_;
  QLineEdit* partition_;
  QLineEdit* account_;
  QSpinBox* nodes_;
  QSpinBox* tasks_per_node_;
  QSpinBox* gpus_per_node_;
  QLineEdit* time_limit_;
  QPlainTextEdit* extra_lines_;
  QLabel* problems_;
  QFormLayout* connection_form_;
  Target::Kind kind_value_ = Target::Kind::Ssh;
  bool loading_ = false;  // setTarget() is filling the fields: no edited()
};

}  // namespace moe::ui
