// ReplayServer: one `moe-train replay --serve` process (docs/PROTOCOL.md, "moe-train replay")
// kept alive while a What-if view is open, so a change of setting costs one routing of the
// captured tokens, not a start of the engine and a read of the file.
//
// Requests go under a slot ("captured", "what-if"). One request is in flight at a time; while it
// is, a newer setting for a slot replaces the older one waiting in that slot, so dragging a slider
// sends the setting where the slider is when the server is free, never every step of the drag.
// Answers are matched to their request by id. A server that exits or crashes, or never starts,
// is reported once with the end of its stderr; stop() (or deleting this) ends it.
#pragma once

#include <QByteArray>
#include <QElapsedTimer>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

#include "base/whatif/replay_answer.h"
#include "base/whatif/routing_setting.h"

namespace moe::ui {

class ReplayServer : public QObject {
  Q_OBJECT

 public:
  struct Launch {
    QString program;      // moe-train; empty: defaultTrainProgram()
    QString config_file;  // --config: model.dim and the moe section
    QString tensors;      // --tensors: `input` and the layer's weights
    QString prefix;       // --prefix of the weights' names, when not empty
  };
  enum class State { NotStarted, Starting, Ready, Failed, Stopped };

  explicit ReplayServer(Launch launch, QObject* parent = nullptr);
  ~ReplayServer() override;

  void start();
  // Asks for the routing under `setting` (see the top of this file). Ignored once Failed or
  // Stopped; held until Ready.
  void request(const QString& slot, const RoutingSetting& setting);
  // Closes the server's stdin, on which it ends; killed if it has not within a few seconds.
  void stop();

  State state() const { return state_; }
  QString errorText() const { return error_; }
  QStringList arguments() const;
  qint64 processId() const { return process_.processId(); }
  bool busy() const { return in_flight_.has_value(); }
  // From the ready line.
  int64_t experts() const { return experts_; }
  int64_t tokens() const { return tokens_; }
  int64_t dim() const { return dim_; }

 signals:
  void ready();
  // `round_trip_ms`: from writing the request to reading its answer.
  void answered(const QString& slot, const moe::ui::RoutingSetting& setting,
                const moe::ui::ReplayAnswer& answer, double round_trip_ms);
  // The server refused this setting (e.g. top_k above the experts) and goes on.
  void rejected(const QString& slot, const moe::ui::RoutingSetting& setting, const QString& error);
  // The server did not start, or ended while it was wanted: once, with its stderr's end.
  void failed(const QString& error);

 private:
  struct Pending {
    QString slot;
    RoutingSetting setting;
  };
  struct InFlight {
    int64_t id = 0;
    Pending request;
    QElapsedTimer sent;
  };

  void readAnswers();
  void take(const QByteArray& line);
  void sendNext();
  void fail(const QString& error);
  QString stderrTail() const;

  Launch launch_;
  QProcess process_;
  State state_ = State::NotStarted;
  QString error_;
  QByteArray stderr_;             // its last kStderrBytes
  std::vector<Pending> waiting_;  // at most one per slot, in the order first asked
  std::optional<InFlight> in_flight_;
  int64_t next_id_ = 1;
  int64_t experts_ = 0, tokens_ = 0, dim_ = 0;
};

}  // namespace moe::ui
