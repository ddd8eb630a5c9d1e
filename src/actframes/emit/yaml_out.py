"""YAML: the same document as the JSON, block style, keys in document order."""

from __future__ import annotations

from collections.abc import Mapping

from ..errors import UsageError


def to_yaml(doc: Mapping[str, object]) -> str:
    try:
        import yaml
    except ImportError as exc:
        raise UsageError("YAML output needs PyYAML: pip install 'actframes[yaml]'") from exc
    text: str = yaml.safe_dump(
        doc, sort_keys=False, allow_unicode=True, default_flow_style=False, width=10_000
    )
    return text
