"""A value named only by the bare word "code" (código, Code, codice) a short phrase before it,
the facts holding that word that are no secret (postal, QR, source, status and order codes) in
all six languages, and passwords in languages without a table (issue 35)."""

from __future__ import annotations

import pytest

from openclaw_tui.language.secrets import DiskText, marker, redact_for_disk

# (language, text, the secret value in it, its kind)
SECRETS = [
    # the blind benchmark's three, as typed
    ("en", "Keep this out of memory, it's the code for the side gate: 2741", "2741", "code"),
    ("de", "der Code vom Safe im Hotelzimmer ist 0462", "0462", "code"),
    ("it", "il codice del portone è 2285", "2285", "code"),
    # the bare word in each language, with and without a phrase before the connector
    ("en", "The code is 1234.", "1234", "code"),
    ("en", "the code to the garage is 5566 so come in", "5566", "code"),
    ("en", "The combination for the safe is 12-34-56", "12-34-56", "code"),
    ("es", "El código del garaje es 4455", "4455", "code"),
    ("es", "el código de la caja fuerte es 3141, no lo guardes", "3141", "code"),
    ("de", "Der Code für den Keller lautet 5566, bitte nicht speichern", "5566", "code"),
    ("de", "Der Code ist *8813#.", "*8813#", "code"),
    ("fr", "Le code de l'entrée est 1984 mais ne le note pas", "1984", "code"),
    ("fr", "le code pour le cadenas : 0007", "0007", "code"),
    ("pt", "O código do cadeado é 3030", "3030", "code"),
    ("pt", "o código pro portão dos fundos é 8181.", "8181", "code"),
    ("it", "Il codice della cassaforte è 4040", "4040", "code"),
    ("it", "il codice per il lucchetto: 1357", "1357", "code"),
    # a comma before the connector, a pronoun in it, Swiss German "isch"
    ("fr", "Mon code de carte bleue, c'est 2817, ne le note pas.", "2817", "code"),
    ("en", "the code for the gate: it's 2741", "2741", "code"),
    ("de", "Den Türcode bloß nicht speichern: er lautet 6630", "6630", "access code"),
    ("de", "S'Passwort fürs WLAN isch Chuchichäschtli88 – das bitte ned abspeichere", "Chuchichäschtli88", "password"),
    # bank account numbers, like an IBAN
    ("en", "My sort code is 20-45-77, forget I said that.", "20-45-77", "account number"),
    ("es", "El número de cuenta es 43910286.", "43910286", "account number"),
    ("de", "Meine Kontonummer lautet 1234567890", "1234567890", "account number"),
    ("fr", "Mon numéro de compte est 00012345678.", "00012345678", "account number"),
    ("pt", "O número da conta é 12345678", "12345678", "account number"),
    ("it", "Il numero di conto è 000012345678", "000012345678", "account number"),
    # a code word of a language without a table, with its own connector
    ("nl", "Schrijf dit niet op: de code van mijn bankpas is 4417", "4417", "code"),
    ("sv", "Förrådskoden är 2291, men den ska inte in i anteckningarna", "2291", "code"),
    ("da", "Koden til døren er 1234", "1234", "code"),
    # named access codes that were missing
    ("en", "The wifi code is 20251207", "20251207", "access code"),
    ("de", "Der Safecode ist 9911", "9911", "access code"),
    # passwords in languages without a table
    ("cs", "Heslo k wifi je Knedlik_42", "Knedlik_42", "password"),
    ("pl", "hasło do wifi to Kot123", "Kot123", "password"),
    ("nl", "Het wachtwoord van de wifi is Fiets2024", "Fiets2024", "password"),
    ("sv", "Wifi-lösenordet är Sommar99", "Sommar99", "password"),
    ("da", "Adgangskoden til netværket er Hund1234", "Hund1234", "password"),
    ("no", "Passordet til ruteren er Fjord77", "Fjord77", "password"),
    ("tr", "Wifi şifresi: Kedi123", "Kedi123", "password"),
    ("ro", "Parola de la wifi este Casa2020", "Casa2020", "password"),
    ("fi", "Wifin salasana on Sauna2020", "Sauna2020", "password"),
]

