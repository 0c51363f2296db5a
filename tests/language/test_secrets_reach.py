"""How far the disk redactor reaches (issue 35, item 3): a PIN or password named up to ten
words before its value, a value standing before its name, a code given to an unlock verb, the
PIN, password, code and key words of languages without a table (ja, zh, ko written without
spaces), and a bare "code" of a page or file that is source code, not a secret."""

from __future__ import annotations

import pytest

from openclaw_tui.language.lexicon import fold
from openclaw_tui.language.secrets import DiskText, marker, redact_for_disk

# (language, text, the secret value in it, its kind)
SECRETS = [
    # a name more than five words before its connector
    ("en", "the PIN for the card I use at the bank on Fridays is 4821", "4821", "PIN"),
    ("en", "the PIN for the card that is in my wallet is 4821", "4821", "PIN"),
    ("es", "El PIN de la tarjeta que uso en el banco los viernes es 5590", "5590", "PIN"),
    ("de", "Das Passwort für den Rechner im Büro von meinem Chef ist Kiel1999", "Kiel1999", "password"),
    ("fr", "Le code secret de la carte que j'utilise à la banque est 7730", "7730", "PIN"),
    ("pt", "A senha do wifi da casa da minha avó no Porto é abacaxi9", "abacaxi9", "password"),
    ("it", "Il PIN della carta che uso al bancomat il venerdì è 2580", "2580", "PIN"),
    # the value before its name, at the start of its clause
    ("en", "4821 is my PIN", "4821", "PIN"),
    ("en", "Hunter22 is the password", "Hunter22", "password"),
    ("it", "Limoncello_7 è la password del Wi-Fi, non salvarla eh", "Limoncello_7", "password"),
    ("nl", "4471 is de code van de kluis op kantoor", "4471", "code"),
    ("es", "Ojo: 7720 es mi PIN", "7720", "PIN"),
    # a code given to a verb that unlocks, opens or disarms
    ("en", "Not for your notes, ok? The office alarm disarms with 5902#", "5902#", "code"),
    ("en", "I unlock the phone with 5817.", "5817", "code"),
    ("es", "desbloqueo el móvil con 4455", "4455", "code"),
    ("de", "Ich entsperre das Handy mit 5817", "5817", "code"),
    ("fr", "J'ouvre le cadenas avec 0007.", "0007", "code"),
    ("pt", "Portão da garagem abre com 1357#, não escrevas isso", "1357#", "code"),
    ("it", "sblocco il telefono con 5817", "5817", "code"),
    # Polish and Turkish PINs and passwords
    ("pl", "Nie zapisuj tego: mój PIN to 4402.", "4402", "PIN"),
    ("pl", "PIN do karty to 7402", "7402", "PIN"),
    ("pl", "kod do domofonu to 2741", "2741", "code"),
    ("tr", "Bunu not etme ama kredi kartı şifrem 6120.", "6120", "password"),
    ("tr", "Şifrem Kartal_1903, bunu kaydetme lütfen", "Kartal_1903", "password"),
    ("tr", "kart şifrem 9027", "9027", "password"),
    ("tr", "PIN kodum: 4821", "4821", "PIN"),
    # other languages without a table
    ("nl", "Mijn pincode is 1234", "1234", "PIN"),
    ("sv", "Min pinkod är 5566", "5566", "PIN"),
    ("fi", "PIN-koodini on 4821", "4821", "PIN"),
    ("cs", "Kód od trezoru je 5521", "5521", "code"),
    ("ro", "Codul PIN este 8080", "8080", "PIN"),
    ("ro", "Codul de la ușă este 1212", "1212", "code"),
    ("hu", "A jelszavam Alma123.", "Alma123", "password"),
    ("hu", "A PIN-kódom 4821", "4821", "PIN"),
    ("ru", "Мой пароль qwerty123", "qwerty123", "password"),
    ("ru", "ПИН-код: 4821", "4821", "PIN"),
    ("ru", "Код от домофона — 2741", "2741", "code"),
    ("el", "Ο κωδικός της πόρτας είναι 1234", "1234", "code"),
    ("el", "Ο κωδικός πρόσβασης είναι Kalimera77", "Kalimera77", "password"),
    ("ja", "これはメモしないで。暗証番号は4826です。", "4826", "PIN"),
    ("ja", "社内Wi-Fiのパスワード、Sakura_2718ね。", "Sakura_2718", "password"),
    ("zh", "我的银行卡密码是 482193", "482193", "PIN"),
    ("zh", "wifi密码是abc12345", "abc12345", "password"),
    ("ko", "비밀번호는 hunter22야", "hunter22", "password"),
    ("ko", "인증번호는 558812", "558812", "one-time code"),
]

