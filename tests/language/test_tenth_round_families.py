"""Tenth-round phrase families of the lexicon reader (issue 35, from the wide split's misses):
each row is a family member no split holds, in the six tabled languages, with negatives that
must not fire."""

from __future__ import annotations

import pytest

from openclaw_tui.language.detect import detect
from openclaw_tui.language.reading import Intent
from tests.language.family_checks import drops, expect, keeps, keeps_something, reads_as, reads_other_than, small_talk


@pytest.mark.parametrize("text,secret", [
    # use it once, then forget or delete it
    ("Card number 4539 1488 0343 6467, book the hotel and then delete it afterwards", "4539 1488 0343 6467"),
    ("El PIN del trastero es 4420, bórralo en cuanto abras", "4420"),
    ("Der Safecode ist 8813, lösch ihn, sobald du fertig bist", "8813"),
    ("Le code du garage c'est 5521, oublie-le dès que tu as ouvert", "5521"),
    ("O código do cofre é 6674, apaga assim que abrires", "6674"),
    ("Il codice del box è 3309, usalo e poi cancellalo", "3309"),
    # out of / not for your notes
    ("Fuera de mis notas: la clave del router es Limon_8812", "Limon_8812"),
    ("Nichts für deine Notizen: das WLAN-Passwort ist Birne_4471", "Birne_4471"),
    ("Hors de tes notes : le mot de passe du wifi c'est Poire_2290", "Poire_2290"),
    ("Fora das tuas notas: a senha do wifi é Pera_6610", "Pera_6610"),
    ("Fuori dai tuoi appunti: la password del wifi è Mela_7720", "Mela_7720"),
    # logging verbs, Swiss and chat negations, "woe if you save it"
    ("token ghp_Q2w8Rt5Yu1Io9Pa3Sd7Fg4Hj6Kl0Zx2Cv5Bn, bitte nicht mitloggen", "ghp_"),
    ("Ned abspeichere: s'Passwort isch Chäs_5512", "Chäs_5512"),
    ("nn me lo segnare: la password è Pesca_9931", "Pesca_9931"),
    ("Wehe, du speicherst das: PIN 7741", "7741"),
    ("Gare à toi si tu le notes : PIN 3318", "3318"),
    ("Ai de ti se guardares isto: PIN 5527", "5527"),
    # languages without a table
    ("Ne mentsd el: a PIN kód 4471", "4471"),
    ("Не записывай это: пароль Zvezda_2231", "Zvezda_2231"),
])
def test_refusals_keep_nothing(text: str, secret: str) -> None:
    expect((text, secret), reads_as((Intent.DO_NOT_KEEP, Intent.UNKNOWN)) & drops(1, fold=False))


@pytest.mark.parametrize("text", [
    "The changes stay without saving until Friday at 5",
    "Ich hab den Code danach vergessen, aber Lisa wusste ihn, sie wohnt in Köln",
    "Fuera de casa tengo el coche, en la calle Mayor 12",
])
def test_look_alikes_are_no_refusal(text: str) -> None:
    expect(text, reads_other_than(Intent.DO_NOT_KEEP))


@pytest.mark.parametrize("text,fact", [
    ("Ignore what I said, the party starts at 8", "the party starts at 8"),
    ("Olvida lo que te dije, la cena es el sábado a las 9", "la cena es el sábado a las 9"),
    ("Streich das von vorhin, das Treffen ist am 4. Mai", "das Treffen ist am 4. Mai"),
    ("Laisse tomber ce que j'ai dit, la réunion est à 10 h", "la réunion est à 10 h"),
    ("Esquece o que eu te disse, o jantar é às 20h", "o jantar é às 20h"),
    ("Lascia perdere quello che ti ho detto, la cena è alle 21", "la cena è alle 21"),
    ("scusa ho detto una sciocchezza, il corso è il giovedì alle 18", "il corso è il giovedì alle 18"),
])
def test_forget_what_i_said_then_a_fact_corrects(text: str, fact: str) -> None:
    expect((text, fact), reads_as(Intent.CORRECTION) & keeps(1))


@pytest.mark.parametrize("text", [
    "Forget what I said.",
    "Oublie ce que j'ai dit.",
    "Forget what I said, my PIN is 4821",  # a secret: nothing kept
])
def test_forget_what_i_said_alone_refuses(text: str) -> None:
    expect(text, reads_as(Intent.DO_NOT_KEEP))


