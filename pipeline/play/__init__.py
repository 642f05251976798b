"""Stage 3, play: a game played in the terminal from its compiled bundle.

Imports the foundations, ``pipeline.content``, ``pipeline.story`` and itself; never
``pipeline.publish`` or ``pipeline.editor``.
"""
