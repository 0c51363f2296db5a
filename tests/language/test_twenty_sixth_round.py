"""Twenty-sixth-round families of the lexicon reader (issue 35), written from holdout21's and
holdout22's misses (development data now) and measured on sentences written for this file
before the mechanism was (none of them is in a split; same author as the mechanism, so weaker
evidence than a blind split): a remark of the moment on tonight's weather ("Stasera c'è una
nebbia che …") or on a breakdown that happened again ("il Wi-Fi è saltato un'altra volta"),
nothing kept; a keep request with a courtesy closing after the fact ("…, Le sarei grata"),
the closing left out of the fact; a keep idiom before a colon ("Legatevelo al dito: …"); a
German courtesy lead joined by "und" to the keep verb ("Wenn du so lieb wärst und dir notierst,
dass …").

Each family's test counts the sentences read right per language and holds the count measured
when the mechanism was committed (docs/language.md, "Twenty-sixth round"); the controls are
sentences that must keep their reading."""

from __future__ import annotations

from openclaw_tui.language.reading import Intent
from tests.language.family_checks import (control_test, drops, fact_table_test, intent_table_test, keeps,
                                          keeps_nothing, reads_as, reads_other_than)
from tests.language.family_floor import LANGS, all_read, floor_test



# tonight's weather, or a breakdown again: a remark of the moment, nothing kept
MOMENT: dict[str, list[str]] = {
    "en": ["ugh, the fog is so thick tonight I can barely see the gate",
           "the wind is howling tonight, the whole caravan is shaking",
           "argh, the internet dropped out again"],
    "es": ["Esta noche hay una niebla que no se ve ni la farola",
           "Uf, el wifi se ha caído otra vez",
           "Esta noche hace un frío que pela en la furgo"],
    "de": ["Heute Abend ist ein Nebel, man sieht die Hand vor Augen nicht",
           "Mist, das WLAN ist schon wieder weg",
           "Heute Nacht ist ein Sturm, das ganze Zelt wackelt"],
    "fr": ["Ce soir il y a un brouillard à couper au couteau",
           "Pff, le wifi a encore sauté",
           "Ce soir le vent souffle à décorner les bœufs"],
    "pt": ["Esta noite está um nevoeiro que não se vê nada",
           "Bolas, a internet caiu outra vez",
           "Hoje à noite está um vento que nem se aguenta"],
    "it": ["Stasera tira un vento che porta via tutto",
           "Uffa, la connessione è caduta di nuovo",
           "Stanotte c'è una nebbia che non si vede il cancello"],
}
MOMENT_CONTROLS = {  # an appointment tonight, a habit, a standing fact about the weather or the net: kept
    "Tonight at 8 I have the dentist": "Tonight at 8",
    "Every winter we go skiing in Adelboden": "Adelboden",
    "Mannaggia, I forgot: the plumber comes Tuesday at 9": "Tuesday at 9",
    "Esta noche a las 9 tengo el dentista": "a las 9",
    "Heute Abend um 8 kommt der Schornsteinfeger": "Schornsteinfeger",
    "Ce soir à 20 h j'ai le dentiste": "20 h",
    "Hoje à noite às 20h tenho o dentista": "20h",
    "Stasera alle 20 c'è la riunione di condominio": "alle 20",
    "The wind turbine on our roof was installed in 2019": "2019",
    "Stasera alle 21 passa il tecnico per la connessione di nuovo": "alle 21",
}


test_an_appointment_or_lasting_fact_stays_kept = fact_table_test(MOMENT_CONTROLS)
# where the password is: kept, or withheld as a secret; never a remark of the moment
test_the_wifi_password_is_no_remark = control_test(
    ["The Wi-Fi password is on the router", "La password del Wi-Fi è sotto il modem"], reads_other_than(Intent.SMALL_TALK))


