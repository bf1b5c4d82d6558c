#include "launch/target_form.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace moe::ui {

namespace {

const QColor kProblemColor(0xc6, 0x28, 0x28);

// Lines of a text box, blank ones left out.
QStringList nonBlankLines(const QPlainTextEdit* edit) {
  QStringList lines;
  for (const QString& line : edit->toPlainText().split(u'\n')) {
    if (!line.trimmed().isEmpty()) lines << line;
  }
  return lines;
}

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

TargetForm::TargetForm(QWidget* parent) : QWidget(parent) {
  auto* identity = new QFormLayout;
  name_ = addLine(identity, tr("Name"), "targetName",
                  tr("What this target is called in the Run menu and the runs table; unique."));
  kind_ = new QLabel;
  kind_->setObjectName("targetKind");
  identity->addRow(tr("Kind"), kind_);

  problems_ = new QLabel;
  problems_->setObjectName("targetProblems");
  problems_->setWordWrap(true);
  problems_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  QPalette palette = problems_->palette();
  palette.setColor(QPalette::WindowText, kProblemColor);
  problems_->setPalette(palette);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(identity);
  layout->addWidget(buildConnection());
  layout->addWidget(buildRemoteSide());
  layout->addWidget(buildSlurm());
  layout->addWidget(problems_);
  layout->addStretch(1);
  connect(this, &TargetForm::edited, this, &TargetForm::showProblems);
}

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

void TargetForm::setTarget(const Target& target) {
  loading_ = true;
  kind_value_ = target.kind;
  kind_->setText(target.kind == Target::Kind::Slurm ? tr("Slurm cluster") : tr("SSH host"));
  name_->setText(target.name);
  slurm_local_->setChecked(target.kind == Target::Kind::Slurm && target.ssh.isLocal());
  host_->setText(target.ssh.host);
  user_->setText(target.ssh.user);
  port_->setText(QString::number(target.ssh.port));
  identity_file_->setText(target.ssh.identity_file);
  accept_new_host_key_->setChecked(target.ssh.accept_new_host_key);
  known_hosts_file_->setText(target.ssh.known_hosts_file);
  train_program_->setText(target.train_program);
  runs_root_->setText(target.runs_root);
  setup_commands_->setPlainText(target.setup_commands.join(u'\n'));
  partition_->setText(target.slurm.partition);
  account_->setText(target.slurm.account);
  nodes_->setValue(target.slurm.nodes);
  tasks_per_node_->setValue(target.slurm.tasks_per_node);
  gpus_per_node_->setValue(target.slurm.gpus_per_node);
  time_limit_->setText(target.slurm.time_limit);
  extra_lines_->setPlainText(target.slurm.extra_lines.join(u'\n'));
  const bool slurm = target.kind == Target::Kind::Slurm;
  connection_form_->setRowVisible(slurm_local_, slurm);
  slurm_box_->setVisible(slurm);
  updateEnabled();
  loading_ = false;
  showProblems();
}

Target TargetForm::target() const {
  Target t;
  t.kind = kind_value_;
  t.name = name_->text().trimmed();
  if (!slurm_local_->isChecked()) {
    t.ssh.host = host_->text().trimmed();
    t.ssh.user = user_->text().trimmed();
    const QString port = port_->text().trimmed();
    bool number = true;
    t.ssh.port = port.isEmpty() ? 22 : port.toInt(&number);
    if (!number) t.ssh.port = -1;  // validate() says what a port must be
    t.ssh.identity_file = identity_file_->text().trimmed();
    t.ssh.accept_new_host_key = accept_new_host_key_->isChecked();
    t.ssh.known_hosts_file = known_hosts_file_->text().trimmed();
  }
  t.train_program = train_program_->text().trimmed();
  t.runs_root = runs_root_->text().trimmed();
  t.setup_commands = nonBlankLines(setup_commands_);
  if (t.kind == Target::Kind::Slurm) {
    t.slurm.partition = partition_->text().trimmed();
    t.slurm.account = account_->text().trimmed();
    t.slurm.nodes = nodes_->value();
    t.slurm.tasks_per_node = tasks_per_node_->value();
    t.slurm.gpus_per_node = gpus_per_node_->value();
    t.slurm.time_limit = time_limit_->text().trimmed();
    t.slurm.extra_lines = nonBlankLines(extra_lines_);
  }
  return t;
}

void TargetForm::setSlurmLocal(bool local) { slurm_local_->setChecked(local); }

QStringList TargetForm::problems() const {
  QStringList problems;
  const Target t = target();
  if (t.kind == Target::Kind::Slurm && !slurm_local_->isChecked() && t.ssh.host.isEmpty()) {
    problems << tr(
        "host: required for a cluster reached over SSH (or tick \"sbatch on this "
        "machine\")");
  }
  return problems + t.validate();
}

void TargetForm::browseIdentityFile() {
  auto* dialog = new QFileDialog(this, tr("Identity file (private key)"),
                                 QDir::home().filePath(QStringLiteral(".ssh")));
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->setFileMode(QFileDialog::ExistingFile);
  connect(dialog, &QFileDialog::fileSelected, identity_file_, &QLineEdit::setText);
  dialog->open();
}

void TargetForm::updateEnabled() {
  const bool over_ssh = !slurm_local_->isChecked();
  const QList<QWidget*> ssh_fields{
      host_, user_, port_, identity_file_, browse_, accept_new_host_key_, known_hosts_file_};
  for (QWidget* field : ssh_fields) field->setEnabled(over_ssh);
}

void TargetForm::showProblems() {
  const QStringList list = problems();
  problems_->setText(list.join(u'\n'));
  problems_->setVisible(!list.isEmpty());
}

}  // namespace moe::ui
