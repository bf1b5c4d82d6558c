// The ssh client's command line for a target, and what its failures mean. Every connection uses
// BatchMode (keys and agents only: a host that wants a password fails at once instead of asking),
// checks the host key (StrictHostKeyChecking yes, or accept-new when the target allows new keys),
// and shares one master connection per destination (ControlMaster=auto, ControlPersist), so the
// many short commands of a run cost one handshake.
#pragma once

#include <QString>
#include <QStringList>

#include "base/remote/target.h"

namespace moe::ui {

// The -o options and flags for `ssh`.
QStringList sshOptions(const SshEndpoint& endpoint);
// ssh OPTIONS DESTINATION REMOTE_LINE (the line comes from remoteScriptLine()).
QStringList sshArguments(const SshEndpoint& endpoint, const QString& remote_line);
// Where the shared master connections' sockets live (a private directory of this user).
QString sshControlDirectory();
// base/name when it is (or is made) a real directory of this user that only this user can use
// (no link, owner checked, mode 0700); otherwise, as another user may have placed it there to
// read the sockets, a fresh private directory base/name-XXXXXX. Empty when neither can be made.
QString privateDirectory(const QString& base, const QString& name);

// ssh exits 255 when it fails itself; then its stderr says why. A sentence for people naming the
// host ("... password ...", "... host key ...", "... cannot be reached ..."); empty when
// `exit_code` is not ssh's own failure.
QString sshFailureMessage(const SshEndpoint& endpoint, int exit_code, const QString& ssh_stderr);

}  // namespace moe::ui
