// TargetForm's fields: the widgets of each group, with the tooltips that say what they mean.
#include <QCheckBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>

#include "targets/target_form.h"

namespace moe::ui {

namespace {

QPlainTextEdit* linesEdit(const QString& object_name, const QString& placeholder,
                          const QString& tooltip) {
  auto* edit = new QPlainTextEdit;
  edit->setObjectName(object_name);
  edit->setPlaceholderText(placeholder);
  edit->setToolTip(tooltip);
  edit->setTabChangesFocus(true);
  edit->setFixedHeight(edit->fontMetrics().lineSpacing() * 3 + 14);
  return edit;
}

QSpinBox* countBox(const QString& object_name, int minimum, int maximum, const QString& tooltip) {
  auto* box = new QSpinBox;
  box->setObjectName(object_name);
  box->setRange(minimum, maximum);
  box->setToolTip(tooltip);
  return box;
}

}  // namespace

QLineEdit* TargetForm::makeLine(const QString& object_name, const QString& tooltip) {
  auto* edit = new QLineEdit;
  edit->setObjectName(object_name);
  edit->setToolTip(tooltip);
  connect(edit, &QLineEdit::textChanged, this, [this] {
    if (!loading_) emit edited();
  });
  return edit;
}

QLineEdit* TargetForm::addLine(QFormLayout* form, const QString& label, const QString& object_name,
                               const QString& tooltip) {
  QLineEdit* edit = makeLine(object_name, tooltip);
  form->addRow(label, edit);
  return edit;
}

void TargetForm::reportEdits(QPlainTextEdit* edit) {
  connect(edit, &QPlainTextEdit::textChanged, this, [this] {
    if (!loading_) emit edited();
  });
}

void TargetForm::reportEdits(QSpinBox* box) {
  connect(box, &QSpinBox::valueChanged, this, [this] {
    if (!loading_) emit edited();
  });
}

QGroupBox* TargetForm::buildConnection() {
  auto* box = new QGroupBox(tr("Connection"));
  connection_form_ = new QFormLayout(box);
  slurm_local_ = new QCheckBox(tr("sbatch on this machine (no SSH)"));
  slurm_local_->setObjectName("slurmLocal");
  slurm_local_->setToolTip(
      tr("This machine is a login node of the cluster: sbatch, squeue and "
         "scancel run here instead of over SSH."));
  connect(slurm_local_, &QCheckBox::toggled, this, [this] {
    updateEnabled();
    if (!loading_) emit edited();
  });
  connection_form_->addRow(slurm_local_);
  host_ = addLine(connection_form_, tr("Host"), "targetHost",
                  tr("The machine's name or address as ssh takes it (a Host alias of "
                     "~/.ssh/config works too)."));
  user_ = addLine(connection_form_, tr("User"), "targetUser",
                  tr("The login name there; empty: ssh's default (your local name, or the User "
                     "of ~/.ssh/config)."));
  user_->setPlaceholderText(tr("ssh's default"));
  port_ = addLine(connection_form_, tr("Port"), "targetPort", tr("The SSH port, 1 to 65535."));
  port_->setPlaceholderText(QStringLiteral("22"));
  port_->setMaximumWidth(port_->fontMetrics().horizontalAdvance(QStringLiteral("65535")) * 2);

  identity_file_ = makeLine("targetIdentityFile",
                            tr("The private key to log in with, a file on this machine (e.g. "
                               "~/.ssh/id_ed25519); empty: your SSH agent's keys and ssh's "
                               "defaults. Passwords are never asked for or stored."));
  identity_file_->setPlaceholderText(tr("SSH agent and ssh's defaults"));
  browse_ = new QPushButton(tr("Browse…"));
  browse_->setObjectName("browseIdentityFile");
  connect(browse_, &QPushButton::clicked, this, &TargetForm::browseIdentityFile);
  auto* identity_row = new QHBoxLayout;
  identity_row->addWidget(identity_file_, 1);
  identity_row->addWidget(browse_);
  connection_form_->addRow(tr("Identity file"), identity_row);

  accept_new_host_key_ = new QCheckBox(tr("Trust the host key the first time it is seen"));
  accept_new_host_key_->setObjectName("targetAcceptNewHostKey");
  accept_new_host_key_->setToolTip(
      tr("StrictHostKeyChecking=accept-new: a new machine's key is added to known_hosts, a "
         "changed key is still refused. Off: the key must be in known_hosts already."));
  connect(accept_new_host_key_, &QCheckBox::toggled, this, [this] {
    if (!loading_) emit edited();
  });
  connection_form_->addRow(accept_new_host_key_);
  known_hosts_file_ = addLine(connection_form_, tr("Known hosts"), "targetKnownHostsFile",
                              tr("The known_hosts file host keys are checked against; empty: "
                                 "~/.ssh/known_hosts."));
  known_hosts_file_->setPlaceholderText(QStringLiteral("~/.ssh/known_hosts"));
  return box;
}

QGroupBox* TargetForm::buildRemoteSide() {
  auto* box = new QGroupBox(tr("On the remote side"));
  auto* form = new QFormLayout(box);
  runs_root_ = addLine(form, tr("Runs root"), "targetRunsRoot",
                       tr("Where run directories are created there: an absolute path or one "
                          "starting with ~/ (e.g. ~/moe-runs)."));
  runs_root_->setPlaceholderText(QStringLiteral("~/moe-runs"));
  train_program_ = addLine(form, tr("moe-train"), "targetTrainProgram",
                           tr("The moe-train executable there; empty: moe-train on the PATH "
                              "(after the setup commands ran)."));
  train_program_->setPlaceholderText(tr("moe-train on the PATH"));
  setup_commands_ = linesEdit(
      "targetSetupCommands", QStringLiteral("module load cuda"),
      tr("Shell lines run before the engine starts, one per line, e.g. `module load cuda` or "
         "`source ~/venv/bin/activate`."));
  // It fills what the Connection box beside it leaves (at least its three lines).
  setup_commands_->setMinimumHeight(setup_commands_->height());
  setup_commands_->setMaximumHeight(QWIDGETSIZE_MAX);
  setup_commands_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Ignored);
  reportEdits(setup_commands_);
  form->addRow(tr("Setup commands"), setup_commands_);
  return box;
}

