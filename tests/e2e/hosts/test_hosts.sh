#!/usr/bin/env bash
# Test hosts on one machine: N network namespaces NAME-h0 .. NAME-h<N-1>, each with one interface
# eth0 on a bridge of their own (in namespace NAME-br), an address 10.S.T.<i+1>/24 on a subnet
# taken from NAME, and loopback. Nothing reaches the machine's own network: the bridge joins only
# these hosts. Needs root (CI has it).
#   test_hosts.sh up NAME N            creates them (removing any left by an earlier, crashed run)
#   test_hosts.sh down NAME            kills every process in them and removes them
#   test_hosts.sh addr NAME I          prints host I's address
#   test_hosts.sh run NAME I CMD...    runs CMD on host I, with the hostname NAME-hI and the
#                                      machine's cgroup file systems
#   test_hosts.sh link NAME I up|down  brings host I's link up or cuts it
#   test_hosts.sh shape NAME I [rate R] [loss P] [delay D]
#                                      shapes host I's link both ways: rate (tc tbf, e.g. 1gbit),
#                                      loss of the packets it sends, in percent (nftables in the
#                                      bridge, as netem's loss on its egress would, e.g. 30),
#                                      delay (tc netem, e.g. 5ms, where the kernel has netem);
#                                      no arguments clear it
set -euo pipefail
export PATH="$PATH:/usr/sbin:/sbin"
action=${1:?usage: test_hosts.sh up|down|addr|run|link|shape NAME ...}
name=${2:?usage: test_hosts.sh $action NAME ...}
case "$name" in *[!a-z0-9-]* | ????????????????????*)
  echo "test_hosts: NAME must be at most 19 of a-z 0-9 -: $name" >&2; exit 2 ;;
esac

subnet() {  # 10.S.T from the name: tests that run at once get different subnets
  local h; h=$(cksum <<< "$name" | cut -d' ' -f1)
  echo "10.$(( 100 + h % 100 )).$(( (h / 100) % 256 ))"
}
addr() { echo "$(subnet).$(( $1 + 1 ))"; }
host() { echo "$name-h$1"; }

down() {
  local ns pids
  for ns in $(ip netns list | awk '{print $1}' | grep -E "^$name-(h[0-9]+|br)$" || true); do
    for _ in 1 2 3 4 5 6 7 8 9 10; do
      pids=$(ip netns pids "$ns" 2>/dev/null || true)
      [ -z "$pids" ] && break
      kill -9 $pids 2>/dev/null || true
      sleep 0.1
    done
    ip netns del "$ns" 2>/dev/null || true
    rm -rf "/etc/netns/$ns"
  done
}

case "$action" in
  up)
    count=${3:?usage: test_hosts.sh up NAME N}
    down
    ip netns add "$name-br"
    ip -n "$name-br" link add br0 type bridge
    ip -n "$name-br" link set br0 up
    for i in $(seq 0 $(( count - 1 ))); do
      h=$(host "$i")
      ip netns add "$h"
      ip -n "$h" link set lo up
      # The pair is made inside the namespaces, so no name is taken on the machine itself.
      ip -n "$name-br" link add "p$i" type veth peer name eth0 netns "$h"
      ip -n "$name-br" link set "p$i" master br0 up
      ip -n "$h" addr add "$(addr "$i")/24" dev eth0
      ip -n "$h" link set eth0 up
    done
    # Every host knows the others by name (as a cluster's DNS would, Slurm's node list names
    # them): ip netns exec mounts /etc/netns/<ns>/hosts over /etc/hosts.
    names="127.0.0.1 localhost"$'\n'
    for i in $(seq 0 $(( count - 1 ))); do names+="$(addr "$i") $(host "$i")"$'\n'; done
    for i in $(seq 0 $(( count - 1 ))); do
      mkdir -p "/etc/netns/$(host "$i")"
      printf %s "$names" > "/etc/netns/$(host "$i")/hosts"
    done
    # Up when every port of the bridge forwards (no STP: at once, but the kernel says so).
    for _ in $(seq 1 50); do
      forwarding=$(bridge -n "$name-br" link show | grep -c "state forwarding" || true)
      [ "$forwarding" = "$count" ] && exit 0
      sleep 0.1
    done
    echo "test_hosts: the bridge of $name does not forward" >&2; down; exit 1
    ;;
  down) down ;;
  addr) addr "${3:?host index}" ;;
  run)
    i=${3:?host index}; shift 3
    # ip netns exec mounts a sysfs of the namespace over /sys, which hides the machine's cgroup
    # file systems; a slurmd needs them: mount the same ones again, on the host only.
    export TEST_HOSTS_CGROUPS
    TEST_HOSTS_CGROUPS=$(awk '$2 ~ "^/sys/fs/cgroup" && $3 ~ "^(tmpfs|cgroup2?)$" {
      print $2, $3, $4 }' /proc/mounts)
    exec ip netns exec "$(host "$i")" unshare --uts sh -c '
      hostname "$0"
      printf "%s\n" "$TEST_HOSTS_CGROUPS" | while read -r dir type options; do
        [ -n "$dir" ] && mkdir -p "$dir" && mount -t "$type" -o "$options" "$type" "$dir"
      done
      unset TEST_HOSTS_CGROUPS
      exec "$@"' "$(host "$i")" "$@"
    ;;
  link) ip -n "$(host "${3:?host index}")" link set eth0 "${4:?up or down}" ;;
  shape)
    i=${3:?host index}; h=$(host "$i"); shift 3
    rate= loss= delay=
    while [ $# -gt 0 ]; do
      case "$1" in
        rate) rate=${2:?rate R}; shift 2 ;;
        loss) loss=${2:?loss P}; shift 2 ;;
        delay) delay=${2:?delay D}; shift 2 ;;
        *) echo "test_hosts: shape: unknown $1 (rate, loss, delay)" >&2; exit 2 ;;
      esac
    done
    # Both directions: the host's eth0 sends, its bridge port p<i> sends to it.
    for side in "$h eth0" "$name-br p$i"; do
      set -- $side
      tc -n "$1" qdisc del dev "$2" root 2>/dev/null || true
      if [ -n "$delay" ]; then
        tc -n "$1" qdisc add dev "$2" root netem delay "$delay" ${rate:+rate "$rate"} || {
          echo "test_hosts: this kernel has no netem qdisc (CONFIG_NET_SCH_NETEM): no delay" >&2
          exit 3
        }
      elif [ -n "$rate" ]; then
        # A burst of 1 ms of traffic at the rate (at least 64 KiB), 50 ms of queue.
        tc -n "$1" qdisc add dev "$2" root tbf rate "$rate" burst 256kb latency 50ms
      fi
    done
    # Loss: on the wire, in the bridge (no host's stack sees a local send error), of what host i
    # sends.
    ip netns exec "$name-br" nft delete table bridge "loss$i" 2>/dev/null || true
    if [ -n "$loss" ]; then
      ip netns exec "$name-br" nft -f - <<NFT
table bridge loss$i {
  chain forward {
    type filter hook forward priority 0; policy accept;
    iifname "p$i" numgen random mod 100 < $loss drop
  }
}
NFT
    fi
    ;;
  *) echo "test_hosts: unknown action $action" >&2; exit 2 ;;
esac
