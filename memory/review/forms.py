"""Forms of the review site's action pages. They parse; the services validate."""

from django import forms


class RevisionForm(forms.Form):
    """The revision of a memory the owner saw when they chose to act on it."""

    expected_revision = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class CorrectionForm(RevisionForm):
    statement = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "cols": 80}),
        help_text="What is true instead, in a sentence.",
    )
    subject = forms.CharField(
        required=False,
        max_length=200,
        help_text=(
            "Optional. The key this memory is about, like device:apple-watch. "
            "Leave it empty to keep the current one."
        ),
    )


class AccountErasureForm(forms.Form):
    username = forms.CharField(
        label="Type your username to confirm",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def __init__(self, *args, expected_username, **kwargs):
        super().__init__(*args, **kwargs)
        self.expected_username = expected_username

    def clean_username(self):
        username = self.cleaned_data["username"]
        if username != self.expected_username:
            raise forms.ValidationError("That is not your username.")
        return username


class TokenCreateForm(forms.Form):
    name = forms.CharField(
        max_length=100,
        help_text="Which assistant will use it, so that you can tell your tokens apart.",
    )


class TokenRevokeForm(forms.Form):
    token = forms.UUIDField(widget=forms.HiddenInput)
