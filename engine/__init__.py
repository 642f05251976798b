"""gamebook's rules engine.  Standard library only: runs unchanged in CPython and Pyodide."""

from .bundle import BUNDLE_FORMAT_VERSION, BUNDLE_MIN_COMPATIBLE, BundleError, load_bundle

__all__ = ["BUNDLE_FORMAT_VERSION", "BUNDLE_MIN_COMPATIBLE", "BundleError", "load_bundle"]
