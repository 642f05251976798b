"""Stage 1, content: reading what writers wrote.  YAML files loaded with their positions,
validated against the games' content schemas into typed records, found and loaded campaign by
campaign (``project``) through the checker's cache; the JSON Schema for editors.

Imports only ``pipeline``'s foundations (``findings``, ``messages``, ``schema``, ``files``)
and itself.
"""
