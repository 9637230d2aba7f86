from django.urls import path

from . import views

app_name = "reconsolidation_api"

urlpatterns = [
    path("operations", views.OperationListApi.as_view(), name="operations"),
    path("operations/<uuid:operation_id>", views.OperationDetailApi.as_view(), name="operation"),
    path(
        "operations/<uuid:operation_id>/undo-preview",
        views.UndoPreviewApi.as_view(),
        name="operation-undo-preview",
    ),
    path("operations/<uuid:operation_id>/undo", views.UndoApi.as_view(), name="operation-undo"),
    path("derived/<uuid:derived_id>", views.DerivedDetailApi.as_view(), name="derived"),
    path(
        "derived/<uuid:derived_id>/review", views.DerivedReviewApi.as_view(), name="derived-review"
    ),
    path(
        "derived/<uuid:derived_id>/restrict",
        views.DerivedRestrictApi.as_view(),
        name="derived-restrict",
    ),
    path(
        "derived/<uuid:derived_id>/unrestrict",
        views.DerivedUnrestrictApi.as_view(),
        name="derived-unrestrict",
    ),
    path(
        "derived/<uuid:derived_id>/reject", views.DerivedRejectApi.as_view(), name="derived-reject"
    ),
    path(
        "derived/<uuid:derived_id>/promote",
        views.DerivedPromoteApi.as_view(),
        name="derived-promote",
    ),
    path("summaries/<uuid:summary_id>", views.SummaryJournalApi.as_view(), name="summary"),
]
