"""The words of one language, loaded once from ``data/<lang>.reader.json``.

A :class:`Lexicon` is a frozen table: word sets and compiled phrase lists. Phrases are written
in a small template form, matched on *folded* text (lower case, accents removed, curly
apostrophes straightened; see :func:`fold`, which keeps every character's position):

* a space is any run of white space, or none (so that ``"merk dir {bitte |}{auf|}"`` reads
  "merk dir," and "merk dir bitte auf" alike);
* ``{a|b|}`` is one of the alternatives (an empty one makes the part optional; the longest
  is tried first);
* ``*`` is the rest of a word, letters only ("{on|je} *-tu": "on peut-tu", "je fais-tu");
* ``~`` is one whole word ("{qué|cuál} ~ … {podría}": "qué vino le podría", not the relative
  "que podría");
* ``…`` is up to six words ("den Termin habe ich … gespeichert", "left … out");
* ``^`` is where a sentence or a clause starts ("^anotado" is a claim, "no lo tengo anotado" not);
* ``$`` is the end of the text (closing punctuation allowed): ``", right {?|}$"``;
* a phrase matches whole words only;
* ``cue > context``: the cue matches only where the context follows, and the match ends with
  the cue ("actually, > {the|it's}" leaves "the launch is …" to the fact).

A table may also build a list from parts (key ``composed``): each frame names parts in capitals
("^NEG CLITIC KEEP"), each part is a list of words or phrases (a negation, the forms of the
keep verbs with their inflections), and the frame stands for every combination, so "non
salvarmelo" is read though no row holds it (:func:`composed`).

    lexicon("es").remember.match(fold("Recuerda que prefiero té"))
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any, Iterator

DATA_PACKAGE = "openclaw_tui.language.data"
#: the languages with a table, in the order ties are broken
TABLES = ("en", "es", "de", "fr", "pt", "it")
_TOKEN = re.compile(r"[^\W\d_]+")


def fold(text: str) -> str:
    """``text`` lower-cased, without accents, with straight apostrophes; same length."""
    out = []
    for ch in text:
        low = ch.lower()
        if len(low) != 1:
            low = low[0] if low[0].isalpha() else ch  # Turkish "İ" → "i", one letter still
        parts = unicodedata.normalize("NFD", low)
        # a letter and its accents; a Hangul syllable is no letter with accents but a block of
        # letters, and stays whole ("비밀번호", not its four first consonants)
        base = parts[0] if all(unicodedata.combining(c) for c in parts[1:]) else low
        out.append("'" if base in "’ʼ`´" else base)
    return "".join(out)


def lower(text: str) -> str:
    """``text`` lower-cased, accents kept ("cómo" is not "como"); same length."""
    return "".join(low if len(low := ch.lower()) == 1 else ch for ch in text).replace("’", "'")


def tokens(folded: str) -> list[str]:
    """The letter runs of a folded text ("qu'il" → "qu", "il")."""
    return _TOKEN.findall(folded)


def _phrase_regex(phrase: str, folded: bool = True) -> str:
    """One template phrase as a regular expression (see the module doc; braces may nest)."""
    phrase = fold(phrase.strip()) if folded else lower(phrase.strip())
    phrase, _, context = phrase.partition(" > ")
    body, end = _parse(phrase, 0)
    if end != len(phrase):
        raise ValueError(f"unbalanced braces in phrase {phrase!r}")
    # never starting or ending inside a word
    head, tail = r"(?:(?<!\w)|(?!\w))", r"(?:(?<!\w)|(?!\w))"
    if context:
        ahead, rest = _parse(context, 0)
        if rest != len(context):
            raise ValueError(f"unbalanced braces in phrase {context!r}")
        tail += r"(?=\s*" + ahead + r"(?:(?<!\w)|(?!\w)))"  # the context ends a word too: "é", not "esquece"
    return head + body + tail


def _parse(text: str, pos: int, inside: bool = False) -> tuple[str, int]:
    """The regex of ``text[pos:]`` up to an unmatched ``|`` or ``}`` (when ``inside``)."""
    out: list[str] = []
    while pos < len(text):
        ch = text[pos]
        if ch == "{":
            alts: list[str] = []
            pos += 1
            while True:
                alt, pos = _parse(text, pos, inside=True)
                alts.append(alt)
                if pos >= len(text):
                    raise ValueError(f"unclosed brace in phrase {text!r}")
                if text[pos] == "}":
                    pos += 1
                    break
                pos += 1  # "|"
            # the longest alternative first: "{buenas|buenas tardes}" reads "buenas tardes" whole
            out.append("(?:" + "|".join(sorted(alts, key=len, reverse=True)) + ")")
        elif inside and ch in "|}":
            break
        elif ch == "…":
            out.append(r"(?:[^\s!?;]+\s+){0,6}?")  # up to six words: "habe … gespeichert"
            pos += 1
        elif ch == "~":
            out.append(r"(?>[^\W_][^\s!?;,.]*)")  # one whole word, never cut short: "{qué} ~ … {podría}" needs a noun after "qué"
            pos += 1
        elif ch == "*":
            out.append(r"[^\W_]*")  # the rest of a word: "*-tu" is "peut-tu", "va-tu" …
            pos += 1
        elif ch == "^":
            out.append(r"(?:^|(?<=[.!?;,:¡¿—–(]))\s*")  # where a sentence or clause starts
            pos += 1
        elif ch == "$":
            out.append(r"\s*[.!?？…]*\s*$")  # the end of the text
            pos += 1
        else:
            out.append(r"\s*" if ch == " " else re.escape(ch))
            pos += 1
    return "".join(out), pos


def compile_phrases(phrases: list[str] | tuple[str, ...], *, anchored: bool = False,
                    folded: bool = True) -> re.Pattern[str] | None:
    """One pattern for a list of template phrases, longest first (None for an empty list);
    ``anchored``: at the start of the text, after spaces and opening punctuation; ``folded``
    False: matched on :func:`lower` text, accents kept."""
    if not phrases:
        return None
    alts = sorted((_phrase_regex(p, folded) for p in phrases if p.strip()), key=len, reverse=True)
    lead = r"^[\s¿¡\"'(«„“-]*" if anchored else ""
    return re.compile(lead + "(?:" + "|".join(alts) + ")")


class Phrases:
    """A phrase list whose match is the longest one at the earliest place ("nos vemos mañana"
    whole, not "nos vemos" of a shorter row): one combined pattern says whether any phrase
    matches, the phrases one by one which is longest."""

    __slots__ = ("any", "each")

    def __init__(self, phrases: tuple[str, ...], *, anchored: bool = False, folded: bool = True) -> None:
        lead = r"^[\s¿¡\"'(«„“-]*" if anchored else ""
        regexes = [_phrase_regex(p, folded) for p in phrases if p.strip()]
        self.any = re.compile(lead + "(?:" + "|".join(regexes) + ")")
        self.each = tuple(re.compile(lead + r) for r in regexes)

    def _best(self, found: list[re.Match[str]]) -> re.Match[str] | None:
        if not found:
            return None
        start = min(m.start() for m in found)
        return max((m for m in found if m.start() == start), key=lambda m: m.end())

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        if self.any.match(text, pos) is None:
            return None
        return self._best([m for p in self.each if (m := p.match(text, pos)) is not None])

    def search(self, text: str, pos: int = 0) -> re.Match[str] | None:
        first = self.any.search(text, pos)
        if first is None:
            return None
        return self._best([m for p in self.each if (m := p.match(text, first.start())) is not None] or [first])

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        pos = 0
        while pos <= len(text):
            m = self.search(text, pos)
            if m is None:
                return
            yield m
            pos = m.end() if m.end() > m.start() else m.end() + 1


def phrases(raw: list[str] | tuple[str, ...], *, anchored: bool = False, folded: bool = True) -> Phrases | None:
    """:class:`Phrases` of a list of template phrases (None for an empty list)."""
    items = tuple(p for p in raw if p.strip())
    return Phrases(items, anchored=anchored, folded=folded) if items else None


_SLOT = re.compile(r"\b[A-Z][A-Z_]+\b")


def composed(spec: Any, key: str) -> tuple[str, ...]:
    """The phrases a ``composed`` entry builds: ``{"parts": {"NEG": [...], "KEEP": [...]},
    "frames": ["^NEG KEEP"]}``; each capitalised name in a frame is one of its part's
    alternatives (an empty alternative makes it optional). ``ValueError`` names a part a
    frame uses that the entry does not define."""
    if not spec:
        return ()
    parts = spec.get("parts") or {}
    out = []
    for frame in spec.get("frames") or ():
        def one(m: re.Match[str]) -> str:
            if m.group(0) not in parts:
                raise ValueError(f"composed {key!r}: frame {frame!r} names part {m.group(0)!r}, which is not under 'parts'")
            return "{" + "|".join(parts[m.group(0)]) + "}"
        out.append(_SLOT.sub(one, frame))
    return tuple(out)


def _words(raw: Any) -> frozenset[str]:
    out: set[str] = set()
    for item in raw or ():
        out.update(tokens(fold(str(item))))
    return frozenset(out)


@dataclass(frozen=True)
class Lexicon:
    """The reading table of one language (see ``data/README`` in the JSON files' ``_doc``)."""

    code: str
    function_words: frozenset[str]  # words that carry no topic (detection, follow-ups)
    letters: str  # letters that mark the language ("ñ¿¡", "äöüß")
    #: forms of address written before a name ("Frau", "Mrs", "Señora"), as written: before a
    #: capitalised word they belong to the name and say nothing of the message's language
    titles: tuple[str, ...]
    abbreviations: tuple[str, ...]  # folded, without the final dot ("dr", "z. b")
    ordinal_dot: bool  # "am 3. Mai": a number with a dot does not end a sentence
    capitalized_nouns: bool  # every noun is capitalised: a capital is no name
    verb_second: bool  # the finite verb comes second: an opener with no mark belongs to its clause
    question_words: frozenset[str]  # what, cuándo, wann …
    question_start: Phrases | None  # a question's opening (question word, inversion), on lower()
    not_question_after: Phrases | None  # "When I travel …": a subject after the word, no question
    question_tag: Phrases | None  # "…, isn't it", "¿verdad?" at the end
    request: Phrases | None  # an instruction's opening ("read", "dime", "zeig")
    polite: Phrases | None  # "can you", "¿puedes", "kannst du", "please"
    remember: Phrases | None  # "remember", "recuerda", "merk dir"
    that: Phrases | None  # "that", "que", "dass", "che" after a remember verb
    recall: Phrases | None  # "remember", "remind me" before a question word: a lookup
    search_prefix: Phrases | None  # "search your memory for"
    file_verb: Phrases | None  # write, escribe, schreib …
    file_noun: Phrases | None  # file, archivo, Datei …
    do_not_keep: Phrases | None  # "don't write that down", "no lo apuntes"
    private: Phrases | None  # "this is private", "entre nous"
    correction: Phrases | None  # "correction:", "en realidad"
    small_talk: Phrases | None  # "thanks", "hola", at the start
    chit_chat: Phrases | None  # words that make a sentence small talk (the weather)
    keep: Phrases | None  # preference, decision, name: worth keeping without a number
    date_words: Phrases | None  # weekdays, months, yesterday …
    fact_lead: Phrases | None  # "since", "ya que", "da": a fact told inside a question
    hypothetical_lead: Phrases | None  # "if", "si", "wenn": a clause before a question that states nothing
    subject_end: Phrases | None  # the verb after a correction's subject ("is", "moved")
    claims_save: Phrases | None  # reply: "I've saved it"
    not_store: Phrases | None  # reply: "I won't store that"
    cannot_answer: Phrases | None  # reply: "I couldn't find that"
    #: a file verb that may come last after a polite lead ("… einen Absatz anhängen?")
    file_verb_late: Phrases | None = None
    #: verbs that change a file only where its name is written ("tack … onto todo.md", "In
    #: budget.md bump …", "Apri spese.md e porta …"): too common to read with a file noun alone
    file_verb_named: Phrases | None = None
    not_yet: Phrases | None = None  # reply: "not yet", "todavía no": a not-stored that promises nothing
    #: a how-are-you opener of more than one word ("qué tal", "what's up"): asks how, like ``how_words``
    how_opener: Phrases | None = None
    #: a first-person habit, ability or dislike (``habits``, composed: "I never fly …", "Não
    #: dirijo", "Non so nuotare"): read with ``keep``, and kept however short the sentence
    habit: Phrases | None = None
    #: a bare "No," opening a sentence (``correction_no``): before a restated fact naming a
    #: number, a date or a name, the sentence corrects ("No, the dentist is Tuesday")
    bare_no: Phrases | None = None
    #: a person opening the clause after it (``correction_no_not_before``: "I", "yo", "ich"):
    #: an answer about oneself, no restated fact ("No, I'm busy on Tuesday")
    bare_no_not_before: Phrases | None = None
    #: a having that ``keep`` would read as lasting but holds nothing (``keep_idle``: "I have a
    #: question", "tengo una duda", "ich hab eine Frage"): no fact by itself
    keep_idle: Phrases | None = None
    #: note verbs (``file_note_verbs``, composed) that, before a word of ``file_into_words``
    #: and a file name, put the note into that file: a file change ("Anota ovos em compras.md")
    file_note: Phrases | None = None
    file_into: frozenset[str] = frozenset()

    #: every word the table lists (function words and phrases): what identifies the language
    detection_words: frozenset[str] = frozenset()
    #: abbreviations that end a compound word, folded ("str" of "Hauptstr.")
    abbreviation_ends: tuple[str, ...] = ()
    #: weekday and month abbreviations, folded ("wed", "janv", "giov"): their dot ends no
    #: sentence when a number or another date word follows ("Wed. 22 Jan.", "mar. 11 févr.")
    date_abbreviations: frozenset[str] = frozenset()
    #: "mein", "unsere": a sentence opening with one is about the user's people and things
    possessives: frozenset[str] = frozenset()
    #: verbs of being, living, working, owning ("ist", "wohnt", "hat"): with a possessive
    #: before them, a statement of how things stand ("Meine Schwester wohnt in Köln.")
    state_verbs: frozenset[str] = frozenset()
    #: words that open a sentence and carry nothing ("oops", "oye y", "bon", "tá", "senti"):
    #: the sentence is read after them
    interjection: Phrases | None = None
    #: question words that also join a clause ("when I travel …", "quando eu viajo"): only
    #: these read a subject after them as a statement; "quanto eu paguei" asks
    subordinators: frozenset[str] = frozenset()
    #: words that address the listener or frame a wish ("you", "favour", "te", "quisiera",
    #: "vorrei"): before a remember verb with "that" or a colon, the sentence asks to keep
    frame_words: frozenset[str] = frozenset()
    #: words that may stand between a keep verb and its "that" ("note somewhere in your notes that …")
    keep_places: frozenset[str] = frozenset()
    #: an exclamation's opening ("what a", "qué calor", "was für ein"): without a question
    #: mark, a remark of the moment, not a question
    exclamation: Phrases | None = None
    #: a soft opener that corrects when a statement naming something follows ("actually,",
    #: "perdón,", "en fait", "na verdade"): "Sorry, I'm late" names nothing and corrects nothing
    soft_correction: Phrases | None = None
    #: the "X, not Y" frame (", not", ", no", ", nicht", ", pas", ", não", ", non"): with a
    #: number, date or name right after it, the statement corrects ("… on Friday, not Thursday")
    contrast: Phrases | None = None
    #: a clause after a statement that asks without a question mark ("…, is that over 30%",
    #: "…, cuánto le puedo dar", "…, ist das zu viel", "…, ça vaut la peine", "…, compensa
    #: trocar", "…, posso prendere …"); matched on lower() text at the clause's start
    question_clause: Phrases | None = None
    #: a question word put after its topic, anywhere in a sentence without a question mark
    #: ("the plumber's name was what again", "el fontanero cómo se llamaba", "heißt nochmal
    #: wie", "s'appelle comment déjà", "se chama como mesmo", "come fa di cognome"); on lower()
    question_inside: Phrases | None = None
    #: a word that joins an asking clause to a statement without a comma ("so", "así que",
    #: "also", "donc", "então", "quindi"): a question word and a ``question_clause`` after it
    #: ask ("… notice so when do I have to tell him"); on lower()
    question_join: Phrases | None = None
    #: what reads as a question after a joining word but states ("… and what's more …",
    #: "… and what's worse …"); on lower()
    not_question_joined: Phrases | None = None
    #: refusals built from parts (``composed.do_not_keep``: a negation, a keep verb's forms, a
    #: memory noun): "non salvarmelo", "Nicht abspeichern"; none where a first-person subject
    #: (``subject_pronouns``) stands before it in its clause ("Ich kann mir Namen nicht merken")
    refusal: Phrases | None = None
    #: an asking clause by its form, wherever it stands after a statement with no comma and no
    #: joining word: a verb before its subject ("can I", "peut-on", "on peut-tu"), a question
    #: word before a verb ("how much should I", "qual … eu"); on lower(), at a word's start
    inversion: Phrases | None = None
    #: a word right before such a clause that makes it a statement ("so do I", "neither can we")
    inversion_not_after: frozenset[str] = frozenset()
    #: a yes-or-no tail closing a sentence ("… or not", "… o no", "… ce la faccio"), and the
    #: words before it that make it a statement ("whether", "ob", "si", "non")
    yes_no_tail: Phrases | None = None
    yes_no_not_with: frozenset[str] = frozenset()
    #: a yes-or-no asking start joined with no mark after a complete clause (modal + I, "do you
    #: think", "is it worth": "… since yesterday should I …", "… crees que …", "… soll ich …");
    #: on lower(), at a word's start
    yes_no_opener: Phrases | None = None
    #: a joining word right before such a start that makes it a second statement ("… 2027 y
    #: debo pedir cita", "… et je dois prendre rendez-vous"); folded
    yes_no_not_after: frozenset[str] = frozenset()
    #: the listener asked whether they remember ("do you remember", "ti ricordi", "weißt du
    #: noch"): a which-word, a which-word and a noun, or a noun after it asks to look up
    recall_asked: Phrases | None = None
    #: words that open a clause (articles, possessives, subject pronouns): one right after "that"
    #: and a word shows "that" opens a clause, not a which-word and its noun ("Ti ricordi che
    #: viene la nonna", "… che pago io"); one opening the words before a joined yes-or-no start
    #: makes them a clause with a subject, not a fronted place ("Na biblioteca …"); folded
    clause_openers: frozenset[str] = frozenset()
    #: words of the moment that make a clause after a fact lead no lasting state ("right now",
    #: "in a bad mood", "gerade", "en ce moment"); folded
    momentary: Phrases | None = None
    #: a word that opens a clause giving a reason ("because", "porque", "weil", "parce que"):
    #: a remark of the moment inside it leaves the main clause before it a statement; folded
    reason_join: Phrases | None = None
    #: greeting, thanks and goodbye words, folded; one of 4 letters or more counts as the start
    #: of a word ("thank": "thanks", "thankyou")
    small_talk_stems: tuple[str, ...] = ()
    #: words that may follow in a greeting but open none ("talk", "tomorrow", "mille"), folded
    small_talk_follow: frozenset[str] = frozenset()
    subject_pronouns: frozenset[str] = frozenset()
    #: an asking clause joined to a statement by a joining word and a start that weighs a
    #: choice (``composed.joined_asking``: JOIN x "should I", "is it worth", "vale la pena",
    #: "ça vaut le coup", "compensa", "conviene", "lohnt sich"), on folded text
    joined_asking: Phrases | None = None
    #: laughter ("jajaja", "ahahah", "kkkk", "rsrs", "mdrrr", "huehue"): a word that, with its
    #: letter runs made one letter, is a syllable of ``laughter.syllables`` said twice or more
    #: (a vowel may lead and a letter trail it) or a word of ``laughter.words`` (:func:`laughs`)
    laughter: re.Pattern[str] | None = None
    #: one clause that takes leave, whole (``composed.leaving``: "gotta run", "talk later",
    #: "me tengo que ir", "ich muss los", "je file", "vou indo", "ci sentiamo dopo"; and
    #: ``leaving_more``: a plan for the evening ending in bed, "mañana hablamos"); anchored
    leaving: Phrases | None = None
    #: one clause that closes a conversation without taking leave, whole (``composed.closing``:
    #: "deal then", "I owe you one", "trop chou", "mega lieb von dir", "te debo una birra",
    #: "mi hai salvato la vita"); read clause by clause as ``leaving`` is; anchored
    closing: Phrases | None = None
    #: a confession of a mix-up ("I mixed her up with", "la confundí con", "verwechselt", "j'ai
    #: confondu", "confundi com", "l'ho confusa con"; ``composed.mixup``): after a soft opener,
    #: the statement it closes corrects
    mixup: Phrases | None = None
    #: a span of time around now with no digit ("this week", "esta semana", "diese Woche", "cette
    #: semaine", "este mês", "questa settimana"): with someone named, a clause after a fact
    #: lead states a fact ("Since Kowalski is on call this week, who …?")
    time_span: Phrases | None = None
    #: a fact lead only before a name ("with", "con", "avec", "com o", German causal "wo"):
    #: "With Kowalski on call this week, who …?" states; "With the budget …" and "Wo ist …" do not
    named_lead: Phrases | None = None
    #: a courtesy clause closing a request ("…, I'd appreciate it", "…, te lo agradecería", "…, wär
    #: das super", "…, ce serait top", "…, agradecia", "…, mi faresti un favore";
    #: ``composed.courtesy_tails``): cut from the fact a remember request keeps
    courtesy_tail: Phrases | None = None
    #: a folder's noun ("folder", "carpeta", "Ordner", "dossier", "pasta", "cartella";
    #: ``composed.folder_nouns``): with a name-like token after it, names a file to change
    folder_noun: Phrases | None = None
    #: words for the listener ("you", "dir", "toi", "aí", "ti"), folded: a short question after a
    #: greeting holding one, naming nothing, asks how the listener is (small talk)
    listener_words: frozenset[str] = frozenset()
    #: "how" ("wie", "comment", "como", "come"): the one question word such a question may open on
    how_words: frozenset[str] = frozenset()
    #: light words that may follow a how-opener in small talk: periods of the day or week, life,
    #: things, a name for the listener ("week", "finde", "Wochenende", "matin", "isso", "bello"),
    #: folded ("Hola po, ¿cómo ha estado la semana?", "Aò! Che se dice de bello stamattina?")
    how_topics: frozenset[str] = frozenset()
    #: "is", "es", "ist", "est", "é", "è" (and "seems"), folded: a clause about someone named
    #: with one is a judgement ("Since Kowalski is so reliable"), not a lasting fact to keep
    copulas: frozenset[str] = frozenset()
    #: someone reporting a state with a that-word ("the plumber says that", "el fontanero me dijo
    #: que", "der Installateur sagt, dass"): a clause after a fact lead holding one is kept whole
    reported: Phrases | None = None
    #: "I", "me", "we" ("ich", "je", "eu", "io"), folded: such a question asks about me, not the listener
    first_person: frozenset[str] = frozenset()
    #: kinship and people nouns ("Nichte", "uncle", "sobrina"), folded: a capitalised word right
    #: after one is a name, in German too ("Meine Nichte Vroni macht …")
    kin_nouns: frozenset[str] = frozenset()
    #: words that open a topic before a comma ("and", "y", "und", "et", "e", "ma"), folded: a
    #: clause after the comma opening on a question word asks ("E a infiltração, o que …")
    topic_leads: frozenset[str] = frozenset()
    #: a conditional or formal courtesy lead before a keep verb, read past before the verb
    #: (``courtesy_leads``, built as ``composed`` is: "if it's all the same to you,", "si fuera tan
    #: amable,", "wenn's dir nichts ausmacht,", "si ce n'est pas trop vous demander,", "se não se
    #: importasse,", "Le sarei grato se volesse"); anchored, only before a keep verb
    courtesy_lead: Phrases | None = None
    #: thanks or praise of the listener as one whole clause (``thanking``, built as ``composed``
    #: is: "Le agradezco muchísimo la ayuda", "Ich danke Ihnen vielmals", "es usted un sol",
    #: "bem-haja"): read clause by clause as ``closing`` is; its hyphens name nothing
    thanking: Phrases | None = None

    @property
    def vocabulary(self) -> frozenset[str]:
        """The words that say nothing about a topic (function and question words)."""
        return self.function_words | self.question_words


#: lists whose words do not vote for the language (forms of address before a name; the
#: ninth round's question forms, so that detection stays as it was measured)
_NOT_VOTING = frozenset({"titles", "small_talk_stems", "small_talk_follow", "question_inversions", "question_inversions_not_after", "yes_no_tails",
                         "yes_no_not_with", "yes_no_openers", "yes_no_not_after", "recall_asked", "clause_openers",
                         "momentary", "reason_joins", "time_spans",
                         "fact_leads_named", "listener_words", "how_words", "how_topics", "copulas",
                         "first_person_words", "kin_nouns", "topic_leads", "reported_clauses", "correction_no",
                         "correction_no_not_before", "keep_idle",
                         "file_into_words"})


# Lexicon fields read as phrase lists: field -> (the table's key, anchored at a clause start)
_PHRASE_FIELDS: dict[str, tuple[str, bool]] = {
    "not_question_after": ("not_question_after", True),
    "question_tag": ("question_tags", False),
    "request": ("request_verbs", True),
    "polite": ("polite_leads", True),
    "remember": ("remember_verbs", False),
    "that": ("that_words", False),
    "recall": ("recall_verbs", True),
    "search_prefix": ("search_prefixes", True),
    "file_verb": ("file_verbs", False),
    "file_noun": ("file_nouns", False),
    "do_not_keep": ("do_not_keep", False),
    "private": ("private", False),
    "correction": ("correction", True),
    "small_talk": ("small_talk", True),
    "chit_chat": ("chit_chat", False),
    "keep": ("keep", False),
    "date_words": ("date_words", False),
    "fact_lead": ("fact_leads", False),
    "hypothetical_lead": ("hypothetical_leads", True),
    "subject_end": ("subject_end", False),
    "claims_save": ("claims_save", False),
    "not_store": ("not_store", False),
    "cannot_answer": ("cannot_answer", False),
    "not_yet": ("not_yet", False),
    "file_verb_late": ("file_verbs_late", False),
    "file_verb_named": ("file_verbs_named", False),
    "interjection": ("interjections", True),
    "exclamation": ("exclamations", True),
    "soft_correction": ("soft_correction", True),
    "contrast": ("contrast", False),
    "time_span": ("time_spans", False),
    "named_lead": ("fact_leads_named", False),
    "how_opener": ("how_openers", True),
    "bare_no": ("correction_no", True),
    "bare_no_not_before": ("correction_no_not_before", True),
    "keep_idle": ("keep_idle", False),
    "reported": ("reported_clauses", False),
}


#: composed tables of their own key read as part of a list: ``habits`` (a first-person habit,
#: ability or dislike, negated or with how often: "I never fly …", "Nunca conduzco …", "Non so
#: nuotare") and ``standing`` (an age, a condition: "Ho 67 anni", "Ich hab Bluthochdruck")
#: make a statement worth keeping like a ``keep`` row; ``file_renames`` (a verb of changing a
#: name: "change the name of", "muda o nome de") reads as a ``file_verbs_named`` verb, a file
#: change where a file name is written; composed, so they do not vote
_READ_WITH: dict[str, tuple[str, ...]] = {"keep": ("habits", "standing"), "file_verbs_named": ("file_renames",)}


#: a list's quiet twin ("keep_quiet", "question_openers_quiet"): rows read as the list's own,
#: whose words do not vote for the language (texting forms, dialect, words other languages
#: write too: "q dia", "nun me piace", "cuanto … euros"), so that detection stays as measured
QUIET = "_quiet"


def _quiet(raw: dict[str, Any], key: str) -> tuple[str, ...]:
    return tuple(raw.get(key + QUIET) or ())


def _from_json(code: str, raw: dict[str, Any]) -> Lexicon:
    built = raw.get("composed") or {}

    def pat(key: str, anchored: bool = False) -> Phrases | None:
        # a composed do_not_keep is read apart (``refusal``, with its subject rule)
        extra = composed(built.get(key), key) if key != "do_not_keep" else ()
        extra += tuple(p for table in _READ_WITH.get(key, ()) for p in composed(raw.get(table), table))
        return phrases(tuple(raw.get(key) or ()) + _quiet(raw, key) + extra, anchored=anchored)

    return Lexicon(
        code=code,
        **{name: pat(key, anchored) for name, (key, anchored) in _PHRASE_FIELDS.items()},
        function_words=_words(raw.get("function_words")),
        letters=str(raw.get("letters", "")),
        titles=tuple(str(t) for t in raw.get("titles") or ()),
        abbreviations=tuple(sorted({fold(a).rstrip(".") for a in raw.get("abbreviations") or ()}, key=len, reverse=True)),
        ordinal_dot=bool(raw.get("ordinal_dot", False)),
        capitalized_nouns=bool(raw.get("capitalized_nouns", False)),
        verb_second=bool(raw.get("verb_second", False)),
        question_words=_words(raw.get("question_words")),
        question_start=phrases(tuple(raw.get("question_words") or ()) + tuple(raw.get("question_openers") or ())
                               + _quiet(raw, "question_openers")
                               + composed(built.get("question_openers"), "question_openers"), anchored=True, folded=False),
        detection_words=_words(w for key, v in raw.items() if isinstance(v, list) and not key.startswith("abbreviation")
                               and key not in _NOT_VOTING and not key.endswith(QUIET)
                               for w in v),
        abbreviation_ends=tuple(fold(a).rstrip(".") for a in raw.get("abbreviation_ends") or ()),
        date_abbreviations=frozenset(fold(a).rstrip(".") for a in raw.get("abbreviations_of_dates") or ()),
        possessives=_words(raw.get("possessives")),
        state_verbs=_words(raw.get("state_verbs")),
        subordinators=_words(raw.get("subordinators")),
        frame_words=_words(raw.get("frame_words")),
        keep_places=_words(raw.get("keep_places")),
        question_clause=phrases(tuple(raw.get("question_clauses") or ()) + _quiet(raw, "question_clauses"), anchored=True,
                                folded=False),
        question_inside=phrases(tuple(raw.get("question_inside") or ()), folded=False),
        question_join=phrases(tuple(raw.get("question_joins") or ()), folded=False),
        not_question_joined=phrases(tuple(raw.get("not_question_joined") or ()), anchored=True, folded=False),
        refusal=phrases(composed((raw.get("composed") or {}).get("do_not_keep"), "do_not_keep")),
        small_talk_stems=tuple(sorted({fold(w) for w in raw.get("small_talk_stems") or ()}, key=len, reverse=True)),
        small_talk_follow=_words(raw.get("small_talk_follow")),
        inversion=phrases(tuple(raw.get("question_inversions") or ()) + composed(built.get("question_inversions"), "question_inversions"),
                          anchored=True, folded=False),
        inversion_not_after=_words(raw.get("question_inversions_not_after")),
        yes_no_tail=phrases(tuple(raw.get("yes_no_tails") or ()), anchored=True, folded=False),
        yes_no_not_with=_words(raw.get("yes_no_not_with")),
        yes_no_opener=phrases(tuple(raw.get("yes_no_openers") or ()), folded=False),
        yes_no_not_after=_words(raw.get("yes_no_not_after")),
        recall_asked=phrases(tuple(raw.get("recall_asked") or ()), anchored=True),
        clause_openers=_words(raw.get("clause_openers")),
        momentary=phrases(tuple(raw.get("momentary") or ())),
        reason_join=phrases(tuple(raw.get("reason_joins") or ())),
        subject_pronouns=_words(((raw.get("composed") or {}).get("do_not_keep") or {}).get("not_after")),
        joined_asking=phrases(composed(built.get("joined_asking"), "joined_asking")),
        laughter=_laughter(raw.get("laughter")),
        leaving=phrases(composed(built.get("leaving"), "leaving") + composed(raw.get("leaving_more"), "leaving_more"),
                        anchored=True),
        closing=phrases(composed(built.get("closing"), "closing"), anchored=True),
        mixup=phrases(composed(built.get("mixup"), "mixup")),
        courtesy_tail=phrases(composed(built.get("courtesy_tails"), "courtesy_tails")),
        folder_noun=phrases(composed(built.get("folder_nouns"), "folder_nouns")),
        listener_words=_words(raw.get("listener_words")),
        how_words=_words(raw.get("how_words")),
        how_topics=_words(raw.get("how_topics")),
        copulas=_words(raw.get("copulas")),
        first_person=_words(raw.get("first_person_words")),
        kin_nouns=frozenset(fold(str(w)) for w in raw.get("kin_nouns") or ()),
        topic_leads=_words(raw.get("topic_leads")),
        courtesy_lead=phrases(composed(raw.get("courtesy_leads"), "courtesy_leads"), anchored=True),
        thanking=phrases(composed(raw.get("thanking"), "thanking"), anchored=True),
        habit=phrases(composed(raw.get("habits"), "habits")),
        file_note=phrases(composed(raw.get("file_note_verbs"), "file_note_verbs"), anchored=True),
        file_into=_words(raw.get("file_into_words")),
    )


def _laughter(spec: Any) -> re.Pattern[str] | None:
    """The pattern of a table's ``laughter`` entry (``{"syllables": [...], "words": [...]}``)."""
    if not spec:
        return None
    syllables = "|".join(sorted((re.escape(fold(x)) for x in spec.get("syllables") or ()), key=len, reverse=True))
    words = "|".join(sorted((re.escape(fold(x)) for x in spec.get("words") or ()), key=len, reverse=True))
    alts = ([rf"[aeiou]?(?:{syllables}){{2,}}[^\W\d_]?"] if syllables else []) + ([rf"(?:{words})"] if words else [])
    return re.compile("^(?:" + "|".join(alts) + ")$") if alts else None


_RUNS = re.compile(r"([^\W\d_])\1+")
#: a laughing word has at least this many letters as typed ("kkk", "rsrs"; "k" is "ok")
LAUGH_CHARS = 3


def laughs(word: str, lex: Lexicon) -> bool:
    """Whether a folded word is laughter in ``lex``'s language ("jajajaja", "ahahah", "kkkkk",
    "mdrrr", "lmaooo"): its runs of one letter are made one letter first ("jaaaja" → "jaja")."""
    if lex.laughter is None or len(word) < LAUGH_CHARS:
        return False
    return lex.laughter.match(_RUNS.sub(r"\1", word)) is not None


def _load_json(name: str) -> dict[str, Any]:
    raw = json.loads(resources.files(DATA_PACKAGE).joinpath(name).read_text(encoding="utf-8"))
    if not isinstance(raw, dict):
        raise ValueError(f"{name}: a JSON object expected")
    return raw


def has_table(lang: str) -> bool:
    return lang in TABLES


@lru_cache(maxsize=None)
def lexicon(lang: str) -> Lexicon:
    """The table of ``lang`` (ISO 639-1); ``KeyError`` for a language without one (see :func:`has_table`)."""
    if lang not in TABLES:
        raise KeyError(f"no reading table for language {lang!r}")
    return _from_json(lang, _load_json(f"{lang}.reader.json"))


@dataclass(frozen=True)
class Common:
    """What no language owns: file name endings, and the function words of languages without a
    table (so a Dutch message is recognised as not ours instead of read as the nearest one)."""

    file_name: re.Pattern[str]
    others: dict[str, frozenset[str]]
    #: letter → the languages without a table that write it ("ğ" Turkish, "ł" Polish)
    other_letters: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: letter → the languages without a table that write it too though a table marks it as its
    #: own ("ä": Swedish and Finnish besides German): a vote for them, the table's undiminished
    shared_letters: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: what is no word of any language: file names, addresses, hosts (they do not vote)
    not_words: re.Pattern[str] = re.compile(r"(?!)")
    #: refusals to keep in languages without a table ("nikam si ho neukládej"): a message that
    #: detection gives to a table keeps none of it either
    do_not_keep: Phrases | None = None

    def without_not_words(self, text: str) -> str:
        """``text`` with what is no word blanked, in linear time: ``not_words`` is applied to
        each run of non-space characters (every match lies inside one), and a run longer than
        :data:`MAX_WORD_RUN` is no word at all. On the whole text ``\\S+@\\S+`` and the host
        pattern backtrack to the end of a long run from each of its characters: a 400 KB
        dotted token took minutes (issue 36)."""
        pattern = self.not_words

        def one(run: re.Match[str]) -> str:
            piece = run.group(0)
            return " " if len(piece) > MAX_WORD_RUN else pattern.sub(" ", piece)

        return _RUN.sub(one, text)


#: the longest run of non-space characters that may still hold a word (German compounds
#: with their punctuation fit); a longer one votes for no language
MAX_WORD_RUN = 80
_RUN = re.compile(r"\S+")


@lru_cache(maxsize=1)
def common() -> Common:
    raw = _load_json("common.json")
    exts = "|".join(re.escape(e) for e in raw.get("file_extensions") or ["md"])
    file_name = rf"(?<![\w.])[\w./~-]*\w\.(?:{exts})(?!\w|\.\w)"  # "todo.md." ends a sentence
    # the same matches, tried only where a run of its characters starts (a match can only
    # start there), so ``search`` is linear: "a-a-a-…" was tried from every letter
    file_name_linear = rf"(?<![\w./~-])[\w./~-]*\w\.(?:{exts})(?!\w|\.\w)"
    owners: dict[str, list[str]] = {}
    for lang, letters in (raw.get("other_letters") or {}).items():
        for letter in dict.fromkeys(str(letters)):
            owners.setdefault(letter, []).append(str(lang))
    shared: dict[str, list[str]] = {}
    for lang, letters in (raw.get("shared_letters") or {}).items():
        for letter in dict.fromkeys(str(letters)):
            shared.setdefault(letter, []).append(str(lang))
    return Common(
        file_name=re.compile(file_name_linear, re.IGNORECASE),
        shared_letters={k: tuple(v) for k, v in shared.items()},
        others={str(k): _words(v) for k, v in (raw.get("other_languages") or {}).items()},
        other_letters={k: tuple(v) for k, v in owners.items()},
        not_words=re.compile(rf"{file_name}|https?://\S+|\S+@\S+|\b[\w-]+(?:\.[^\W\d_][\w-]+)+\b", re.IGNORECASE),
        do_not_keep=phrases(tuple(p for ps in (raw.get("do_not_keep") or {}).values() for p in ps)),
    )
