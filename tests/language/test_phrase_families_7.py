"""Seventh-round phrase families of the lexicon reader (issue 35): each row is a family member
the tables must read, with negatives beside it; none is a sentence of a benchmark split."""

from __future__ import annotations

import pytest

from openclaw_tui.language.lexicon import lexicon
from openclaw_tui.language.reading import Intent
from openclaw_tui.language.sentences import split
from tests.language.family_checks import drops, expect, keeps, keeps_something, reads_as, reads_other_than


# an asking clause joined with no comma ("so", "así que", "also", "donc", "então", "quindi")
@pytest.mark.parametrize("text,fact,asked", [
    ("The movers come on the 12th so when should I book the parking permit",
     "The movers come on the 12th", "when should I book"),
    ("My flight lands at 9:40 and how long does it take to get downtown",
     "My flight lands at 9:40", "how long does it take"),
    ("La mudanza es el día 12 así que cuándo tengo que pedir el permiso",
     "La mudanza es el día 12", "cuándo tengo que pedir"),
    ("Die Umzugsfirma kommt am 12. also wann soll ich die Halteverbotszone beantragen",
     "Die Umzugsfirma kommt am 12.", "wann soll ich"),
    ("Les déménageurs viennent le 12 donc quand est-ce que je dois réserver la place",
     "Les déménageurs viennent le 12", "quand est-ce que je dois"),
    ("A mudança é dia 12 então quando devo pedir a vaga na rua",
     "A mudança é dia 12", "quando devo pedir"),
    ("Il trasloco è il 12 quindi quando devo chiedere il permesso per il furgone",
     "Il trasloco è il 12", "quando devo chiedere"),
])
def test_an_asking_clause_joined_without_a_comma_asks(text: str, fact: str, asked: str) -> None:
    expect((text, fact, asked), reads_as(Intent.QUESTION, asks=True) & keeps(1) & drops(2))


@pytest.mark.parametrize("text", [
    "My sister plays cello and so do I",
    "The rent went up in May and what's more the heating is broken",
    "Mi hermana vive en Lugo así que cuando puedo voy a verla",
    "Ich arbeite samstags und wann ich Zeit habe, gehe ich schwimmen",
    "Je travaille le samedi donc quand il fait beau je pars tôt",
])
def test_a_joined_clause_that_asks_nothing(text: str) -> None:
    expect(text, reads_as(asks=False))


# a refusal after a secret or a code: nothing of the message is kept
@pytest.mark.parametrize("text,secret", [
    ("The alarm code is 4471, no saving this", "4471"),
    ("The wifi password is Sunflower!2024, don't save it", "Sunflower!2024"),
    ("El código de la alarma es 4471, no lo retengas", "4471"),
    ("La clave del portal es Girasol!2024, no me la guardes", "Girasol!2024"),
    ("Der Alarmcode ist 4471, merk ihn dir nicht", "4471"),
    ("Das WLAN-Passwort ist Sonnenblume!2024, schreib's nicht auf", "Sonnenblume!2024"),
    ("Le code de l'alarme est 4471, ne le stocke pas", "4471"),
    ("Le mot de passe du wifi est Tournesol!2024, faut pas le noter", "Tournesol!2024"),
    ("O código do alarme é 4471, não armazene", "4471"),
    ("A senha do wifi é Girassol!2024, não guarde", "Girassol!2024"),
    ("Il codice dell'allarme è 4471, non salvarmelo", "4471"),
    ("La password del wifi è Girasole!2024, non memorizzarla", "Girasole!2024"),
])
def test_a_refusal_after_a_secret_keeps_nothing(text: str, secret: str) -> None:
    expect((text, secret), reads_as(Intent.DO_NOT_KEEP, facts=False) & drops(1, how="joined", fold=False))


@pytest.mark.parametrize("text", [
    "No saving throws in this game, the boss has 4000 HP",
    "Ich merke sie mir nicht gern, die Geburtstage meiner Neffen sind im Mai",
])
def test_words_near_a_refusal_refuse_nothing(text: str) -> None:
    expect(text, reads_other_than(Intent.DO_NOT_KEEP, facts=True))


