"""A lock's, door's, keypad's, safe's or alarm's code given with no secret's name (issue 35): the
device wants or takes it ("the keypad wants 7391"), has it ("die Alarmanlage hat den Code
6120"), opens with it ("das Tor geht mit 5582 auf", "il lucchetto si apre con 7724"), or it is
what opens the device ("pra abrir o cadeado da bicicleta é 3851"), in all six tabled languages.
Times, prices, counts, house and bus numbers next to the same devices and verbs stay as typed."""

from __future__ import annotations

import pytest

from tests.language.secret_cases import assert_kept, assert_withheld

# (language, text, the secret value in it)
SECRETS = [
    # the device wants, takes, needs or asks for it
    ("en", "Don't hold onto this, the Chamberlain keypad on the garage wants 7391", "7391"),
    ("en", "the keypad wants 7391", "7391"),
    ("en", "the safe in the hotel room takes 4471, don't write it down", "4471"),
    ("es", "el teclado del portal pide 5521, no lo guardes", "5521"),
    ("de", "Das Tastenfeld an der Haustür will 3390", "3390"),
    ("fr", "le clavier de l'immeuble demande 6644, tu ne le notes pas", "6644"),
    ("pt", "o teclado da garagem pede 4412", "4412"),
    ("it", "il tastierino del cancello vuole 8830, non salvarlo", "8830"),
    # the device has the code
    ("en", "The alarm has the code 9134.", "9134"),
    ("es", "La alarma tiene el código 7734, no lo guardes", "7734"),
    ("de", "Die Alarmanlage hat den Code 6120, behalt das nicht.", "6120"),
    ("fr", "le coffre a le code 2290", "2290"),
    ("pt", "o cofre tem o código 9021", "9021"),
    ("it", "la cassaforte ha il codice 1193", "1193"),
    # the device opens with it
    ("en", "the side door opens with 4826", "4826"),
    ("es", "el candado abre con 0917", "0917"),
    ("de", "das Tor geht mit 5582 auf", "5582"),
    ("de", "Bloß nicht speichern – das Zahlenschloss am Kellerabteil geht mit 8352 auf", "8352"),
    ("de", "Der Tresor lässt sich mit 4471 öffnen", "4471"),
    ("fr", "le cadenas s'ouvre avec 5120", "5120"),
    ("pt", "o cadeado abre com 3310", "3310"),
    ("it", "il lucchetto si apre con 7724", "7724"),
    # it is what opens the device
    ("en", "To open the shed padlock it's 2208", "2208"),
    ("es", "para abrir la caja fuerte es 6610", "6610"),
    ("de", "Zum Öffnen des Tresors: 4719", "4719"),
    ("fr", "pour ouvrir le portail c'est 7781", "7781"),
    ("pt", "Nada de registar: pra abrir o cadeado da bicicleta é 3851", "3851"),
    ("it", "per aprire il cancello è 5561", "5561"),
]

# the same devices and verbs with a time, a price, a count, a house or bus number
CONTROLS = [
    "the gate opens at 7:30",
    "the shop opens with 3 staff",
    "the bus 42 stops at the door",
    "I live at 4826 Elm Street, the side door is round the back",
    "the door needs 2 coats of paint",
    "the safe takes 1200 euros to fix",
    "the keypad wants new batteries",
    "the alarm has 3 sensors",
    "to open the account it's 500 dollars",
    "la tienda abre a las 9:30",
    "la puerta necesita 2 manos de pintura",
    "el teclado pide pilas nuevas",
    "para abrir la cuenta es 500 euros",
    "vivo en el 4826 de la calle Mayor",
    "das Tor geht um 7:30 auf",
    "Die Alarmanlage hat 3 Sensoren",
    "Der Bus 42 hält vor der Tür",
    "die Tür geht mit dem Schlüssel auf",
    "Der Tresor kostet 1200 Euro",
    "le portail ouvre à 7h30",
    "le magasin ouvre avec 3 employés",
    "pour ouvrir le compte c'est 500 euros",
    "le coffre a 3 tiroirs",
    "le bus 42 s'arrête devant la porte",
    "o portão abre às 7:30",
    "a loja abre com 3 funcionários",
    "pra abrir a conta é 500 reais",
    "o cofre tem 3 gavetas",
    "il cancello apre alle 7:30",
    "il negozio apre con 3 commessi",
    "per aprire il conto è 500 euro",
    "la cassaforte ha 3 ripiani",
    "l'autobus 42 si ferma davanti alla porta",
    "Marco porta 300 sedie alla festa",
]


@pytest.mark.parametrize("lang,text,value", SECRETS, ids=[f"{s[0]}-{i}" for i, s in enumerate(SECRETS)])
def test_a_code_a_device_takes_or_opens_with_is_withheld(lang: str, text: str, value: str) -> None:
    assert_withheld(text, value, "code")


@pytest.mark.parametrize("text", CONTROLS)
def test_a_time_price_count_or_number_beside_a_device_stays(text: str) -> None:
    assert_kept(text)