# facts that hold such words and no secret: kept word for word
NOT_SECRETS = [
    # a page's, file's or module's code is source code; a year or line count is no PIN
    ("en", "the code for the login page is 2000"),
    ("en", "The code for the payments module was 1500 lines"),
    ("en", "2000 is the code for the login page"),
    ("es", "El código de la página de inicio es de 2019"),
    ("de", "Der Code für die Login-Seite ist 2000"),
    ("fr", "Le code de la page d'accueil est 2000"),
    ("pt", "O código do site é 2000"),
    ("it", "Il codice del modulo è 2000"),
    # an unlock verb with a number that opens nothing
    ("en", "I opened the account with 5000."),
    ("en", "I open the account with 5000."),
    ("en", "The show opens with 3000 drones."),
    ("es", "Abro la cuenta con 5000."),
    # a value before its name needs the start of its clause and, for a password, a digit
    ("en", "Sunday is my password day"),
    ("en", "Room 4821 is my PIN's hiding place"),
    ("es", "¿Cuál es la contraseña del wifi?"),
    ("en", "2019 was the year the password changed"),
    # a long gap ends at a mark, and a password word's value is no function word
    ("en", "My password is on the fridge and the fridge is white"),
    ("en", "The PIN is wrong, the card from 2019 is 4 years old"),
    # untabled languages' words that name no value
    ("pl", "Mój PIN jest zły."),
    ("tr", "Şifremi unuttum."),
    ("ru", "Я забыл пароль."),
    ("ja", "パスワードを忘れました。"),
    ("zh", "我忘了密码。"),
    ("ko", "비밀번호를 잊어버렸어요."),
    ("pt", "O PIN do cartão é novo."),
    ("pt", "Não anota isso: o PIN do cartão é bonito"),
    # a quoted value keeps its shape: a path or an empty pair of backticks is no code or key
    ("en", "Code: `openclaw_tui/language/secrets.py`."),
    ("en", "configured beside it: `remote.apiKey`, `remote.baseUrl`"),
    ("en", 'remote: { apiKey: "…" }'),
]


@pytest.mark.parametrize("lang,text,value,kind", SECRETS, ids=[f"{c[0]}:{i}" for i, c in enumerate(SECRETS)])
def test_secret_far_before_or_in_an_untabled_language_is_withheld(lang: str, text: str, value: str, kind: str) -> None:
    disk = redact_for_disk(text)
    assert value not in disk.text
    assert disk.text == text.replace(value, marker(kind), 1)
    assert disk.kinds == (kind,)


@pytest.mark.parametrize("lang,text", NOT_SECRETS, ids=[f"{c[0]}:{i}" for i, c in enumerate(NOT_SECRETS)])
def test_no_secret_stays_as_typed(lang: str, text: str) -> None:
    assert redact_for_disk(text) == DiskText(text)


def test_a_quoted_password_may_hold_spaces_a_quoted_code_keeps_its_shape() -> None:
    assert redact_for_disk('My password is "correct horse battery staple".').kinds == ("password",)
    assert redact_for_disk("the door code is `4B21`").text == "the door code is `[secret withheld: access code]`"


def test_portuguese_pin_do_is_not_polish() -> None:
    """A Polish name ("PIN do karty") never takes a Portuguese one ("o PIN do cartão é 6048")
    away from the shared connectors."""
    assert redact_for_disk("Não anota isso: o PIN do cartão é 6048").text == "Não anota isso: o PIN do cartão é [secret withheld: PIN]"


def test_fold_keeps_hangul_syllables_and_turkish_dotted_i() -> None:
    """Korean names match whole syllables, not their first consonants; "ŞİFREM" folds as "şifrem"."""
    assert fold("비밀번호") == "비밀번호"
    assert fold("비밀번호") != fold("배말부호")
    assert fold("ŞİFREM") == fold("şifrem") == "sifrem"
    assert fold("Ça énorme") == "ca enorme"
    assert redact_for_disk("ŞİFREM: Kedi1234").kinds == ("password",)
