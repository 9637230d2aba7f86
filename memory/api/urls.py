from django.urls import path

from .schema import DocsApi, SchemaApi
from .views import access, account, memories, recall, runs, sessions, tokens

app_name = "api"

urlpatterns = [
    # First: the route of every assistant turn is the first one tried.
    path("recall", recall.RecallApi.as_view(), name="recall"),
    path("sessions", sessions.SessionListApi.as_view(), name="sessions"),
    path("sessions/<uuid:session_id>", sessions.SessionDetailApi.as_view(), name="session"),
    path(
        "sessions/<uuid:session_id>/close",
        sessions.SessionCloseApi.as_view(),
        name="session-close",
    ),
    path(
        "sessions/<uuid:session_id>/erase",
        sessions.SessionEraseApi.as_view(),
        name="session-erase",
    ),
    path("sessions/<uuid:session_id>/events", sessions.EventListApi.as_view(), name="events"),
    path("events/<uuid:event_id>/erase", sessions.EventEraseApi.as_view(), name="event-erase"),
    path("sessions/<uuid:session_id>/runs", runs.RunCreateApi.as_view(), name="runs"),
    path("runs/<uuid:run_id>", runs.RunDetailApi.as_view(), name="run"),
    path("runs/<uuid:run_id>/complete", runs.RunCompleteApi.as_view(), name="run-complete"),
    path("runs/<uuid:run_id>/fail", runs.RunFailApi.as_view(), name="run-fail"),
    path("runs/<uuid:run_id>/wait", runs.RunWaitApi.as_view(), name="run-wait"),
    path("memories", memories.MemoryListApi.as_view(), name="memories"),
    path("memories/<uuid:memory_id>", memories.MemoryDetailApi.as_view(), name="memory"),
    path(
        "memories/<uuid:memory_id>/confirm",
        memories.MemoryConfirmApi.as_view(),
        name="memory-confirm",
    ),
    path(
        "memories/<uuid:memory_id>/reject",
        memories.MemoryRejectApi.as_view(),
        name="memory-reject",
    ),
    path(
        "memories/<uuid:memory_id>/correct",
        memories.MemoryCorrectApi.as_view(),
        name="memory-correct",
    ),
    path(
        "memories/<uuid:memory_id>/history",
        memories.MemoryHistoryApi.as_view(),
        name="memory-history",
    ),
    path("export", account.ExportApi.as_view(), name="export"),
    path("account/erasure", account.ErasureRequestApi.as_view(), name="erasure"),
    path(
        "account/erasure/confirm",
        account.ErasureConfirmApi.as_view(),
        name="erasure-confirm",
    ),
    path("access", access.AccessListApi.as_view(), name="access"),
    path("tokens/<uuid:token_id>/pause", tokens.TokenPauseApi.as_view(), name="token-pause"),
    path("tokens/<uuid:token_id>/resume", tokens.TokenResumeApi.as_view(), name="token-resume"),
    path("schema/", SchemaApi.as_view(), name="schema"),
    path("docs/", DocsApi.as_view(url_name="api:schema"), name="docs"),
]
