"""The compiled campaign bundle: the only thing the pipeline and the engine share.

History of ``BUNDLE_FORMAT_VERSION``:
  1 — first format: campaign manifest + records by kind, sub-records folded into parents.
"""

from __future__ import annotations

import json
from typing import Any

BUNDLE_FORMAT_VERSION = 1
BUNDLE_MIN_COMPATIBLE = 1


class BundleError(ValueError):
    """A bundle this engine cannot read."""


def load_bundle(data: str | bytes | dict[str, Any]) -> dict[str, Any]:
    """Parse and version-check a bundle.

    >>> load_bundle({"format_version": 1, "campaign": {"id": "x"}, "records": {}})["campaign"]
    {'id': 'x'}
    """
    bundle = json.loads(data) if isinstance(data, (str, bytes)) else data
    if not isinstance(bundle, dict) or "format_version" not in bundle:
        raise BundleError("not a gamebook bundle: 'format_version' is missing")
    version = bundle["format_version"]
    if not isinstance(version, int) or version > BUNDLE_FORMAT_VERSION:
        raise BundleError(
            f"bundle format {version} is newer than this engine reads ({BUNDLE_FORMAT_VERSION}): "
            "update the engine"
        )
    if version < BUNDLE_MIN_COMPATIBLE:
        raise BundleError(
            f"bundle format {version} is too old (oldest readable: {BUNDLE_MIN_COMPATIBLE}): "
            "recompile the content"
        )
    return bundle
