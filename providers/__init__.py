"""Language-model providers: configuration, the HTTP adapter, egress policy and the spend ledger.

Nothing here decides what becomes a memory. A provider only ever proposes,
and only when a certified capability, the owner and the egress policy all
allow it (``formation.hybrid``).
"""
