"""Twenty-fifth-round families of the lexicon reader (issue 35), written from holdout21's and
holdout22's misses (development data now) and measured on sentences written for this file
before the mechanism was (none of them is in a split; same author as the mechanism, so weaker
evidence than a blind split): a statement joined with no mark to a request put to the listener
("… on Saturday can you suggest a pub …"): a question, the statement kept; a refusal AFTER the content ("…, but you forget that", "… — don't
save either of those", "… No written trace, ok"): a refusal, nothing of the content kept.

Each family's test counts the sentences read right per language and holds the count measured
when the mechanism was committed; the controls are sentences that must keep their reading."""

from __future__ import annotations

from openclaw_tui.language.reading import Intent
from tests.language.family_checks import control_test, drops, keeps, reads_as, reads_other_than, withholds
from tests.language.family_floor import LANGS, all_read, floor_test


# a refusal after the content: do_not_keep, the content (the case's second item) in no fact
REFUSAL_AFTER: dict[str, list[tuple[str, str]]] = {
    "en": [("The spare key is under the blue flowerpot - don't save either of those", "flowerpot"),
           ("My landlord wants to sell the flat in June. No written trace, ok?", "landlord"),
           ("The alarm code is 7714 and the shed lock is 2280, don't store any of those", "7714")],
    "es": [("Mi casero quiere vender el piso en junio, pero eso lo olvidas", "casero"),
           ("La llave de repuesto está debajo de la maceta azul. Sin rastro escrito, ¿eh?", "maceta"),
           ("El código de la alarma es 7714 y el del trastero 2280, no guardes ninguno de los dos", "7714")],
    "de": [("Mein Vermieter will die Wohnung im Juni verkaufen, aber das vergisst du gleich", "vermieter"),
           ("Der Ersatzschlüssel liegt unter dem blauen Blumentopf. Keine schriftliche Spur, ja?", "blumentopf"),
           ("Der Alarmcode ist 7714 und der Kellercode 2280, speicher keinen davon", "7714")],
    "fr": [("Mon proprio veut vendre l'appart en juin, mais ça tu l'oublies", "proprio"),
           ("La clé de secours est sous le pot de fleurs bleu. Pas de trace écrite, hein", "pot de fleurs"),
           ("Le code de l'alarme est 7714 et celui de la cave 2280, n'en garde aucun", "7714")],
    "pt": [("O meu senhorio quer vender o apartamento em junho, mas isso tu esqueces", "senhorio"),
           ("A chave suplente está debaixo do vaso azul. Sem registo escrito, ok?", "vaso"),
           ("O código do alarme é 7714 e o da arrecadação 2280, não guardes nenhum dos dois", "7714")],
    "it": [("Il mio padrone di casa vuole vendere l'appartamento a giugno, ma questo te lo dimentichi", "padrone"),
           ("La chiave di scorta è sotto il vaso blu. Nessuna traccia scritta, eh", "vaso"),
           ("Il codice dell'allarme è 7714 e quello della cantina 2280, non salvare nessuno dei due", "7714")],
}
# someone forgetting, a trace that is not writing: they keep their reading (not a refusal)
REFUSAL_AFTER_CONTROLS = (
    "I forgot my umbrella, but the meeting is at 3",
    "Ma mère oublie souvent ses clés, mais tu l'oublies aussi",
    "Mi abuela olvida las fechas, y tú lo olvidas también",
    "Mein Opa vergisst oft Termine, und du vergisst sie auch",
    "A minha avó esquece as datas e tu esqueces também",
    "Mia nonna dimentica le date e anche tu le dimentichi",
    "The hikers left no trace on the mountain",
)

test_someone_forgetting_is_no_refusal = control_test(REFUSAL_AFTER_CONTROLS, reads_other_than(Intent.DO_NOT_KEEP))

