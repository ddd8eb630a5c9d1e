"""fast/fasthash.py: the same SHA-256 digests as ``hashlib``, from the built-in module."""

from __future__ import annotations

import hashlib
import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st

from actframes.fast import fasthash


@given(st.binary(max_size=4096), st.integers(min_value=0, max_value=4096))
def test_digests_agree_with_hashlib(data: bytes, cut: int) -> None:
    want = hashlib.sha256(data).hexdigest()
    assert fasthash.sha256(data).hexdigest() == want
    h = fasthash.sha256()
    h.update(data[:cut])
    h.update(data[cut:])  # fed in two pieces
    assert h.hexdigest() == want
    assert fasthash.openssl_sha256()(data).hexdigest() == want


def test_the_known_vector() -> None:
    assert fasthash.sha256(b"abc").hexdigest() == (
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    )


def test_importing_it_does_not_load_hashlib() -> None:
    """Its reason to exist: ``hashlib`` (and OpenSSL) stay unloaded."""
    code = (
        "import sys\nfrom actframes.fast import fasthash\n"
        "fasthash.sha256(b'x')\nprint('hashlib' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
