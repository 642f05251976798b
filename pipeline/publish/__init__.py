"""Stage 3, publish: the site.  Its build (``site``), the site generator's plug-in and the
pages made from the pipeline (format reference, writers' guide), the story maps, graph
exports, the engine archive and compressed runtime for the browser, and ``gamebook serve``
(``live``: the site rebuilt while the writer works).

Imports the foundations, ``pipeline.content``, ``pipeline.story`` and itself; never
``pipeline.play`` or ``pipeline.editor``.
"""