# dotted initials and abbreviations inside names end no sentence; before an opening word they do
@pytest.mark.parametrize("lang,text,count", [
    ("en", "Our broker is at J.P. Morgan and the savings are at U.S. Bank downtown.", 1),
    ("en", "My aunt lives in St. Louis, we climbed Mt. Fuji in May.", 1),
    ("en", "I lived in the U.S. Then I moved to Lisbon.", 2),
    ("es", "La notaria es la Lic. Paula Ortega, vive en la Col. Narvarte.", 1),
    ("es", "Mi tío vive en Sta. Fe y trabaja con el Gral. Ortiz.", 1),
    ("de", "Meine Schwester wohnt in St. Gallen und arbeitet bei der U.S. Bank.", 1),
    ("fr", "Le dîner est avec Mgr. Martin à St. Malo samedi.", 1),
    ("pt", "A loja fica na Av. Sto. Amaro, perto da Sta. Cecília.", 1),
    ("pt", "O meu chefe é o Cel. Ramos, de S. Paulo.", 1),
    ("it", "Il parroco è Mons. Bianchi, la chiesa è in P.zza S. Giovanni.", 1),
    ("it", "Lavoro per la F.lli Rossi a Bergamo. Il capo è severo.", 2),
])
def test_abbreviations_inside_names_end_no_sentence(lang: str, text: str, count: int) -> None:
    assert len(split(text, lexicon(lang))) == count, split(text, lexicon(lang))


# remarks of the moment: traffic again, just back from somewhere, worn out right now
@pytest.mark.parametrize("text", [
    "The ring road is jammed again",
    "I'm wiped out right now",
    "La M-40 está atascada otra vez",
    "Vengo ahora del gimnasio, estoy reventado",
    "Die A8 steht schon wieder",
    "Bin grad vom Training zurück, total platt",
    "Je rentre à l'instant du foot, j'ai les jambes en compote",
    "La rocade est encore bouchée",
    "Nossa, a Dutra tá parada de novo",
    "Cheguei agora do Continente e esqueci-me do leite",
    "Estou um caco hoje",
    "Rientrata ora dalla palestra, ho le gambe a pezzi",
    "Appena tornato dal lavoro, sono cotto",
    "La tangenziale è ferma di nuovo",
    "Ora sono distrutta, domani ne parliamo",
])
def test_remarks_of_the_moment_are_not_kept(text: str) -> None:
    expect(text, reads_as(Intent.STATEMENT, facts=False))


@pytest.mark.parametrize("text", [
    "Sono arrivato dal Marocco nel 2015",
    "Tutti i martedì torno dal calcetto alle 22",
    "Todas as terças volto do ginásio às 21h",
    "Cheguei de Angola em 2010",
    "Mi hermano trabaja en la M-30 de noche",
    "Je travaille au périph depuis 2019",
])
def test_lasting_facts_beside_the_same_words_are_kept(text: str) -> None:
    expect(text, keeps_something)


# "don't forget that" said colloquially, the negation dropped or doubled, keeps what follows
@pytest.mark.parametrize("text,fact", [
    ("Dont forget that the bins go out every other Tuesday", "the bins go out every other Tuesday"),
    ("Don't you forget that the vet is on the 14th", "the vet is on the 14th"),
    ("Que no se te olvide que el veterinario es el 14", "el veterinario es el 14"),
    ("Vergiss ja nicht, dass der Tierarzt am 14. ist", "der Tierarzt am 14. ist"),
    ("Oublie pas que le véto, c'est le 14", "le véto, c'est le 14"),
    ("Faut pas oublier que le véto est le 14", "le véto est le 14"),
    ("Não esquece que o veterinário é dia 14", "o veterinário é dia 14"),
    ("Non ti scordare che il veterinario è il 14", "il veterinario è il 14"),
])
def test_colloquial_dont_forget_keeps(text: str, fact: str) -> None:
    expect((text, fact), reads_as(Intent.REMEMBER) & keeps(1))


@pytest.mark.parametrize("text", [
    "I didn't forget that my sister lives in Lyon",
    "J'oublie pas que ma sœur habite à Lyon",
])
def test_not_forgetting_told_of_oneself_is_a_statement(text: str) -> None:
    expect(text, reads_as(Intent.STATEMENT, facts=True))


# "forget what I'm about to tell you": nothing after it is kept; "don't forget what I told you"
# is no refusal
@pytest.mark.parametrize("text", [
    "Forget what I'm about to tell you: I'm quitting in March",
    "Olvida lo que te voy a contar: dejo el trabajo en marzo",
    "Vergiss gleich wieder, was ich dir jetzt erzähle: ich kündige im März",
    "Oublie ce que je vais te raconter : je démissionne en mars",
    "Esquece o que eu vou te contar: vou me demitir em março",
    "Dimentica quello che sto per dirti: mi licenzio a marzo",
])
def test_forget_what_i_am_about_to_say_keeps_nothing(text: str) -> None:
    expect(text, reads_as(Intent.DO_NOT_KEEP, facts=False))


@pytest.mark.parametrize("text", [
    "Dont forget what I told you about the cabin?",
    "Vergiss nicht, was ich dir über die Hütte gesagt habe?",
])
def test_dont_forget_what_i_said_is_no_refusal(text: str) -> None:
    expect(text, reads_other_than(Intent.DO_NOT_KEEP))
