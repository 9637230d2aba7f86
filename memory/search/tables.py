"""Memory's own searchable tables: beliefs and original messages."""

from memory.enums import MESSAGE_EVENT_TYPES

from .searches import Collection

BELIEFS = Collection(
    table="memory_belief",
    statistics="belief",
    searchable="a.status IN ('active', 'provisional')",
    length="a.search_length",
)
MESSAGES = Collection(
    table="memory_event",
    statistics="message",
    searchable=(
        "a.redacted_at IS NULL AND a.event_type IN ("
        + ", ".join(f"'{t}'" for t in MESSAGE_EVENT_TYPES)
        + ")"
    ),
    length="a.search_length",
    # Message authors are indexed at weight B (``IndexMessageAuthors``), which counts
    # 0.4 of the text on PostgreSQL, as the author column's weight does for FTS5.
    discounts=(("B", 0.6),),
    weights=(1.0, 0.4),
)
