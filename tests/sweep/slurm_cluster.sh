#!/bin/bash
# A one-node Slurm cluster on localhost for the sweep tests (tests/sweep.cmake), started from
# nothing in a scratch folder: a munge daemon with a fresh key, slurmctld and slurmd with a
# generated slurm.conf on free ports. Nothing of the machine's own Slurm or munge setup is used
# or touched.
#
#   bash slurm_cluster.sh start WORKDIR   prints the SLURM_CONF to export; exit 77 (with the
#                                       reason on stderr) when the cluster cannot start
#   bash slurm_cluster.sh stop WORKDIR    stops the daemons that `start` started (by their pids)
set -u
command=$1
work=$2

# The pid of daemon $1 that `start` started, if it still runs: the pid file's process, and only
# when it is that daemon (a stale pid file may name a reused pid) and not a zombie.
daemon_pid() {
    pid=$(cat "$work/run/$1.pid" 2>/dev/null) || return 1
    [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$1" ] &&
        ! grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null && echo "$pid"
}

stop() {
    for name in slurmd slurmctld munged; do
        pid=$(daemon_pid "$name") && kill "$pid" 2>/dev/null
    done
    # Wait for them to go, so that the next start finds its ports free.
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        alive=0
        for name in slurmd slurmctld munged; do
            daemon_pid "$name" >/dev/null && alive=1
        done
        [ "$alive" = 0 ] && break
        sleep 0.5
    done
    rm -f "$work/run/"*.pid
}

skip() {
    echo "SKIP: $*" >&2
    for log in "$work/log/"*.log; do
        [ -f "$log" ] && { echo "--- $log" >&2; tail -n 5 "$log" >&2; }
    done
    stop
    exit 77
}

# A TCP port nobody listens on, from a range unlikely to hold services.
free_port() {
    port=$1
    while [ "$port" -lt 65000 ]; do
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$port"
            return
        fi
        port=$((port + 1))
    done
}

start() {
    for tool in munged slurmctld slurmd sbatch scontrol sinfo; do
        command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] ||
            skip "Slurm is not installed ($tool is missing; Debian: apt-get install slurm-wlm)"
    done
    [ "$(id -u)" = 0 ] || skip "slurmd must run as root to start jobs as their user; run the test as root"
    PATH=$PATH:/usr/sbin
    stop # daemons of an earlier start that was killed before it could stop them
    rm -rf "$work"
    mkdir -p "$work/munge" "$work/run" "$work/log" "$work/state" "$work/spool" ||
        skip "cannot create $work"
    chmod 700 "$work/munge"
    dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 2>/dev/null
    chmod 400 "$work/munge/munge.key"
    socket=$work/munge/munge.socket
    munged --force --key-file="$work/munge/munge.key" --socket="$socket" \
        --pid-file="$work/run/munged.pid" --log-file="$work/log/munged.log" \
        --seed-file="$work/munge/munge.seed" >/dev/null 2>&1 || skip "munged does not start"
    host=$(hostname -s)
    # At most the machine's cores (slurmd drains a node that claims more than it has), at most 2.
    cpus=$(nproc 2>/dev/null || echo 1)
    [ "$cpus" -gt 2 ] && cpus=2
    ctld_port=$(free_port 26817)
    slurmd_port=$(free_port $((ctld_port + 1)))
    cat >"$work/slurm.conf" <<EOF
ClusterName=gmssweep
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SchedulerParameters=sched_interval=1,batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=100 State=UNKNOWN
PartitionName=sweep Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
    export SLURM_CONF=$work/slurm.conf
    slurmctld -i -c >/dev/null 2>&1 || skip "slurmctld does not start"
    slurmd >/dev/null 2>&1 || skip "slurmd does not start"
    for _ in $(seq 1 40); do
        state=$(sinfo -h -N -o '%t' 2>/dev/null | head -n 1)
        case "$state" in
        idle*) echo "$SLURM_CONF"; return 0 ;;
        esac
        sleep 0.5
    done
    skip "the Slurm node did not become idle within 20 s (state '${state:-none}')"
}

case "$command" in
start) start ;;
stop) stop ;;
*) echo "usage: slurm_cluster.sh start|stop WORKDIR" >&2; exit 2 ;;
esac