# a private lead joined to a refusal by "and": the refusal wins, nothing kept, not a private fact
PRIVATE_THEN_REFUSAL: dict[str, list[tuple[str, str]]] = {
    "en": [("Between you and me and don't write it down: my brother is moving to Oslo", "oslo")],
    "es": [("Que quede entre tú y yo y no lo anotes: mi hermano se muda a Oslo", "oslo"),
           ("Entre nosotros y no lo apuntes: mi socio deja la empresa en mayo", "socio")],
    "de": [("Unter uns, und schreib's nicht auf: mein Bruder zieht nach Oslo", "oslo")],
    "fr": [("Entre nous, et ne le note pas : mon frère déménage à Oslo", "oslo")],
    "pt": [("Cá entre nós e não anotes: o meu irmão vai mudar-se para Oslo", "oslo")],
    "it": [("Tra noi e non segnarlo: mio fratello si trasferisce a Oslo", "oslo")],
}
PRIVATE_CONTROLS = (  # a private lead alone: the fact kept, marked private
    "Entre tú y yo, mi hermano se muda a Oslo",
    "Between you and me, my brother is moving to Oslo",
)

test_a_private_lead_alone_keeps_its_fact = control_test(PRIVATE_CONTROLS, reads_as(private=True, facts=True))

# a statement joined with no mark to a request put to the listener ("can you suggest", "me
# recomiendas", "tu me conseilles") or a deliberative "where should we": a question, the
# statement (second item) kept, the asking clause (third item) not
STATEMENT_THEN_ASK: dict[str, list[tuple[str, str, str]]] = {
    "en": [("My uncle Ray is over from Cork on Saturday can you suggest a pub with live music", "over from cork", "suggest"),
           ("My brother lands in Leeds on Friday where should we take him for dinner", "lands in leeds", "where should")],
    "es": [("Mi tío llega de Rosario el sábado me recomiendas algún bar con música en vivo", "llega de rosario", "recomiendas"),
           ("Mi suegra viene de Cádiz en mayo me aconsejas un hotel tranquilo", "viene de cádiz", "aconsejas")],
    "de": [("Mein Onkel kommt am Samstag aus Graz kannst du mir eine Kneipe mit Livemusik empfehlen", "aus graz", "empfehlen"),
           ("Meine Tante besucht uns im Mai wohin sollen wir mit ihr essen gehen", "besucht uns", "wohin")],
    "fr": [("Mon oncle arrive de Namur samedi tu me conseilles un bar avec des concerts", "arrive de namur", "conseilles"),
           ("Ma belle-mère vient de Nantes en mai vous me recommandez un hôtel calme", "vient de nantes", "recommandez")],
    "pt": [("O meu tio chega de Braga no sábado recomendas-me um bar com música ao vivo", "chega de braga", "recomendas"),
           ("A consulta começa às 9h dá tempo de passar na farmácia antes", "começa às 9h", "farmácia")],
    "it": [("Mio zio arriva da Trieste sabato mi consigli un locale con musica dal vivo", "arriva da trieste", "consigli"),
           ("Mia suocera viene da Lecce a maggio mi suggerisci un albergo tranquillo", "viene da lecce", "suggerisci")],
}
STATEMENT_THEN_ASK_CONTROLS = (  # the request words reported, or a relative clause: statements
    "My sister loves the pub where we take her every Sunday",
    "My sister said you can recommend a good dentist",
    "Mi hermana dice que me recomiendas un dentista",
    "Mein Bruder meint, dass du mir ein gutes Buch empfehlen kannst",
    "Ma sœur dit que tu me conseilles toujours bien",
    "A minha irmã diz que dá tempo de sobra",
    "Mia sorella dice che mi consigli sempre bene",
)

test_a_reported_request_stays_a_statement = control_test(STATEMENT_THEN_ASK_CONTROLS, reads_as(Intent.STATEMENT))

FAMILIES = {"statement_then_ask": (STATEMENT_THEN_ASK, reads_as(Intent.QUESTION) & keeps(1) & drops(2)),
            "refusal_after": (REFUSAL_AFTER, withholds()),
            "private_then_refusal": (PRIVATE_THEN_REFUSAL, withholds())}
FLOOR = {name: all_read(cases) for name, (cases, _) in FAMILIES.items()}
test_family_holds_its_measured_count = floor_test(FAMILIES, FLOOR, list(LANGS))
