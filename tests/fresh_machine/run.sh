#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317  # '$x' is for the chroot's shell; cleanup runs from a trap
# The fresh-machine check: does the README hold on a machine that has nothing but what the
# README asks for? (docs/development.md, "The fresh-machine check")
#
# In a minimal Debian 12 root (debootstrap --variant=minbase, from the mirror the host's apt
# uses) with only `python3 python3-venv make git` (+ ca-certificates) installed, as a
# normal user in a clean login-like environment, it runs:
#   demo   `make demo` in a fresh clone, then `du -sm .venv` (limit: 200 MB)
#   steps  the README's "## Three steps" block, as one `bash -e` script, as another new
#          user (a fresh HOME) in a fresh clone of their own
#   test   `make test` in the clone of `demo` (pytest with -rfEs, so skips are summarized)
# and prints each step's status and seconds, the .venv size, pytest's final line and the
# skip reasons with counts. Exits 0 only if every step run passed and .venv is in limit.
#
# It tests what is COMMITTED in the checkout (a `git clone`, as a new user's clone would
# be), not the working tree, unless --working-tree is given.
#
# usage: sudo tests/fresh_machine/run.sh [options] [CHECKOUT]   (CHECKOUT: default this repo)
#   --only LIST      demo, steps and/or test, comma-separated (default: all three)
#   --keep           keep the root afterwards (WORKDIR/root) for inspection
#   --workdir DIR    where the root and the logs go (default: a new /var/tmp/actframes-fresh.*)
#   --working-tree   include uncommitted changes: the clone's files are replaced by the
#                    checkout's working tree (tracked and untracked, minus .gitignore'd)
#   --rebuild-base   debootstrap again instead of using the cached base root
# environment:
#   ACTFRAMES_FRESH_CACHE   cache of the base root tarball and the prerequisites' .debs
#                           (default: ${XDG_CACHE_HOME:-~/.cache}/actframes-fresh-machine)
#   ACTFRAMES_FRESH_MIRROR  Debian mirror (default: the host apt's bookworm mirror)
#   ACTFRAMES_FRESH_BASE_MAX_AGE_DAYS  rebuild the cached base when older (default: 14)
#   ACTFRAMES_FRESH_TIMEOUT_DEMO / _STEPS / _TEST  seconds per step (default 1800/1800/5400)
set -euo pipefail
export LC_ALL=C

SELF=$(readlink -f "${BASH_SOURCE[0]}")
HERE=$(dirname "$SELF")

# Run in a private mount namespace where possible: the chroot's mounts are then never
# visible outside and vanish with the script even if it is killed -9. The EXIT trap
# below unmounts them anyway.
if [[ $EUID -eq 0 && -z ${ACTFRAMES_FRESH_IN_NS:-} ]] \
        && unshare --mount --propagation private true 2>/dev/null; then
    export ACTFRAMES_FRESH_IN_NS=1
    exec unshare --mount --propagation private -- "$BASH" "$SELF" "$@"
fi
unset ACTFRAMES_FRESH_IN_NS

SUITE=bookworm
# The README's prerequisites and nothing else (no gcc, no python3-dev). ca-certificates:
# pip reaches PyPI over https and must verify its certificate against the system's CA
# store; minbase lacks it, while a user's `apt install python3 git` pulls it in as a
# recommendation of python3.11 and git (we install with --no-install-recommends, so it is
# named here instead).
PREREQS=(python3 python3-venv make git ca-certificates)
VENV_LIMIT_MB=200
CLEAN_PATH=/usr/local/bin:/usr/bin:/bin

say() { printf '\n==> %s\n' "$*"; }
warn() { printf 'fresh-machine: warning: %s\n' "$*" >&2; }
die() { printf 'fresh-machine: error: %s\n' "$*" >&2; exit 2; }
usage() { sed -n '/^# usage:/,/^set -euo/p' "$SELF" | sed '$d; s/^# \{0,1\}//'; }
now() { printf '%s' "$EPOCHREALTIME"; }
secs_since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }'; }

