"""Stage 3, editor: the language server (``lsp``) and the campaigns it holds in memory,
re-checked edit by edit (``workspace``).

Imports the foundations, ``pipeline.content``, ``pipeline.story`` and itself; never
``pipeline.publish`` or ``pipeline.play``.
"""