# a keep request with a courtesy closing after the fact: remember, the fact kept, the closing not
CLOSING: dict[str, list[tuple[str, str, str]]] = {
    "en": [("Could you note that the vet is on 3 May at 10, I'd be ever so grateful", "3 May at 10", "grateful"),
           ("Please note that the boiler service is on 3 May, I'd be really grateful", "boiler service is on 3 May", "grateful")],
    "es": [("Anota que la revisión de la caldera es el 3 de mayo, te lo agradecería mucho", "3 de mayo", "agradecería"),
           ("Apunta que el dentista es el 9 de abril, se lo agradecería muchísimo", "9 de abril", "agradecería")],
    "de": [("Notier dir bitte, dass der Tierarzt am 3. Mai um 10 ist, wär super", "3. Mai um 10", "super"),
           ("Merk dir, dass die Heizung am 3. Mai gewartet wird, ich wär dir echt dankbar", "3. Mai", "dankbar")],
    "fr": [("Note que le véto est le 3 mai à 10 h, je vous en serais reconnaissant", "3 mai à 10 h", "reconnaissant"),
           ("Retiens que la chaudière est révisée le 3 mai, je t'en serais reconnaissante", "3 mai", "reconnaissante")],
    "pt": [("Anota que o veterinário é a 3 de maio às 10, agradecia", "3 de maio às 10", "agradecia"),
           ("Toma nota que a revisão da caldeira é a 3 de maio, agradecia-lhe imenso", "3 de maio", "agradecia")],
    "it": [("Segna che il veterinario è il 3 maggio alle 10, le sarei grato", "3 maggio alle 10", "grato"),
           ("Prenda nota che la caldaia si revisiona il 3 maggio, Le sarei molto grata", "3 maggio", "grata")],
}
CLOSING_CONTROLS = {  # gratitude leading a question, or beside a remark: no keep request
    "Le sarei grata se mi dicesse quando apre la palestra": Intent.REMEMBER,
    "I'd be grateful, the vet was lovely": Intent.REMEMBER,
    "Je vous en serais reconnaissant, le véto était adorable": Intent.REMEMBER,
}

# a keep idiom before a colon: remember, the fact after the colon kept
IDIOM: dict[str, list[tuple[str, str]]] = {
    "en": [("Get this into your head: the vet is closed on Mondays", "the vet is closed on Mondays"),
           ("Burn this into your memory: the bins go out on Wednesday night", "the bins go out on Wednesday night")],
    "es": [("Grábatelo a fuego: el veterinario cierra los lunes", "el veterinario cierra los lunes"),
           ("Métete esto en la cabeza: la farmacia de guardia está en la calle Real", "la farmacia de guardia está en la calle Real")],
    "de": [("Schreib dir das hinter die Ohren: der Tierarzt hat montags zu", "der Tierarzt hat montags zu"),
           ("Präg dir das gut ein: der Bus fährt sonntags erst um 9", "der Bus fährt sonntags erst um 9")],
    "fr": [("Mets-toi ça dans le crâne : le véto ferme le lundi", "le véto ferme le lundi"),
           ("Grave-toi ça dans le crâne : la pharmacie de garde est rue Victor Hugo", "la pharmacie de garde est rue Victor Hugo")],
    "pt": [("Mete isso na cabeça: o veterinário fecha à segunda", "o veterinário fecha à segunda"),
           ("Grava isso na cabeça: a farmácia de serviço fica na Rua Direita", "a farmácia de serviço fica na Rua Direita")],
    "it": [("Legatevelo al dito: la palestra apre alle 7 di domenica", "la palestra apre alle 7 di domenica"),
           ("Legatela al dito: il veterinario chiude il lunedì", "il veterinario chiude il lunedì")],
}
IDIOM_CONTROLS = {  # the idiom's words with no colon after them: no keep request
    "Il nastro legatelo al dito del pupazzo": Intent.STATEMENT,
}

# a courtesy lead joined to the keep verb ("be so kind and note", "tan amable de apuntar", "so lieb
# wärst und dir notierst", "assez gentil pour noter", "tão querido de anotar", "così gentile da
# segnarti"): remember, the fact kept
JOINED_LEAD: dict[str, list[tuple[str, str]]] = {
    "en": [("If you'd be so kind as to note that the vet is closed on Mondays, I'd be grateful", "vet is closed on Mondays"),
           ("If you could be a dear and jot down that the boiler service is on 3 May", "boiler service is on 3 May")],
    "es": [("Si fueras tan amable de apuntar que el veterinario cierra los lunes, te lo agradecería", "veterinario cierra los lunes"),
           ("Si fuera tan amable de anotar que la caldera se revisa el 3 de mayo", "caldera se revisa el 3 de mayo")],
    "de": [("Wenn du so lieb wärst und dir notierst, dass der Tierarzt montags zu hat, wär das super", "Tierarzt montags zu hat"),
           ("Wenn Sie so nett wären und sich notieren, dass die Heizung im März gewartet wird", "Heizung im März gewartet wird")],
    "fr": [("Si tu étais assez gentil pour noter que le véto ferme le lundi, ce serait top", "véto ferme le lundi"),
           ("Si vous aviez la gentillesse de noter que la chaudière est révisée le 3 mai", "chaudière est révisée le 3 mai")],
    "pt": [("Se fosses tão querido de anotar que o veterinário fecha à segunda", "veterinário fecha à segunda"),
           ("Se fosse tão gentil de anotar que a caldeira é revista a 3 de maio, agradecia", "caldeira é revista a 3 de maio")],
    "it": [("Se fossi così gentile da segnarti che il veterinario chiude il lunedì", "veterinario chiude il lunedì"),
           ("Se fosse così cortese da annotare che la caldaia si revisiona il 3 maggio, le sarei grata", "caldaia si revisiona il 3 maggio")],
}
JOINED_LEAD_CONTROLS = [  # the courtesy lead before a request to do something else: no keep request
    "Wenn du so lieb wärst und den Müll rausbringst, wär das super",
    "Si fueras tan amable de cerrar la puerta",
    "If you could be a dear and close the door",
    "Se fossi così gentile da chiudere la porta",
]


