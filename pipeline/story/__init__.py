"""Stage 2, story: a campaign's story graph and everything said about it.  The graph, its
checks, the finding codes' catalogue, the folding of caused findings, the incremental and the
whole check (``report``), spelling, French text, safe updates, the simulator, and the compiled
bundle the front ends play.

Imports only the foundations, ``pipeline.content`` and itself.
"""
