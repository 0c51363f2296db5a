"""A secret named by a word after a verb that asks for it, with no connector between the name
and its value (issue 35): "o banco pede a senha 739104 ao entrar" left the digits in plain text.
The verbs are data (secrets.json, each table's "asked_by"), in all six tabled languages. A
number after the same verbs that names no secret (a room, a price, an order) stays as typed."""

from __future__ import annotations

import pytest

from tests.language.secret_cases import assert_kept, assert_withheld

# (text, the secret value in it, its kind)
SECRETS = [
    ("the app asks for the password 739104", "739104", "password"),
    ("My bank always asks for the password 582913 when I log in.", "582913", "password"),
    ("The gate keypad wants the code 4417, then press the bell.", "4417", "code"),
    ("the router requires the password 90817263", "90817263", "password"),
    ("la app pide la contraseña 739104", "739104", "password"),
    ("el banco me pide la clave 482910 cada vez", "482910", "password"),
    ("la puerta del garaje pide el código 5521", "5521", "code"),
    ("die App verlangt das Passwort 739104", "739104", "password"),
    ("Die Bank fragt jedes Mal nach dem Passwort 602184.", "602184", "password"),
    ("das Schloss will den Code 3390", "3390", "code"),
    ("l'appli demande le mot de passe 739104", "739104", "password"),
    ("la banque me demande toujours le mot de passe 215907 à la connexion", "215907", "password"),
    ("le portail demande le code 8842", "8842", "code"),
    ("o banco pede a senha 739104 ao entrar", "739104", "password"),
    ("o aplicativo pede a senha 620418 toda vez", "620418", "password"),
    ("o portão pede o código 7713", "7713", "code"),
    ("il sito chiede la password 739104", "739104", "password"),
    ("la banca mi chiede sempre la password 551207 all'accesso", "551207", "password"),
    ("il cancello chiede il codice 6604", "6604", "code"),
]


@pytest.mark.parametrize(("text", "value", "kind"), SECRETS)
def test_a_secret_named_after_an_asking_verb_is_withheld(text: str, value: str, kind: str) -> None:
    assert_withheld(text, value, kind)


# the same verbs before a number that unlocks nothing, or a secret's name with no value after it
CONTROLS = [
    "the hotel asks for the room number 1204 at check-in",
    "the shop asks for the price 25 euros per box",
    "the site asks for the order number 558812",
    "the app asks for the password every month",
    "the app asks for the password twice 2 times a day",
    "el hotel pide el número de habitación 1204",
    "la tienda pide el precio 30 euros",
    "la web pide el número de pedido 558812",
    "das Hotel verlangt die Zimmernummer 1204",
    "der Laden verlangt den Preis 25 Euro",
    "die Seite fragt nach der Bestellnummer 558812",
    "l'hôtel demande le numéro de chambre 1204",
    "la boutique demande le prix 25 euros",
    "le site demande le numéro de commande 558812",
    "o hotel pede o número do quarto 1204",
    "a loja pede o preço 25 reais",
    "o site pede o número do pedido 558812",
    "l'albergo chiede il numero della camera 1204",
    "il negozio chiede il prezzo 25 euro",
    "il sito chiede il numero d'ordine 558812",
]


@pytest.mark.parametrize("text", CONTROLS)
def test_a_number_after_the_same_verbs_that_names_no_secret_stays(text: str) -> None:
    assert_kept(text)