# a keep imperative to more than one listener (or in dialect: "Segnate che …"), after a courtesy
# question or alone: remember, the fact kept
PLURAL: dict[str, list[tuple[str, str]]] = {
    "en": [("Can you do us a favour? Note that the gym opens at 7 on Sundays", "gym opens at 7 on Sundays"),
           ("Could you do me a kindness? Note that the mechanic is closed on Mondays", "mechanic is closed on Mondays")],
    "es": [("¿Nos hacéis un favor? Apuntad que el gimnasio abre a las 7 los domingos", "gimnasio abre a las 7 los domingos"),
           ("Apunten que la farmacia de guardia está en la calle Real", "farmacia de guardia está en la calle Real")],
    "de": [("Könnt ihr mir einen Gefallen tun? Merkt euch, dass das Fitnessstudio sonntags um 7 aufmacht", "Fitnessstudio sonntags um 7 aufmacht"),
           ("Notiert euch, dass der Bus sonntags erst um 9 fährt", "Bus sonntags erst um 9 fährt")],
    "fr": [("Vous me rendez un service ? Notez que la salle de sport ouvre à 7 h le dimanche", "salle de sport ouvre à 7 h le dimanche"),
           ("Retenez bien que la pharmacie de garde est rue Victor Hugo", "pharmacie de garde est rue Victor Hugo")],
    "pt": [("Anotem que a piscina abre às 7 ao domingo", "piscina abre às 7 ao domingo"),
           ("Tomem nota de que a farmácia de serviço fica na Rua Direita", "farmácia de serviço fica na Rua Direita")],
    "it": [("Me fate 'na cortesia? Segnatevi che la palestra apre alle 7 la domenica", "palestra apre alle 7 la domenica"),
           ("Prendete nota che la farmacia di turno è in via Garibaldi", "farmacia di turno è in via Garibaldi")],
}
PLURAL_CONTROLS = [  # the same verbs told in the past, asked, or with no "that": no keep request
    "Segnate un gol e vinciamo",
    "Anotaron que el mecánico cierra los lunes",
    "Ihr habt euch gemerkt, dass das Studio um 7 aufmacht",
    "Avete segnato che la palestra apre alle 7?",
    "Anotaram que a piscina abre às 7?",
]


test_a_told_or_asked_plural_is_no_keep_request = control_test(PLURAL_CONTROLS, reads_other_than(Intent.REMEMBER))
test_gratitude_beside_no_keep_request_is_none = control_test(sorted(CLOSING_CONTROLS), reads_other_than(Intent.REMEMBER))
test_the_idiom_without_a_colon_is_none = intent_table_test(IDIOM_CONTROLS)
test_a_courtesy_lead_before_another_request_keeps_nothing_asked = control_test(
    JOINED_LEAD_CONTROLS, reads_other_than(Intent.REMEMBER))


FAMILIES = {
    "moment": (MOMENT, keeps_nothing),
    "closing": (CLOSING, reads_as(Intent.REMEMBER) & keeps(1) & drops(2)),
    "idiom": (IDIOM, reads_as(Intent.REMEMBER) & keeps(1)),
    "joined_lead": (JOINED_LEAD, reads_as(Intent.REMEMBER) & keeps(1)),
    "plural": (PLURAL, reads_as(Intent.REMEMBER) & keeps(1)),
}
FLOOR = {
    "moment": all_read(MOMENT),
    "closing": all_read(CLOSING),
    "idiom": all_read(IDIOM),
    "joined_lead": all_read(JOINED_LEAD),
    "plural": all_read(PLURAL),
}

test_family_holds_its_measured_count = floor_test(FAMILIES, FLOOR, list(LANGS))
