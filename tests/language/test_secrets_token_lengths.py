"""A token of a known prefix is a secret whatever its exact length: a GitHub token typed or pasted
one character short ("ghp_" and 35 characters, a blind split's row, written to disk in plain text
while the shape asked for 36) is withheld like a whole one; a short word after the prefix is not."""

from __future__ import annotations

import pytest

from openclaw_tui.language.secrets import redact_for_disk

TOKENS = [
    "ghp_Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LzXcVbN",  # 34 after the prefix
    "ghp_R2d2C3poBb8Kx4Lm9Qw7Er5Ty1Ui0Op",  # 31
    "gho_A1b2C3d4E5f6G7h8I9j0K1l2",  # 24
    "ghs_Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2",
    "hf_Kq3Lm8Nx2Pz7Rb4Tc9Vd1Wf6Y",
]
SENTENCES = {  # no word names a secret: the shape alone must tell
    "en": "put {t} in the CI settings before Friday",
    "es": "pon {t} en la configuración del CI antes del viernes",
    "de": "trag {t} bis Freitag in die CI-Einstellungen ein",
    "fr": "mets {t} dans les réglages du CI avant vendredi",
    "pt": "põe {t} nas definições do CI antes de sexta",
    "it": "metti {t} nelle impostazioni della CI entro venerdì",
}


@pytest.mark.parametrize("token", TOKENS)
@pytest.mark.parametrize("lang", sorted(SENTENCES))
def test_a_token_of_a_known_prefix_is_withheld_at_any_length(lang: str, token: str) -> None:
    out = redact_for_disk(SENTENCES[lang].format(t=token)).text
    assert token not in out and token[4:12] not in out, out


@pytest.mark.parametrize("text", ["The ghp_ prefix marks a GitHub token", "hf_hub is the library name",
                                  "see ghs_notes for details", "gho_short"])
def test_a_prefix_with_a_short_word_is_not_a_token(text: str) -> None:
    assert redact_for_disk(text).text == text