# --- options -------------------------------------------------------------------------
KEEP=0 WORKING_TREE=0 REBUILD=0 ONLY=demo,steps,test WORKDIR="" SRC=""
while (($#)); do
    case $1 in
        --keep) KEEP=1 ;;
        --working-tree) WORKING_TREE=1 ;;
        --rebuild-base) REBUILD=1 ;;
        --only) [[ $# -ge 2 ]] || die "--only needs demo, steps or test"; ONLY=$2; shift ;;
        --only=*) ONLY=${1#*=} ;;
        --workdir) [[ $# -ge 2 ]] || die "--workdir needs a directory"; WORKDIR=$2; shift ;;
        --workdir=*) WORKDIR=${1#*=} ;;
        -h | --help) usage; exit 0 ;;
        -*) die "unknown option $1 (see --help)" ;;
        *) [[ -z $SRC ]] || die "one checkout only (got '$SRC' and '$1')"; SRC=$1 ;;
    esac
    shift
done
declare -A WANT=()
IFS=, read -r -a only_list <<<"$ONLY"
for s in "${only_list[@]}"; do
    case $s in demo | steps | test) WANT[$s]=1 ;; *) die "--only: '$s' is not demo, steps or test" ;; esac
done
((${#WANT[@]})) || die "--only: nothing to run"

[[ $EUID -eq 0 ]] || die "run as root (debootstrap, chroot and mount need it): sudo $0 $*"

SRC=${SRC:-$HERE}
SRC=$(git -C "$SRC" rev-parse --show-toplevel 2>/dev/null) \
    || die "'${SRC}' is not inside a git checkout"
CACHE=${ACTFRAMES_FRESH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/actframes-fresh-machine}
MAX_AGE_DAYS=${ACTFRAMES_FRESH_BASE_MAX_AGE_DAYS:-14}
declare -A TIMEOUT=(
    [demo]=${ACTFRAMES_FRESH_TIMEOUT_DEMO:-1800}
    [steps]=${ACTFRAMES_FRESH_TIMEOUT_STEPS:-1800}
    [test]=${ACTFRAMES_FRESH_TIMEOUT_TEST:-5400}
)

# --- cleanup: kill what runs in the root, unmount, remove the root (unless --keep) -------
ROOT="" BUILD_TMP=""
mounts_under() {  # the mount points at or below $1, deepest first
    awk -v d="$1" '$2 == d || index($2, d "/") == 1 { print $2 }' /proc/self/mounts | sort -r
}
unmount_under() {
    local m
    for m in $(mounts_under "$1"); do umount "$m" 2>/dev/null || umount -l "$m" || true; done
}
kill_in_root() {  # processes whose root is $1: ours, started in the chroot, still running
    local p pids
    for _ in 1 2 3; do
        pids=()
        for p in /proc/[0-9]*; do
            [[ $(readlink "$p/root" 2>/dev/null) == "$1" ]] && pids+=("${p#/proc/}")
        done
        ((${#pids[@]})) || return 0
        echo "fresh-machine: stopping ${#pids[@]} process(es) left in the root: ${pids[*]}" >&2
        kill -KILL "${pids[@]}" 2>/dev/null || true
        sleep 1
    done
}
remove_tree() {  # only once nothing is mounted below it
    [[ -e $1 ]] || return 0
    if [[ -n $(mounts_under "$1") ]]; then
        warn "not removing $1: still mounted: $(mounts_under "$1" | tr '\n' ' ')"
        return 1
    fi
    rm -rf --one-file-system "$1"
}
cleanup() {
    local rc=$?
    set +e
    trap - EXIT INT TERM
    if [[ -n $BUILD_TMP ]]; then
        kill_in_root "$BUILD_TMP"; unmount_under "$BUILD_TMP"; remove_tree "$BUILD_TMP"
    fi
    if [[ -n $ROOT && -d $ROOT ]]; then
        kill_in_root "$ROOT"
        unmount_under "$ROOT"
        if ((KEEP)); then
            echo "fresh-machine: root kept at $ROOT (unmounted; the clones are in $ROOT/home)"
        else
            remove_tree "$ROOT"
        fi
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- the host's Debian mirror ----------------------------------------------------------
host_apt_entries() {  # "URI SUITE" for each enabled deb entry of the host's apt sources
    local f
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [[ -f $f ]] || continue
        awk '/^[[:space:]]*deb[[:space:]]/ {
                sub(/^[[:space:]]*deb[[:space:]]+/, "")
                sub(/^\[[^]]*\][[:space:]]*/, "")
                print $1, $2 }' "$f"
    done
    for f in /etc/apt/sources.list.d/*.sources; do
        [[ -f $f ]] || continue
        awk 'function flush(   n, m, i, j, u, s) {
                 if (types ~ /(^|[[:space:]])deb([[:space:]]|$)/ && enabled !~ /^(no|false)$/) {
                     n = split(uris, u, /[[:space:]]+/); m = split(suites, s, /[[:space:]]+/)
                     for (i = 1; i <= n; i++) for (j = 1; j <= m; j++)
                         if (u[i] != "" && s[j] != "") print u[i], s[j]
                 }
                 types = uris = suites = field = ""; enabled = "yes"
             }
             BEGIN { enabled = "yes" }
             /^#/ { next }
             /^[[:space:]]*$/ { flush(); next }
             /^[[:space:]]/ { if (field == "uris") uris = uris " " $0
                              else if (field == "suites") suites = suites " " $0
                              else if (field == "types") types = types " " $0
                              next }
             /^[A-Za-z0-9-]+:/ {
                 k = tolower(substr($0, 1, index($0, ":") - 1))
                 v = substr($0, index($0, ":") + 1); gsub(/^[[:space:]]+|[[:space:]]+$/, "", v)
                 field = k
                 if (k == "types") types = v; else if (k == "uris") uris = v
                 else if (k == "suites") suites = v; else if (k == "enabled") enabled = tolower(v)
             }
             END { flush() }' "$f"
    done
}
APT_ENTRIES=$(host_apt_entries | awk -v s="$SUITE" '
    $1 ~ /^https?:\/\// && ($2 == s || $2 == s "-updates" || $2 == s "-security") {
        sub(/\/+$/, "", $1); if (!seen[$1 " " $2]++) print $1, $2 }')
if [[ -n ${ACTFRAMES_FRESH_MIRROR:-} ]]; then
    MIRROR=${ACTFRAMES_FRESH_MIRROR%/}
    APT_ENTRIES=$(printf '%s %s\n%s %s-updates\n' "$MIRROR" "$SUITE" "$MIRROR" "$SUITE";
                  awk -v s="$SUITE-security" '$2 == s' <<<"$APT_ENTRIES")
else
    MIRROR=$(awk -v s="$SUITE" '$2 == s { print $1; exit }' <<<"$APT_ENTRIES")
    [[ -n $MIRROR ]] || die "no Debian '$SUITE' mirror in /etc/apt/sources.list or
  /etc/apt/sources.list.d/*.{list,sources}; name one: ACTFRAMES_FRESH_MIRROR=http://.../debian"
fi
ARCH=$(dpkg --print-architecture 2>/dev/null || echo amd64)

# --- work directory ------------------------------------------------------------------
if [[ -z $WORKDIR ]]; then
    WORKDIR=$(mktemp -d /var/tmp/actframes-fresh.XXXXXX)
else
    mkdir -p "$WORKDIR"
fi
WORKDIR=$(readlink -f "$WORKDIR")
LOGS=$WORKDIR/logs
mkdir -p "$LOGS" "$CACHE"
if [[ -e $WORKDIR/root ]]; then
    echo "fresh-machine: removing the root of an earlier run in $WORKDIR/root"
    kill_in_root "$WORKDIR/root"; unmount_under "$WORKDIR/root"
    remove_tree "$WORKDIR/root" || die "cannot remove $WORKDIR/root"
fi
for d in "$WORKDIR" "$CACHE"; do
    avail=$(df -Pm "$d" | awk 'NR == 2 { print $4 }')
    ((avail >= 3072)) || warn "$d has ${avail} MB free; a full run needs about 3 GB"
done

# Phase bookkeeping for the summary.
PHASES=()
declare -A P_STATUS=() P_SECS=() P_NOTE=()
record() { PHASES+=("$1"); P_STATUS[$1]=$2; P_SECS[$1]=$3; P_NOTE[$1]=${4:-}; }

COMMIT=$(git -C "$SRC" log -1 --format='%h %s' | cut -c1-90)
DIRTY=$(git -C "$SRC" status --porcelain | wc -l)
say "fresh-machine check of $SRC"
echo "    testing:  $( ((WORKING_TREE)) && echo "the working tree (on $COMMIT)" || echo "committed HEAD $COMMIT")"
((WORKING_TREE || DIRTY == 0)) || echo "    note:     $DIRTY uncommitted change(s) in the checkout are NOT tested (--working-tree includes them)"
echo "    steps:    ${ONLY}"
echo "    mirror:   $MIRROR ($SUITE, $ARCH)"
echo "    workdir:  $WORKDIR (logs in $LOGS)"
echo "    cache:    $CACHE"

# --- 1. the base root: debootstrap --variant=minbase, cached as a tarball -----------------
key=$(printf '%s' "$MIRROR" | md5sum | cut -c1-8)
BASE=$CACHE/base-$SUITE-$ARCH-minbase-$key.tar.gz
t0=$(now)
if ((REBUILD)) || [[ ! -s $BASE ]] || [[ -n $(find "$BASE" -mtime +"$MAX_AGE_DAYS" 2>/dev/null) ]]; then
    if ! command -v debootstrap >/dev/null; then
        say "installing debootstrap on the host (apt-get)"
        if ! { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap; } \
                >"$LOGS/host-apt.log" 2>&1; then
            tail -n 20 "$LOGS/host-apt.log"
            die "could not install debootstrap (log: $LOGS/host-apt.log)"
        fi
    fi
    [[ -f /usr/share/keyrings/debian-archive-keyring.gpg ]] \
        || DEBIAN_FRONTEND=noninteractive apt-get install -y -q debian-archive-keyring \
            >>"$LOGS/host-apt.log" 2>&1 || die "no Debian archive keyring for debootstrap"
    say "debootstrap --variant=minbase $SUITE from $MIRROR (log: $LOGS/debootstrap.log)"
    BUILD_TMP=$(mktemp -d "$CACHE/build.XXXXXX")
    if ! debootstrap --variant=minbase --arch="$ARCH" "$SUITE" "$BUILD_TMP" "$MIRROR" \
            >"$LOGS/debootstrap.log" 2>&1; then
        tail -n 25 "$LOGS/debootstrap.log"
        die "debootstrap failed (log: $LOGS/debootstrap.log)"
    fi
    unmount_under "$BUILD_TMP"
    chmod 755 "$BUILD_TMP"   # mktemp made it 0700; the tarball's "." becomes the root's /
    rm -f "$BUILD_TMP"/var/cache/apt/archives/*.deb   # as `apt-get clean` would
    tar --numeric-owner -C "$BUILD_TMP" -czf "$BASE.tmp" . && mv -f "$BASE.tmp" "$BASE"
    remove_tree "$BUILD_TMP" && BUILD_TMP=""
    record base ok "$(secs_since "$t0")" "debootstrap, cached as $(du -m "$BASE" | cut -f1) MB tarball"
else
    echo "    base:     cached $BASE ($(( ($(date +%s) - $(stat -c %Y "$BASE")) / 86400 )) days old; --rebuild-base renews it)"
fi
ROOT=$WORKDIR/root
mkdir -p "$ROOT"
tar --numeric-owner -C "$ROOT" -xpzf "$BASE"
chmod 755 "$ROOT"
[[ ${P_STATUS[base]:-} ]] || record base ok "$(secs_since "$t0")" "pristine copy of the cached minbase root"

# --- 2. what a chroot needs: /proc, a minimal /dev with devpts (no /dev/shm), /sys -------
mount -t proc -o nosuid,nodev,noexec proc "$ROOT/proc"
mount -t sysfs -o ro,nosuid,nodev,noexec sysfs "$ROOT/sys" 2>/dev/null \
    || warn "could not mount /sys in the root (continuing without it)"
mount -t tmpfs -o nosuid,mode=755,size=1m devtmp "$ROOT/dev"
for node in null:1:3 zero:1:5 full:1:7 random:1:8 urandom:1:9 tty:5:0; do
    IFS=: read -r name major minor <<<"$node"
    if ! mknod -m 666 "$ROOT/dev/$name" c "$major" "$minor" 2>/dev/null; then
        touch "$ROOT/dev/$name" && mount --bind "/dev/$name" "$ROOT/dev/$name"
    fi
done
mkdir -p "$ROOT/dev/pts"
mount -t devpts -o newinstance,ptmxmode=0666,mode=620,gid=5 devpts "$ROOT/dev/pts"
ln -s pts/ptmx "$ROOT/dev/ptmx"
ln -s /proc/self/fd "$ROOT/dev/fd"
ln -s /proc/self/fd/0 "$ROOT/dev/stdin"
ln -s /proc/self/fd/1 "$ROOT/dev/stdout"
ln -s /proc/self/fd/2 "$ROOT/dev/stderr"
# /dev/shm is left out on purpose: code must cope with a system where it is missing.
cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf.fresh" && mv -f "$ROOT/etc/resolv.conf.fresh" "$ROOT/etc/resolv.conf"

in_root() {  # a command as root in the chroot, clean environment
    chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
        DEBIAN_FRONTEND=noninteractive "$@" </dev/null
}

# --- 3. the README's prerequisites ----------------------------------------------------
say "apt-get install ${PREREQS[*]} (log: $LOGS/prerequisites.log)"
t0=$(now)
awk '{ print "deb", $1, $2, "main" }' <<<"$APT_ENTRIES" >"$ROOT/etc/apt/sources.list"
rm -f "$ROOT"/etc/apt/sources.list.d/*
# .debs of earlier runs (apt checks each against the index; stale ones are downloaded anew)
cp "$CACHE"/debs/*.deb "$ROOT/var/cache/apt/archives/" 2>/dev/null || true
if ! { in_root apt-get update -q && in_root apt-get install -y -q --no-install-recommends "${PREREQS[@]}"; } \
        >"$LOGS/prerequisites.log" 2>&1; then
    tail -n 25 "$LOGS/prerequisites.log"
    record prerequisites FAIL "$(secs_since "$t0")"
    die "installing the prerequisites failed (log: $LOGS/prerequisites.log)"
fi
# A TLS-intercepting proxy between this host and PyPI, whose CA the host trusts (added
# under /usr/local/share/ca-certificates), must be trusted in the root too or pip cannot
# reach PyPI: the root gets the host's local CAs, /etc/pip.conf points pip at the system
# store (pip's own certifi bundle lacks them) and /etc/uv/uv.toml tells uv (which the
# README's uv and pipx lines use) to use the system's certificates, as an admin sets up
# such a machine. A host without local CAs adds nothing: the root stays as Debian makes it.
LOCAL_CA_NOTE=""
mapfile -t local_cas < <(find /usr/local/share/ca-certificates -name '*.crt' 2>/dev/null)
if ((${#local_cas[@]})); then
    cp -r /usr/local/share/ca-certificates/. "$ROOT/usr/local/share/ca-certificates/"
    in_root update-ca-certificates >>"$LOGS/prerequisites.log" 2>&1
    printf '[global]\ncert = /etc/ssl/certs/ca-certificates.crt\n' >"$ROOT/etc/pip.conf"
    mkdir -p "$ROOT/etc/uv"
    printf 'system-certs = true\n' >"$ROOT/etc/uv/uv.toml"
    LOCAL_CA_NOTE="the host's local CAs (${local_cas[*]##*/}) trusted in the root; pip and uv told to use the system store (/etc/pip.conf, /etc/uv/uv.toml)"
    echo "    note: $LOCAL_CA_NOTE"
fi
# Keep this run's .debs for the next (replaced whole, so runs side by side don't clash).
debs_new=$(mktemp -d "$CACHE/debs.XXXXXX")
cp "$ROOT"/var/cache/apt/archives/*.deb "$debs_new/" 2>/dev/null || true
chmod 755 "$debs_new"
rm -rf "$CACHE/debs"
mv -T "$debs_new" "$CACHE/debs" 2>/dev/null || rm -rf "$debs_new"
in_root apt-get clean
pyver=$(in_root python3 --version 2>&1)
record prerequisites ok "$(secs_since "$t0")" "$pyver; $(in_root dpkg-query -W -f '${binary:Package}\n' | wc -l) packages in the root"
echo "    $pyver, $(in_root make --version | head -1), $(in_root git --version)"

# --- 4. users and their clones ---------------------------------------------------------
new_user() {  # new_user NAME: a normal user with a fresh home
    in_root useradd --create-home --shell /bin/bash "$1"
}
user_home() { in_root getent passwd "$1" | cut -d: -f6; }
clone_for() {  # clone_for USER: the checkout, cloned into ~USER/actframes
    local user=$1 home dest
    home=$(user_home "$user")
    dest=$ROOT$home/actframes
    git -c safe.directory='*' clone -q --no-hardlinks "$SRC" "$dest"
    if ((WORKING_TREE)); then
        # The working tree as it is: tracked files (deleted ones stay deleted), untracked
        # files not ignored by .gitignore.
        (cd "$dest" && git ls-files -z | xargs -0 -r rm -f --)
        (cd "$SRC" && git -c safe.directory='*' ls-files -z -co --exclude-standard \
            | while IFS= read -r -d '' f; do [[ -e $f || -L $f ]] && printf '%s\0' "$f"; done \
            | tar --null -T - -cf -) | tar -C "$dest" -xf -
    fi
    in_root chown -R "$user:" "$home/actframes"
}
# as_user USER TIMEOUT COMMAND [VAR=VALUE...]: COMMAND in bash, as USER, from their home,
# in a clean login-like environment (no PYTHONUNBUFFERED or anything else of the host's).
as_user() {
    local user=$1 limit=$2 cmd=$3 uid gid home
    shift 3
    uid=$(in_root id -u "$user") gid=$(in_root id -g "$user") home=$(user_home "$user")
    timeout --kill-after=30 "$limit" \
        chroot --userspec="$uid:$gid" --groups="$gid" "$ROOT" \
        /usr/bin/env -i HOME="$home" USER="$user" LOGNAME="$user" SHELL=/bin/bash \
        PATH="$CLEAN_PATH" LANG=C.UTF-8 "$@" \
        /bin/bash -c "umask 022; cd \"\$HOME\" && $cmd" </dev/null
}
# run_step NAME USER COMMAND [VAR=VALUE...]: timed, output to the console and NAME.log
run_step() {
    local name=$1 user=$2 cmd=$3 rc t0 secs note=""
    shift 3
    say "step $name: $cmd (as $user; log: $LOGS/$name.log)"
    t0=$(now)
    # In the background, so that a signal to this script runs its traps at once (bash
    # defers them while a foreground command runs); SIGINT and SIGQUIT reset to their
    # defaults, so that the step's processes get them as they would from a terminal.
    (
        trap - INT QUIT TERM
        set +e
        as_user "$user" "${TIMEOUT[$name]}" "$cmd" "$@" 2>&1 | tee "$LOGS/$name.log"
        exit "${PIPESTATUS[0]}"
    ) &
    rc=0
    wait "$!" || rc=$?
    secs=$(secs_since "$t0")
    kill_in_root "$ROOT"   # nothing a step started outlives it
    if ((rc == 0)); then
        record "$name" ok "$secs"
    else
        ((rc == 124 || rc == 137)) && note="timed out after ${TIMEOUT[$name]} s"
        record "$name" "FAIL (exit $rc)" "$secs" "$note"
    fi
    echo "--> step $name: ${P_STATUS[$name]} in ${secs}s"
}

t0=$(now)
if [[ ${WANT[demo]:-} || ${WANT[test]:-} ]]; then new_user dev; clone_for dev; fi
if [[ ${WANT[steps]:-} ]]; then new_user newcomer; clone_for newcomer; fi
any_user=$([[ ${WANT[demo]:-} || ${WANT[test]:-} ]] && echo dev || echo newcomer)
TESTED=$(git -c safe.directory='*' -C "$ROOT$(user_home "$any_user")/actframes" log -1 --format='%h %s' \
    | cut -c1-80)
((WORKING_TREE)) && TESTED="$TESTED + working tree"
record clone ok "$(secs_since "$t0")" "$TESTED"
as_user "$any_user" 60 'echo "    as $(id -un): $(id); HOME=$HOME; PATH=$PATH; /dev/shm: $(ls -ld /dev/shm 2>&1)"'

# --- 5. the steps ------------------------------------------------------------------------
VENV_MB=""
if [[ ${WANT[demo]:-} ]]; then
    run_step demo dev 'cd actframes && make demo'
    venv=$ROOT$(user_home dev)/actframes/.venv
    if [[ -d $venv ]]; then
        VENV_MB=$(du -sm "$venv" | cut -f1)
        echo "--> .venv after make demo: ${VENV_MB} MB (limit ${VENV_LIMIT_MB} MB)"
    else
        echo "--> no .venv after make demo"
    fi
fi

if [[ ${WANT[steps]:-} ]]; then
    readme=$ROOT$(user_home newcomer)/actframes/README.md
    mkdir -p "$ROOT/opt/fresh-machine"
    awk 'f == 0 && $0 == "## Three steps" { f = 1; next }
         f == 1 && /^```sh[[:space:]]*$/ { f = 2; next }
         f == 2 && /^```/ { exit }
         f == 2 { print }' "$readme" >"$ROOT/opt/fresh-machine/three-steps.sh"
    chmod 644 "$ROOT/opt/fresh-machine/three-steps.sh"
    if [[ -s $ROOT/opt/fresh-machine/three-steps.sh ]]; then
        say "the README's Three steps (run as one bash -e script):"
        sed 's/^/    | /' "$ROOT/opt/fresh-machine/three-steps.sh"
        run_step steps newcomer 'cd actframes && bash -e /opt/fresh-machine/three-steps.sh'
    else
        echo "--> README.md has no \`\`\`sh block after a line '## Three steps'"
        record steps "FAIL (no block)" 0 "no \`\`\`sh block after '## Three steps' in README.md"
    fi
fi

if [[ ${WANT[test]:-} ]]; then
    # -rfEs: pytest's short summary lists failures, errors and every skip with its reason.
    run_step test dev 'cd actframes && make test' PYTEST_ADDOPTS=-rfEs
fi

# --- 6. summary ----------------------------------------------------------------------------
summary() {
    local p failed=() line=""
    echo "== fresh-machine check: actframes @ $TESTED"
    echo "   Debian $SUITE minbase from $MIRROR + ${PREREQS[*]}; steps as a normal user, env -i"
    [[ -z $LOCAL_CA_NOTE ]] || echo "   note: $LOCAL_CA_NOTE"
    for p in "${PHASES[@]}"; do
        printf '   %-14s %-16s %6ss  %s\n' "$p" "${P_STATUS[$p]}" "${P_SECS[$p]}" "${P_NOTE[$p]}"
        [[ ${P_STATUS[$p]} == ok ]] || failed+=("$p")
    done
    if [[ ${WANT[demo]:-} ]]; then
        if [[ -z $VENV_MB ]]; then
            echo "   .venv          n/a (make demo left no .venv)"
        elif ((VENV_MB > VENV_LIMIT_MB)); then
            echo "   .venv          ${VENV_MB} MB  OVER the ${VENV_LIMIT_MB} MB limit"
            failed+=(".venv size")
        else
            echo "   .venv          ${VENV_MB} MB (limit ${VENV_LIMIT_MB} MB)"
        fi
    fi
    if [[ ${WANT[test]:-} && -f $LOGS/test.log ]]; then
        line=$(grep -E '[0-9]+ (passed|failed|errors?|skipped|deselected|xfailed|xpassed)\b.* in [0-9.]+s' \
            "$LOGS/test.log" | tail -n 1 | sed -E 's/^=+ //; s/ =+$//')
        echo "   pytest         ${line:-no final summary line (see $LOGS/test.log)}"
        if grep -qE '^(FAILED|ERROR) ' "$LOGS/test.log"; then
            echo "   failed/errors:"
            grep -E '^(FAILED|ERROR) ' "$LOGS/test.log" | head -n 40 | sed 's/^/     /'
        fi
        if grep -q '^SKIPPED \[' "$LOGS/test.log"; then
            echo "   skip reasons (count  reason):"
            awk '/^SKIPPED \[[0-9]+\] / {
                     s = $0; sub(/^SKIPPED \[/, "", s); n = s + 0
                     sub(/^[0-9]+\] [^ ]*: /, "", s); count[s] += n }
                 END { for (r in count) printf "%7d  %s\n", count[r], r }' "$LOGS/test.log" \
                | sort -k1,1nr -k2 | sed 's/^/   /'
        fi
    fi
    for p in "${failed[@]}"; do
        [[ -f $LOGS/$p.log ]] || continue
        [[ $p == test && -n ${line:-} ]] && continue   # its failures are listed above
        echo "   --- last lines of $p ($LOGS/$p.log):"
        tail -n 15 "$LOGS/$p.log" | sed 's/^/   | /'
    done
    echo "   logs: $LOGS"
    if ((${#failed[@]})); then
        echo "RESULT: FAIL (${failed[*]})"
        return 1
    fi
    echo "RESULT: ok"
}
echo
set +e
summary | tee "$WORKDIR/summary.txt"
status=${PIPESTATUS[0]}
set -e
exit "$status"
