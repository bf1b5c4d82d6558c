#include "targets/target_form.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>

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

  // Two columns (how to reach the machine | what runs there), the batch settings under both.
  auto* layout = new QGridLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(identity, 0, 0);
  layout->addWidget(buildConnection(), 1, 0);
  layout->addWidget(buildRemoteSide(), 1, 1);
  layout->addWidget(buildSlurm(), 2, 0, 1, 2);
  layout->addWidget(problems_, 3, 0, 1, 2);
  layout->setRowStretch(4, 1);
  layout->setColumnStretch(0, 1);
  layout->setColumnStretch(1, 1);
  connect(this, &TargetForm::edited, this, &TargetForm::showProblems);
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

void TargetForm::setSlurmLocal(bool local) {
  slurm_local_->setChecked(local);
}

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