@pytest.mark.parametrize("text", [
    "Ok, I'm calling it a night. Sleep well!",
    "Bueno, me voy a dormir ya. ¡Que descanses!",
    "So, ich geh jetzt ins Bett. Schlaf gut!",
    "Bon, je vais dormir. À demain !",
    "Bom, vou me deitar. Até amanhã!",
    "Vabbè, vado a letto. Notte!",
    "I hope you had a relaxing weekend",
    "Ojalá que hayas tenido un buen día",
    "Ich hoffe, du hattest einen entspannten Abend",
    "J'espère que tu as passé une belle soirée",
    "Espero que o teu fim de semana esteja a correr bem",
    "Spero che tu abbia passato una bella serata",
    "You saved my bacon, thanks!",
    "Sos un genio, gracias",
    "Du hast mir den Abend gerettet",
    "T'es un ange, merci",
    "Você salvou meu dia, valeu",
    "Mi hai salvato la serata, grazie",
])
def test_goodnights_wishes_and_thanks_are_small_talk(text: str) -> None:
    expect(text, small_talk(facts=False))


@pytest.mark.parametrize("text", [
    "I'm off to bed at 10 every night because I start work at 6",
    "Me voy a dormir a casa de mi hermana Lucía el sábado",
])
def test_a_goodnight_that_names_something_is_kept(text: str) -> None:
    expect(text, keeps_something)


@pytest.mark.parametrize("text", [
    "it won't stop snowing in Leeds",
    "hoy no para de llover en Bilbao",
    "In München hört es nicht auf zu schneien",
    "il n'arrête pas de pleuvoir à Brest",
    "não para de chover em Braga",
    "anche oggi a Bergamo non la smette di nevicare",
    "haha the dog just ate my sandwich",
    "mdr le chien vient de renverser sa gamelle",
    "kkkk o cachorro comeu meu chinelo de novo",
])
def test_remarks_of_the_moment_are_not_kept(text: str) -> None:
    expect(text, reads_as(Intent.STATEMENT, facts=False))


@pytest.mark.parametrize("text,fact,clause", [
    ("My bus gets in at 5 can I still make the 5:20 ferry", "My bus gets in at 5", "can I"),
    ("We have three cats which vet should we try", "We have three cats", "which vet"),
    ("Tenemos tres gatos qué veterinario nos recomiendas", "Tenemos tres gatos", "qué veterinario"),
    ("Mein Bus kommt um 5 erwisch ich die Fähre um 5:20", "Mein Bus kommt um 5", "erwisch"),
    ("On a trois chats quel vétérinaire on devrait essayer", "On a trois chats", "quel"),
    ("Temos três gatos que veterinário devemos procurar", "Temos três gatos", "que veterinário"),
    ("Abbiamo tre gatti che veterinario ci consigli", "Abbiamo tre gatti", "che veterinario"),
])
def test_an_unmarked_question_after_a_statement_asks(text: str, fact: str, clause: str) -> None:
    expect((text, fact, clause), reads_as(Intent.QUESTION, asks=True) & drops(2))


@pytest.mark.parametrize("text", [
    "We bought the car which we should have bought years ago",
    "El coche que nos recomiendas es muy caro",
    "La macchina che ci conviene è la Panda",
    "My shift ends at 6 I can pick up the kids",
])
def test_relative_clauses_ask_nothing(text: str) -> None:
    expect(text, reads_other_than(Intent.QUESTION))


@pytest.mark.parametrize("text,fact", [
    ("The car keys are on the hook behind the front door", "The car keys are on the hook"),
    ("Los papeles del seguro están guardados en el cajón de la entrada", "Los papeles del seguro"),
    ("Der Ersatzschlüssel liegt unter der Fußmatte", "Der Ersatzschlüssel liegt"),
    ("Les passeports sont dans la boîte à chaussures du placard", "Les passeports sont"),
    ("Os documentos ficam na gaveta da secretária", "Os documentos ficam"),
    ("Il telecomando è sempre nel cassetto del mobile", "Il telecomando"),
    ("I'm on statins since March", "I'm on statins"),
    ("Estoy tomando antidepresivos desde enero", "antidepresivos"),
    ("Ich nehme Blutdrucktabletten", "Blutdrucktabletten"),
    ("Je prends de l'insuline le soir", "insuline"),
    ("Tomo insulina de manhã", "insulina"),
    ("Prendo la pillola da due anni", "pillola"),
    ("Milch trink ich gar nicht", "Milch trink ich gar nicht"),
    ("Bei Pollen muss ich immer niesen", "muss ich immer niesen"),
])
def test_where_things_are_medication_and_dislikes_are_kept(text: str, fact: str) -> None:
    expect((text, fact), keeps(1, fold=False))


