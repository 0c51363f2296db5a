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


# --------------------------------------------------------------------------- every match key, OpenClaw's set

SLACK_ONLY = {"default": "deny", "rules": [{"action": "allow", "match": {"channel": "slack"}}]}
DENY_DISCORD = {"default": "allow", "rules": [{"action": "deny", "match": {"channel": " Discord "}}]}
DM_ALIAS = {"default": "deny", "rules": [{"action": "allow", "match": {"chatType": "dm"}}]}
SLACK_GROUPS = {"default": "deny", "rules": [{"action": "allow", "match": {"channel": "slack", "chatType": "group"}}]}
EMPTY_STRINGS = {"default": "deny", "rules": [{"action": "allow", "match": {"channel": "", "keyPrefix": " "}}]}
NO_RULES_ALLOW = {"default": "allow", "rules": []}
NO_RULES_DENY = {"default": "deny", "rules": []}


@pytest.mark.parametrize(
    "cfg, key, allowed, rule",
    [
        # channel: the case — allow slack, default deny must deny discord
        (SLACK_ONLY, "agent:main:slack:channel:c1", True, 0),
        (SLACK_ONLY, "agent:main:slack:dm:u1", True, 0),
        (SLACK_ONLY, "agent:main:slack:direct:u1", True, 0),
        (SLACK_ONLY, "agent:main:discord:channel:c1", False, None),
        (SLACK_ONLY, "agent:main:discord:group:g1", False, None),
        (SLACK_ONLY, "agent:main:main", False, None),  # no channel: never matches a channel rule
        (DENY_DISCORD, "agent:main:discord:group:g1", False, 0),  # trimmed, case-insensitive
        (DENY_DISCORD, "agent:main:telegram:group:g1", True, None),
        # chatType, including OpenClaw's deprecated "dm" spelling of direct
        (DM_ALIAS, "agent:main:telegram:dm:1", True, 0),
        (DM_ALIAS, "agent:main:main", True, 0),
        (DM_ALIAS, "agent:main:telegram:group:1", False, None),
        # channel and chatType together
        (SLACK_GROUPS, "agent:main:slack:group:g", True, 0),
        (SLACK_GROUPS, "agent:main:slack:channel:c", False, None),
        (SLACK_GROUPS, "agent:main:discord:group:g", False, None),
        # an empty condition is no condition (as in OpenClaw)
        (EMPTY_STRINGS, "agent:main:discord:group:g", True, 0),
        # the default action alone
        (NO_RULES_ALLOW, "agent:main:discord:group:g", True, None),
        (NO_RULES_DENY, "agent:main:main", False, None),
        (NO_RULES_DENY, None, False, None),
    ],
)
def test_scope_table_channel_and_default(cfg, key, allowed, rule):
    d = decide_scope(scope(cfg), key)
    assert (d.allowed, d.rule_index) == (allowed, rule)


@pytest.mark.parametrize(
    "data, key_named",
    [
        ({"rules": [{"action": "allow", "match": {"channnel": "slack"}}]}, "'channnel'"),
        ({"rules": [{"action": "allow", "match": {"peer": "x"}}]}, "'peer'"),
        ({"rules": [{"action": "allow", "matches": {"channel": "slack"}}]}, "'matches'"),
        ({"defaults": "allow"}, "'defaults'"),
    ],
)
def test_unknown_scope_key_fails_closed_naming_it(data, key_named):
    from openclaw_tui.config import ConfigError, validate_config

    with pytest.raises(ConfigError) as err:
        validate_config({"memory": {"qmd": {"scope": data}}})
    text = str(err.value)
    assert key_named in text and "memory.qmd.scope" in text
    assert "\n" not in text