# facts users want kept, word for word
NOT_SECRETS = [
    # postal, area and country codes
    ("en", "My zip code is 10115."),
    ("en", "The postal code is 2000 and the area code is 415."),
    ("en", "Germany's country code is 49, the dialling code: 030"),
    ("es", "El código postal es 28013."),
    ("es", "El código de área es 011."),
    ("de", "Die Postleitzahl ist 10115."),
    ("de", "Der QR-Code ist 2048 Pixel breit."),
    ("fr", "Le code postal est 75001."),
    ("fr", "Le code pays de la France est 33."),
    ("pt", "O código postal é 1000-001."),
    ("pt", "O código de área é 011."),
    ("it", "Il CAP è 20100."),
    ("it", "Il codice postale è 20100."),
    ("it", "Il codice di avviamento postale è 00184."),
    # dress, QR, bar and source code
    ("en", "The dress code is black tie, the QR code is 300 pixels."),
    ("en", "The source code is 4000 lines."),
    ("es", "El código de vestimenta es formal y el código de barras es 8412345678905."),
    ("fr", "Le code source est 1200 lignes."),
    ("pt", "O código de barras é 7891234567895."),
    ("it", "Il codice sorgente è 1500 righe."),
    # a code in a file or program, lines of code
    ("en", "The code in main.py has 3 bugs."),
    ("en", "I wrote 300 lines of code today."),
    ("en", "The code for the exercise is 300 lines long."),
    ("es", "Escribí 300 líneas de código."),
    ("de", "Der Code in main.py hat 3 Fehler."),
    ("fr", "Le code dans main.py a 3 bugs."),
    ("pt", "O código no main.py tem 3 erros."),
    ("it", "Il codice nel file main.py ha 3 errori."),
    # HTTP statuses and error codes
    ("en", "The server answers code 200."),
    ("en", "The status code is 404 and the error code: 5012"),
    ("es", "El código de error es 1603."),
    ("de", "Der HTTP-Code ist 503."),
    ("fr", "Le code d'erreur est 0x80070005 et le code de retour 127."),
    ("pt", "O código de status é 500."),
    ("it", "Il codice di errore è 404."),
    # order, product, flight, tracking and promo codes identify and unlock nothing: kept
    ("en", "The order code is AB-1234 and the flight code is 4512."),
    ("en", "The promo code is 2024 and the tracking code is 7700."),
    ("es", "El código de pedido es 5521 y el código de vuelo es 3301."),
    ("de", "Der Code der Bestellung ist 7781."),
    ("fr", "Le code promo est 2025."),
    ("pt", "O código do pedido é 99812."),
    ("it", "Il codice sconto è 2024 e il codice prodotto è 5512."),
    # law and conduct
    ("en", "The code of conduct is 12 pages."),
    ("fr", "Le code de la route est 1958."),
    ("it", "Il codice della strada è del 1992."),
    # other languages: no password in these
    ("cs", "Heslo je na lednici."),
    ("pl", "Hasło jest złe."),
    ("nl", "Het wachtwoord is fout."),
    # a Romanian or Finnish connector joins no other language's name
    ("it", "La parola e basta."),
    ("en", "The password on the fridge is wrong."),
    ("en", "The password, is it secure?"),
    # English names keep the shared connectors: no Polish "to", no Swedish "är"
    ("en", "The PIN to 4821 Main Street is wrong."),
    ("en", "the code är 1234"),
]


@pytest.mark.parametrize("lang,text,value,kind", SECRETS, ids=[f"{c[0]}:{i}" for i, c in enumerate(SECRETS)])
def test_named_by_a_code_word_or_an_untabled_password_word(lang: str, text: str, value: str, kind: str) -> None:
    disk = redact_for_disk(text)
    assert value not in disk.text
    assert disk.text == text.replace(value, marker(kind), 1)
    assert disk.kinds == (kind,)


@pytest.mark.parametrize("lang,text", NOT_SECRETS, ids=[f"{c[0]}:{i}" for i, c in enumerate(NOT_SECRETS)])
def test_a_code_that_is_no_secret_stays_as_typed(lang: str, text: str) -> None:
    assert redact_for_disk(text) == DiskText(text)


def test_redacting_a_code_twice_changes_nothing() -> None:
    once = redact_for_disk("it's the code for the side gate: 2741").text
    assert redact_for_disk(once) == DiskText(once)


def test_a_name_five_words_before_its_value_still_names_it() -> None:
    """Real-model `eval survival` (es, seed 7): "El PIN de mi tarjeta del banco es 8595." reached
    disk: five words stand between the name and its connector (the gap was four)."""
    from openclaw_tui.language.secrets import redact_for_disk

    assert redact_for_disk("El PIN de mi tarjeta del banco es 8595.").text == "El PIN de mi tarjeta del banco es [secret withheld: PIN]."
    assert redact_for_disk("My PIN for the joint account is 4402.").text == "My PIN for the joint account is [secret withheld: PIN]."
