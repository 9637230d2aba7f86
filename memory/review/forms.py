"""Forms of the review site's action pages. They parse; the services validate."""

from typing import Any

from django import forms


class RevisionForm(forms.Form):
    """The revision of a memory the owner saw when they chose to act on it."""

    expected_revision = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class CorrectionForm(RevisionForm):
    """The new wording only: the correction stays about what the memory was about, so it
    replaces this memory and no other (the API may name another subject)."""

    statement = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "cols": 80}),
        help_text="What is true instead, in a sentence.",
    )


class AccountErasureForm(forms.Form):
    username = forms.CharField(
        label="Type your username to confirm",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def __init__(self, *args: Any, expected_username: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.expected_username = expected_username

    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"]
        if username != self.expected_username:
            raise forms.ValidationError("That is not your username.")
        return username


class TokenCreateForm(forms.Form):
    name = forms.CharField(
        max_length=100,
        help_text="Which assistant will use it, so that you can tell your tokens apart.",
    )
    assistant = forms.SlugField(
        required=False,
        max_length=63,
        label="Only this assistant's memories",
        help_text=(
            "Optional: a short name like ide-agent. The token then sees that assistant's "
            "memories and conversations and your shared ones, never another assistant's. "
            "Leave empty for all of them."
        ),
    )
    read_only = forms.BooleanField(
        required=False, label="Read only", help_text="It may recall and list, never write."
    )
    include_sensitive = forms.BooleanField(
        required=False,
        initial=True,
        label="Include sensitive memories",
        help_text="Memories marked sensitive (health, beliefs and the like) in what it reads.",
    )

    def clean_assistant(self) -> str:
        assistant: str = self.cleaned_data["assistant"]
        return assistant.lower()


class TokenRevokeForm(forms.Form):
    token = forms.UUIDField(widget=forms.HiddenInput)
