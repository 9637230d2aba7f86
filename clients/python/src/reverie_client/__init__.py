"""A typed client for Reverie's API, and (with the ``mcp`` extra) an MCP server.

from reverie_client import ReverieClient

with ReverieClient("http://127.0.0.1:8000", token="rvk_...") as reverie:
    reverie.remember("User prefers metric units.", type="preference", subject="pref:units")
    for item in reverie.recall("which units?").items:
        print(item.text)
"""

from ._http import VERSION as __version__
from ._http import Call, Retries
from .async_client import AsyncReverieClient
from .client import ReverieClient
from .conversation import AsyncConversation, AsyncTurn, Conversation, Recorded, Turn
from .errors import (
    ERROR_CLASSES,
    ApiError,
    ConflictError,
    ForbiddenError,
    InternalError,
    MethodNotAllowedError,
    NotAcceptableError,
    NotFoundError,
    PayloadTooLargeError,
    RateLimitedError,
    ReverieError,
    ServiceUnavailableError,
    UnauthenticatedError,
    UnsupportedMediaTypeError,
    ValidationError,
)
from .models import (
    AccessRecord,
    Change,
    Derived,
    DerivedControl,
    Erasure,
    ErasureRequest,
    Event,
    History,
    Memory,
    MemoryPage,
    Operation,
    OperationDetail,
    OperationPage,
    Part,
    Recall,
    RecallItem,
    RecallSource,
    Run,
    Session,
    Source,
    SummaryJournal,
    Token,
    Undo,
    UndoPreview,
)
from .pagination import AsyncChangeFeed, ChangeFeed

__all__ = [
    "AccessRecord",
    "ERROR_CLASSES",
    "ApiError",
    "AsyncChangeFeed",
    "AsyncConversation",
    "AsyncReverieClient",
    "AsyncTurn",
    "Call",
    "Change",
    "ChangeFeed",
    "ConflictError",
    "Conversation",
    "Derived",
    "DerivedControl",
    "Erasure",
    "ErasureRequest",
    "Event",
    "ForbiddenError",
    "History",
    "InternalError",
    "Memory",
    "MemoryPage",
    "MethodNotAllowedError",
    "NotAcceptableError",
    "NotFoundError",
    "Operation",
    "OperationDetail",
    "OperationPage",
    "Part",
    "PayloadTooLargeError",
    "RateLimitedError",
    "Recall",
    "RecallItem",
    "RecallSource",
    "Recorded",
    "Retries",
    "ReverieClient",
    "ReverieError",
    "Run",
    "ServiceUnavailableError",
    "Session",
    "Source",
    "SummaryJournal",
    "Token",
    "Turn",
    "UnauthenticatedError",
    "Undo",
    "UndoPreview",
    "UnsupportedMediaTypeError",
    "ValidationError",
    "__version__",
]
