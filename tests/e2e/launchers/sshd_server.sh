#!/usr/bin/env bash
# An OpenSSH server of its own in DIR, for the remote launch tests: its own host key, client key,
# authorized_keys and known_hosts, listening on 127.0.0.1 at a free port, for the current user.
#   sshd_server.sh start DIR [--password-only]   prints PORT= IDENTITY= KNOWN_HOSTS= USER= lines
#   sshd_server.sh stop DIR
# --password-only turns public keys off, so a BatchMode client fails as on a password-only host.
set -euo pipefail
export PATH="$PATH:/usr/sbin:/sbin"  # sshd lives in sbin, which a user's PATH may lack
action=${1:?usage: sshd_server.sh start DIR [--password-only] | stop DIR}
dir=$(realpath -m "${2:?usage: sshd_server.sh start DIR [--password-only] | stop DIR}")
password_only=no
[ "${3:-}" = --password-only ] && password_only=yes

# The listener, and the sessions it forked (by parent pid, from /proc: no procps needed), so that
# no ssh master connection outlives the server the test stopped.
stop() {
  [ -f "$dir/sshd.pid" ] || return 0
  local pid line rest stat
  pid=$(cat "$dir/sshd.pid")
  for stat in /proc/[0-9]*/stat; do
    read -r line 2>/dev/null < "$stat" || continue
    rest=${line##*) }  # after "PID (COMM) ": STATE PPID ...
    set -- $rest
    [ "$2" = "$pid" ] && kill "${stat//[^0-9]/}" 2>/dev/null
  done
  kill "$pid" 2>/dev/null || true
  rm -f "$dir/sshd.pid"
}

if [ "$action" = stop ]; then stop; exit 0; fi
[ "$action" = start ] || { echo "sshd_server: unknown action '$action'" >&2; exit 2; }

sshd=$(command -v sshd || true)
[ -n "$sshd" ] || { echo "sshd_server: sshd not found (openssh-server)" >&2; exit 1; }
sshd=$(realpath "$sshd")  # sshd re-executes itself and insists on an absolute path

# sshd's privilege separation directory; only root can create it, and only root needs it.
if [ "$(id -u)" -eq 0 ]; then mkdir -p /run/sshd && chmod 755 /run/sshd; fi

mkdir -p "$dir"
stop
rm -f "$dir"/host_key* "$dir"/client_key*
ssh-keygen -q -t ed25519 -N '' -C moe-e2e-host -f "$dir/host_key"
ssh-keygen -q -t ed25519 -N '' -C moe-e2e-client -f "$dir/client_key"
cp "$dir/client_key.pub" "$dir/authorized_keys"
chmod 600 "$dir/authorized_keys"

# Something listens when a connection succeeds (bash's /dev/tcp: no ss or netstat needed).
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# A port from the directory's name, then the next free one, so concurrent tests do not meet. Below
# the kernel's ephemeral range (32768 up): a client socket there is invisible to port_in_use but
# makes sshd's bind fail. The Slurm test cluster takes 20000-32767.
next_free_port() {
  local p=$1
  for _ in $(seq 1 200); do
    port_in_use "$p" || { echo "$p"; return 0; }
    p=$(( p + 1 ))
  done
  echo "sshd_server: no free port found near $1" >&2
  return 1
}
port=$(next_free_port $(( 10000 + $(cksum <<< "$dir" | cut -d' ' -f1) % 10000 )))

pubkey=yes password=no
[ "$password_only" = yes ] && pubkey=no password=yes
write_config() {
cat > "$dir/sshd_config" <<CONF
ListenAddress 127.0.0.1
Port $1
HostKey $dir/host_key
PidFile $dir/sshd.pid
AuthorizedKeysFile $dir/authorized_keys
UsePAM no
StrictModes no
PubkeyAuthentication $pubkey
PasswordAuthentication $password
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
LogLevel VERBOSE
# No SFTP subsystem, as on hosts that turn it off: nothing the app does needs one (RemoteFetch
# copies with tar over the run's ssh connection).
CONF
echo "[127.0.0.1]:$1 $(cut -d' ' -f1,2 "$dir/host_key.pub")" > "$dir/known_hosts"
}

# Starts sshd on port $1 and waits until it accepts; fails at once when it could not bind (another
# process took the port after the check), so that the caller tries the next one.
start_on() {
  write_config "$1"
  : > "$dir/sshd.log"
  "$sshd" -f "$dir/sshd_config" -E "$dir/sshd.log"
  for _ in $(seq 1 150); do
    port_in_use "$1" && return 0
    grep -q "Cannot bind any address" "$dir/sshd.log" && return 1
    sleep 0.1
  done
  return 1
}

for attempt in 1 2 3; do
  if start_on "$port"; then
    echo "PORT=$port"
    echo "IDENTITY=$dir/client_key"
    echo "KNOWN_HOSTS=$dir/known_hosts"
    echo "USER=$(id -un)"
    exit 0
  fi
  echo "sshd_server: sshd did not accept connections on port $port (attempt $attempt): $(tail -n 3 "$dir/sshd.log" | tr '\n' ' ')" >&2
  stop
  port=$(next_free_port $(( port + 1 ))) || break
done
echo "sshd_server: sshd did not start; log in $dir/sshd.log" >&2
exit 1