QGroupBox* TargetForm::buildSlurm() {
  slurm_box_ = new QGroupBox(tr("Slurm"));
  auto* form = new QFormLayout(slurm_box_);
  partition_ = addLine(form, tr("Partition"), "slurmPartition",
                       tr("sbatch --partition; empty: the cluster's default partition."));
  partition_->setPlaceholderText(tr("cluster default"));
  account_ = addLine(form, tr("Account"), "slurmAccount",
                     tr("sbatch --account, charged for the run; empty: your default account."));
  account_->setPlaceholderText(tr("your default"));
  nodes_ = countBox("slurmNodes", 1, 100000, tr("sbatch --nodes: the machines of one run."));
  tasks_per_node_ = countBox("slurmTasksPerNode", 1, 1024,
                             tr("Ranks per node (the run's parallel.nproc); sbatch "
                                "--ntasks-per-node."));
  gpus_per_node_ =
      countBox("slurmGpusPerNode", 0, 64, tr("sbatch --gpus-per-node; 0 asks for no GPU."));
  auto* counts = new QHBoxLayout;
  counts->addWidget(nodes_);
  for (auto [label, box] : {std::pair{tr("tasks per node"), tasks_per_node_},
                            std::pair{tr("GPUs per node"), gpus_per_node_}}) {
    counts->addSpacing(12);
    counts->addWidget(new QLabel(label));
    counts->addWidget(box);
  }
  counts->addStretch(1);
  for (QSpinBox* box : {nodes_, tasks_per_node_, gpus_per_node_}) reportEdits(box);
  form->addRow(tr("Nodes"), counts);
  time_limit_ = addLine(form, tr("Time limit"), "slurmTimeLimit",
                        tr("sbatch --time: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS; "
                           "empty: the partition's default."));
  time_limit_->setPlaceholderText(tr("partition default, e.g. 4:00:00 or 1-12"));
  extra_lines_ = linesEdit("slurmExtraLines", QStringLiteral("#SBATCH --constraint=a100"),
                           tr("More #SBATCH lines for the batch script, one per line, e.g. "
                              "--qos=long (the #SBATCH prefix is added when missing)."));
  reportEdits(extra_lines_);
  form->addRow(tr("Extra lines"), extra_lines_);
  return slurm_box_;
}

}  // namespace moe::ui
