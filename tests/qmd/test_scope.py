"""Scope rules: first match wins, chatType / keyPrefix / rawKeyPrefix, legacy agent: prefix."""

from __future__ import annotations

import pytest

from openclaw_tui.config.models import QmdScopeConfig
from openclaw_tui.memory.qmd.scope import decide_scope


def scope(data: dict) -> QmdScopeConfig:
    return QmdScopeConfig.model_validate(data)


DEFAULT = {}
GROUP_ALLOW = {"default": "deny", "rules": [{"action": "allow", "match": {"chatType": "group"}}]}
DISCORD_DENY_FIRST = {
    "default": "allow",
    "rules": [
        {"action": "deny", "match": {"keyPrefix": "discord:"}},
        {"action": "allow", "match": {"chatType": "group"}},
    ],
}
RAW = {"default": "deny", "rules": [{"action": "allow", "match": {"rawKeyPrefix": "agent:work:"}}]}
LEGACY = {"default": "deny", "rules": [{"action": "allow", "match": {"keyPrefix": "agent:main:slack:"}}]}
BOTH = {"default": "deny", "rules": [{"action": "allow", "match": {"chatType": "channel", "keyPrefix": "slack:"}}]}
EMPTY_MATCH = {"default": "deny", "rules": [{"action": "allow", "match": {}}]}


@pytest.mark.parametrize(
    "cfg, key, allowed, rule",
    [
        # default: deny, with allow for direct chats
        (DEFAULT, "agent:main:main", True, 0),
        (DEFAULT, "agent:main:telegram:dm:42", True, 0),
        (DEFAULT, "agent:main:discord:group:9", False, None),
        (DEFAULT, "agent:main:slack:channel:c1", False, None),
        (DEFAULT, None, True, 0),
        (GROUP_ALLOW, "agent:main:discord:group:9", True, 0),
        (GROUP_ALLOW, "agent:main:main", False, None),
        # first match wins: the discord deny comes before the group allow
        (DISCORD_DENY_FIRST, "agent:main:discord:group:9", False, 0),
        (DISCORD_DENY_FIRST, "agent:main:slack:group:9", True, 1),
        (DISCORD_DENY_FIRST, "agent:main:main", True, None),
        # keyPrefix ignores the agent:<id>: part and case
        (DISCORD_DENY_FIRST, "AGENT:Other:Discord:dm:1", False, 0),
        # rawKeyPrefix sees the full key
        (RAW, "agent:work:main", True, 0),
        (RAW, "agent:main:main", False, None),
        # legacy keyPrefix starting with agent: is compared raw
        (LEGACY, "agent:main:slack:channel:c1", True, 0),
        (LEGACY, "agent:other:slack:channel:c1", False, None),
        # all conditions of one match must hold
        (BOTH, "agent:main:slack:channel:c1", True, 0),
        (BOTH, "agent:main:slack:group:c1", False, None),
        (BOTH, "agent:main:discord:channel:c1", False, None),
        (EMPTY_MATCH, "agent:main:discord:group:1", True, 0),
    ],
)
def test_scope_table(cfg, key, allowed, rule):
    d = decide_scope(scope(cfg), key)
    assert d.allowed is allowed
    assert d.rule_index == rule


def test_denied_description_names_channel_and_chat_type():
    d = decide_scope(scope(DEFAULT), "agent:main:discord:group:9")
    text = d.describe()
    assert "denied" in text and "channel=discord" in text and "chatType=group" in text
