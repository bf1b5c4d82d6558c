#include "base/remote/remote_scripts.h"

namespace moe::ui::remote_scripts {

const QString kPrepare = QStringLiteral(R"SH(set -e
root=$1
case $root in "~") root=$HOME ;; "~/"*) root=$HOME/${root#"~/"} ;; esac
mkdir -p -- "$root"
dir=$(cd -- "$root" && pwd -P)/$2
mkdir -- "$dir"
mkdir -- "$dir/remote"
cat > "$dir/remote/submitted.json"
printf '%s\n' "$dir"
)SH");

// The runner ignores INT and TERM itself (a trap, so that moe-train still gets the default
// action) and writes the exit status when moe-train ends; kSignalRun signals its children.
const QString kStartDetached = QStringLiteral(R"SH(dir=$1 setup=$2 prog=$3 nproc=$4 mode=$5
case $prog in "~/"*) prog=$HOME/${prog#"~/"} ;; esac
cd -- "$dir" || exit 2
rm -f remote/exit_status remote/pid
if ! (eval "$setup") > remote/setup.log 2>&1; then
  echo "the target's setup commands failed on $(hostname):" >&2
  tail -n 20 remote/setup.log >&2
  exit 3
fi
if ! (eval "$setup" > /dev/null 2>&1; command -v "$prog") > /dev/null 2>&1; then
  echo "moe-train not found at $prog on $(hostname)" >&2
  exit 3
fi
if [ "$nproc" -gt 1 ]; then
  set -- "$prog" launch --nproc-per-node "$nproc" -- run
else
  set -- "$prog" run
fi
if [ "$mode" = resume ]; then
  set -- "$@" --resume "$dir"
else
  set -- "$@" --config remote/submitted.json --run-dir "$dir"
fi
setsid sh -c 'echo $$ > remote/pid
trap : INT TERM
eval "$0" >> remote/setup.log 2>&1
"$@" > /dev/null 2> remote/stderr.log < /dev/null
echo $? > remote/exit_status.tmp && mv remote/exit_status.tmp remote/exit_status' \
  "$setup" "$@" < /dev/null > /dev/null 2>&1 &
i=0
while [ ! -s remote/pid ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
cat remote/pid
)SH");

// Slurm's commands may need the target's setup (`module load slurm`) on the login node too.
const QString kSubmitBatch = QStringLiteral(R"SH(cd -- "$1" || exit 2
rm -f remote/exit_status
cat > remote/job.sh || exit 2
eval "$2" > /dev/null 2>&1
exec sbatch --parsable remote/job.sh
)SH");

const QString kStatus = QStringLiteral(R"SH([ -n "$2" ] && eval "$3" > /dev/null 2>&1
cd -- "$1" 2> /dev/null || { echo missing; exit 0; }
# The queue before the files: a batch script writes the exit status before it ends, so once the
# queue says the job ended, the file checks below see it (asked after them, a job ending in
# between read as "ended without an exit status").
q= c=
if [ -n "$2" ]; then
  q=$(squeue -h -j "$2" -o '%T|%r' 2> /dev/null | head -n 1)
  [ -n "$q" ] || c=$(scontrol -o show job "$2" 2> /dev/null | head -n 1)
fi
if [ -f remote/exit_status ]; then echo "exited $(cat remote/exit_status)"
elif [ ! -s remote/pid ]; then echo none
elif kill -0 "$(cat remote/pid)" 2> /dev/null; then echo running
elif [ -f remote/exit_status ]; then echo "exited $(cat remote/exit_status)"
else echo gone
fi
echo "metrics $(wc -c < metrics.jsonl 2> /dev/null || echo 0)"
echo "free $(df -Pk . | awk 'NR == 2 { print $4 }')"
set -- "$@" checkpoints/step-*/state.json
[ -e "$4" ] && echo checkpoint
[ -n "$q" ] && echo "queue $q"
[ -n "$c" ] && echo "scontrol $c"
echo ---
tail -n 40 remote/stderr.log 2> /dev/null
exit 0
)SH");

// Whole lines only, by byte offset: a line still being written, or one the engine cuts back
// after a full disk (AppendFile truncates to the last whole line), is never sent, so the offset
// stays on a line boundary that a shrink cannot pass (tail -F would re-send the whole file). A
// write to a closed connection ends the loop. So does the end of its stdin, which the app holds
// open while it follows (RemoteChannel::follow): the channel closed, the connection or the app
// gone. A file that no longer grows would else keep it polling forever, since ssh's shared
// connection (ControlMaster) and its sshd session outlive the channel. An asynchronous list's
// stdin is /dev/null, hence fd 3.
const QString kFollow = QStringLiteral(R"SH(file=$1 offset=$2
exec 3<&0
{ cat <&3 > /dev/null; kill $$; } > /dev/null 2>&1 &
watcher=$!
exec 3<&-
trap 'kill "$watcher" 2> /dev/null' EXIT
window() { tail -c +"$((offset + 1))" -- "$file" | head -c "$1"; }
while :; do
  size=0
  [ -f "$file" ] && size=$(wc -c < "$file")
  if [ "$size" -gt "$offset" ]; then
    count=$((size - offset))
    if [ -n "$(tail -c +"$size" -- "$file" | head -c 1)" ]; then
      count=$((count - $(window "$count" | tail -n 1 | wc -c)))
    fi
    if [ "$count" -gt 0 ]; then
      window "$count" || exit 0
      offset=$((offset + count))
    fi
  fi
  sleep 0.2
done
)SH");

const QString kRead = QStringLiteral(R"SH([ -f "$1" ] || exit 0
exec tail -c +"$(($2 + 1))" -- "$1"
)SH");

const QString kSignalRun = QStringLiteral(R"SH(cd -- "$1" || exit 2
[ -s remote/pid ] || { echo "no runner pid in $1/remote" >&2; exit 2; }
pkill -"$2" -P "$(cat remote/pid)"
exit 0
)SH");

// A pending job has no process to signal, and scancel --signal keeps retrying on one for minutes:
// it is cancelled outright.
const QString kCancelJob = QStringLiteral(R"SH(eval "$3" > /dev/null 2>&1
if [ -n "$2" ] && [ "$(squeue -h -j "$1" -o %T 2> /dev/null)" != PENDING ]; then
  exec scancel --signal="$2" "$1"
fi
exec scancel "$1"
)SH");

}  // namespace moe::ui::remote_scripts
