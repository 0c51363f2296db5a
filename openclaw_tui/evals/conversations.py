"""Seeded conversations for the fact-survival evaluation (``openclaw-tui eval survival``).

Each conversation states a handful of specific facts (a host, an amount, a person, a code,
a date — some relative, "yesterday", "next Tuesday" — a time, a number) mixed with small talk
and a general question, then asks about every fact. The generator is seeded; the values are
drawn at random from small pools, so no two seeds share a conversation and nothing can be
tuned to one. A fact's ``token`` is what an answer or a stored note must contain verbatim
(case and spacing aside); ``alt`` also counts for an answer given in the same session
(the relative phrase the user typed, before the engine made it absolute).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Callable

FIRST = ("Priya", "Tomas", "Aiko", "Lena", "Rahul", "Marta", "Jonas", "Chloe", "Kwame", "Sofia", "Dmitri", "Nadia", "Oscar",
         "Ines", "Yusuf", "Greta", "Mateo", "Hana", "Felix", "Amara")
LAST = ("Raman", "Okafor", "Lindqvist", "Moreau", "Tanaka", "Oliveira", "Brandt", "Novak", "Haddad", "Castillo", "Kowalski",
        "Achterberg", "Mensah", "Varga", "Petrov", "Sato")
PROJECTS = ("Atlas", "Harbor", "Kestrel", "Juniper", "Beacon", "Orchid", "Falcon", "Meridian", "Quarry", "Willow")
CITIES = ("east", "west", "north", "paris", "oslo", "lagos", "lima", "kyoto", "dublin", "austin")
ITEMS = ("rental van", "printer toner", "conference badges", "spare laptop", "catering order", "keynote banner")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
SMALL_TALK = (
    "Long week so far, honestly.",
    "Thanks, that helps a lot.",
    "Let me think about that for a moment.",
    "I need another coffee before the next meeting.",
    "Sounds good to me.",
    "The office is pretty quiet this afternoon.",
    "Okay, moving on.",
    "I am a bit tired but fine.",
)
GENERAL_QUESTIONS = (
    "What is 12 times 7?",
    "Can you suggest a short name for a team chat channel?",
    "What is the capital of Portugal?",
    "How many minutes are in three hours?",
    "Give me one tip for writing clearer emails.",
)


@dataclass(frozen=True)
class Fact:
    kind: str
    statement: str
    question: str
    token: str
    alt: tuple[str, ...] = ()


@dataclass
class Conversation:
    seed: int
    index: int
    turns: list[str] = field(default_factory=list)  # statements, small talk, a general question, in order
    facts: list[Fact] = field(default_factory=list)
    general: list[str] = field(default_factory=list)


def _person(r: random.Random) -> tuple[str, str]:
    return r.choice(FIRST), r.choice(LAST)


def _host(r: random.Random, today: date) -> Fact:
    host = f"vpn-{r.choice(CITIES)}-{r.randint(2, 98)}.{r.choice(('acme', 'corpnet', 'initech', 'globex'))}.net"
    return Fact("host", f"Our VPN hostname is now {host}.", "What is our VPN hostname?", host)


def _budget(r: random.Random, today: date) -> Fact:
    project = r.choice(PROJECTS)
    amount = f"{r.randint(11, 97)},{r.randint(1, 9)}00"
    return Fact("amount", f"The budget for the {project} project is ${amount}.", f"What is the budget for the {project} project?", amount)


def _oncall(r: random.Random, today: date) -> Fact:
    first, last = _person(r)
    return Fact("person", f"{first} {last} is our on-call lead for the database team.",
                "Who is the on-call lead for the database team?", last)


def _code(r: random.Random, today: date) -> Fact:
    code = f"{r.choice(('FIN', 'OPS', 'MKT', 'ENG'))}-{r.randint(1000, 9999)}-{r.choice('ABCDEFGHJK')}"
    thing = r.choice(("travel expenses", "the cloud bill", "hardware purchases", "the offsite"))
    return Fact("code", f"The account code for {thing} is {code}.", f"What is the account code for {thing}?", code)


def _migration(r: random.Random, today: date) -> Fact:
    wd = r.choice(WEEKDAYS)
    ahead = (WEEKDAYS.index(wd) - today.weekday()) % 7 or 7
    when = (today + timedelta(days=ahead)).isoformat()
    system = r.choice(("billing database", "search cluster", "mail server", "ticketing system"))
    return Fact("date", f"The {system} migration is scheduled for next {wd}.", f"When is the {system} migration scheduled?",
                when, (f"next {wd}",))


PAST_DEEDS = (("signed the lease", "sign the lease"), ("renewed the domain", "renew the domain"),
              ("shipped the beta", "ship the beta"), ("hired the designer", "hire the designer"))


def _yesterday(r: random.Random, today: date) -> Fact:
    did, do = r.choice(PAST_DEEDS)
    return Fact("date", f"We {did} yesterday.", f"On which date did we {do}?", (today - timedelta(days=1)).isoformat(), ("yesterday",))


def _pickup(r: random.Random, today: date) -> Fact:
    first, _ = _person(r)
    item = r.choice(ITEMS)
    time = f"{r.randint(1, 11)}:{r.choice(('05', '15', '20', '35', '40', '50'))}pm"
    return Fact("time", f"{first} will pick up the {item} at {time}.", f"What time will {first} pick up the {item}?", time)


def _room(r: random.Random, today: date) -> Fact:
    room = f"{r.choice('ABCDE')}{r.randint(100, 499)}"
    return Fact("code", f"The workshop moved to room {room}.", "Which room is the workshop in now?", room)


def _extension(r: random.Random, today: date) -> Fact:
    first, last = _person(r)
    ext = str(r.randint(2000, 8999))
    return Fact("number", f"My manager {first} {last} has phone extension {ext}.", "What is my manager's phone extension?", ext)


def _flight(r: random.Random, today: date) -> Fact:
    flight = f"{r.choice(('LH', 'BA', 'KL', 'AF', 'IB'))}{r.randint(100, 2999)}"
    return Fact("code", f"My flight to the conference is {flight}.", "What is my flight number to the conference?", flight)


def _ticket(r: random.Random, today: date) -> Fact:
    ticket = f"INC-{r.randint(10000, 99999)}"
    return Fact("code", f"The outage is tracked in ticket {ticket}.", "Which ticket tracks the outage?", ticket)


def _headcount(r: random.Random, today: date) -> Fact:
    n = str(r.randint(13, 87))
    return Fact("number", f"We expect {n} people at the offsite.", "How many people do we expect at the offsite?", n)


MAKERS: tuple[Callable[[random.Random, date], Fact], ...] = (
    _host, _budget, _oncall, _code, _migration, _yesterday, _pickup, _room, _extension, _flight, _ticket, _headcount,
)


def conversation(seed: int, index: int, *, today: date, facts: int = 6, small_talk: int = 4) -> Conversation:
    """One seeded conversation: ``facts`` statements (distinct kinds of maker) with small talk
    and one general question mixed in, in a random order that keeps each fact once."""
    r = random.Random(seed * 1_000_003 + index)
    makers = r.sample(MAKERS, k=min(facts, len(MAKERS)))
    out = Conversation(seed, index)
    out.facts = [make(r, today) for make in makers]
    out.general = [r.choice(GENERAL_QUESTIONS)]
    filler = r.sample(SMALL_TALK, k=min(small_talk, len(SMALL_TALK)))
    turns = [f.statement for f in out.facts] + filler + out.general
    r.shuffle(turns)
    out.turns = turns
    return out


def conversations(seed: int, count: int, *, today: date, facts: int = 6) -> list[Conversation]:
    return [conversation(seed, i, today=today, facts=facts) for i in range(count)]