@pytest.mark.parametrize("text,fact", [
    ("Could you do me a favour and note that the boiler service is on 3 May?", "boiler service"),
    ("Tu mir bitte einen Gefallen und notier dir, dass der Kurs am 3. Mai beginnt", "der Kurs am 3. Mai beginnt"),
    ("Pouvez-vous me rendre un petit service et noter que le cours commence le 3 mai ?", "le cours commence le 3 mai"),
    ("Podia fazer-me o favor de anotar que a aula começa dia 3 de maio?", "a aula começa dia 3 de maio"),
    ("cê pode anotar q a aula começa dia 3", "a aula começa dia 3"),
    ("Trag dir das bitte in deine Notizen ein: der Kurs beginnt am 3. Mai", "der Kurs beginnt am 3. Mai"),
    ("Segnalo nelle tue note: il corso inizia il 3 maggio", "il corso inizia il 3 maggio"),
    ("Pon esto en tus notas: el curso empieza el 3 de mayo", "el curso empieza el 3 de mayo"),
    ("Can you jot this down?\nThe course starts on 3 May", "The course starts on 3 May"),
    ("Tu peux noter ça ?\nLe cours commence le 3 mai", "Le cours commence le 3 mai"),
    ("Consegues anotar isto?\nA aula começa dia 3 de maio", "A aula começa dia 3 de maio"),
])
def test_remember_frames_keep(text: str, fact: str) -> None:
    expect((text, fact), reads_as(Intent.REMEMBER) & keeps(1))


@pytest.mark.parametrize("text", [
    "In groceries.md, cross off 'milk'",
    "En compras.txt tacha 'leche'",
    "Streich in einkauf.md 'Milch' ab",
    "Dans courses.md, barre « lait »",
    "No compras.md, risca 'leite'",
    "In spesa.md depenna 'latte'",
    "Renomeia notas.md para diario.md",
    "¿Me cambias la fecha en agenda.md?",
])
def test_tick_off_and_rename_are_file_changes(text: str) -> None:
    expect(text, reads_as(Intent.FILE_CHANGE))


@pytest.mark.parametrize("text", [
    "Check notes.md for typos",  # a read, no change
    "Marca de café favorita: Illy",
])
def test_read_only_and_brand_are_no_file_change(text: str) -> None:
    expect(text, reads_other_than(Intent.FILE_CHANGE))


@pytest.mark.parametrize("text", [
    "Find out what I told you about the boiler",
    "Averigua qué te dije del seguro",
    "Find mal raus, was ich zur Versicherung gesagt hab",
    "Retrouve ce que je t'ai dit sur l'assurance",
    "Descobre o que eu te disse sobre o seguro",
    "Scopri cosa ti ho detto sull'assicurazione",
])
def test_find_out_what_asks(text: str) -> None:
    expect(text, reads_as(Intent.QUESTION, asks=True))


@pytest.mark.parametrize("text,fact,lead", [
    ("Only for me, ok? My overdraft is at 900", "My overdraft is at 900", "Only for me"),
    ("Solo para ti, ¿vale? Debo 900 € al banco", "Debo 900 € al banco", "Solo para ti"),
    ("Nur für dich, okay? Mein Dispo liegt bei 900 €", "Mein Dispo liegt bei 900 €", "Nur für dich"),
    ("Juste pour toi, ok ? Mon découvert est à 900 €", "Mon découvert est à 900 €", "Juste pour toi"),
    ("Só para ti, ok? O meu descoberto está em 900 €", "O meu descoberto está em 900 €", "Só para ti"),
    ("Solo per te, ok? Il mio scoperto è a 900 €", "Il mio scoperto è a 900 €", "Solo per te"),
])
def test_just_for_you_leads_are_private(text: str, fact: str, lead: str) -> None:
    expect((text, fact, lead), reads_as(asks=False, private=True) & keeps(1, fold=False) & drops(2, fold=False))


@pytest.mark.parametrize("text,lang", [
    ("Не сохраняй это: ключ sk-a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0", "und"),
    ("por qué se me pega el arroz", "es"),
    ("Köszönöm szépen, holnap találkozunk!", "hu"),
])
def test_detection(text: str, lang: str) -> None:
    assert detect(text) == lang
