#!/bin/sh
# Is "$1" (default python3) a Python 3.11+ that can make a virtualenv? Silent when it is;
# else one line naming what to install, and exit 1. Plain sh: it runs before any
# virtualenv exists, on whatever Python the machine has (or none).
py="${1:-python3}"
if ! command -v "$py" >/dev/null 2>&1; then
    found="no $py on the PATH"
elif ! version=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null); then
    found="$py does not run"
elif ! "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    found="$py is Python $version"
elif ! "$py" -c 'import ensurepip, venv' >/dev/null 2>&1; then
    # Debian and Ubuntu ship venv's pip bootstrap (ensurepip) in a package of its own.
    found="$py $version has no venv module"
else
    exit 0
fi
echo "actframes needs Python 3.11+ with venv ($found): Debian 12+/Ubuntu 24.04+: sudo apt install python3 python3-venv; older Ubuntu: sudo apt install python3.11 python3.11-venv, then make PY=python3.11; Fedora: sudo dnf install python3; macOS: brew install python@3.12, then make PY=python3.12" >&2
exit 1
