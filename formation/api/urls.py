from django.urls import path

from . import views

app_name = "formation_api"

urlpatterns = [
    path("challenges", views.ChallengeListApi.as_view(), name="challenges"),
    path("challenges/<uuid:challenge_id>", views.ChallengeDetailApi.as_view(), name="challenge"),
    path(
        "challenges/<uuid:challenge_id>/keep",
        views.ChallengeKeepApi.as_view(),
        name="challenge-keep",
    ),
    path(
        "challenges/<uuid:challenge_id>/replace",
        views.ChallengeReplaceApi.as_view(),
        name="challenge-replace",
    ),
]
