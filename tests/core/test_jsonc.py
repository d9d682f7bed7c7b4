"""JSON with comments: read like VS Code reads it, edited so only our entry changes."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from memorybank.core import jsonc

ENTRY = {"command": "memorybank", "args": ["mcp", "--root", "/p/memory_bank"]}

OWNED = """\
{
  // servers this workspace uses; docs at https://example.com/docs
  "servers": {
    "fetch": {
      "type": "http",
      "url": "https://example.com//mcp", /* the // in the URL is not a comment */
    },
  },
  /* a block
     comment */
  "inputs": [],
}
"""


def test_comments_and_trailing_commas_are_read_and_strings_are_left_alone():
    assert jsonc.load(OWNED, comments=True) == {
        "servers": {"fetch": {"type": "http", "url": "https://example.com//mcp"}},
        "inputs": [],
    }
    assert jsonc.load('{"a": "/* x */ // y", "b": "\\"//"}', comments=True) == {"a": "/* x */ // y", "b": '"//'}
    assert jsonc.load("", comments=True) == {} and jsonc.load("  // nothing yet\n", comments=True) == {}


def test_an_entry_is_inserted_with_the_siblings_layout_and_everything_else_stays():
    after = jsonc.set_member(OWNED, ("servers", "memorybank"), ENTRY, comments=True)
    assert jsonc.load(after, comments=True)["servers"] == {
        "fetch": {"type": "http", "url": "https://example.com//mcp"},
        "memorybank": ENTRY,
    }
    # exactly one addition: our entry after the last sibling, indented like it, with the trailing comma the owner uses
    block = '\n    "memorybank": ' + json.dumps(ENTRY, indent=2).replace("\n", "\n    ") + ","
    assert after == OWNED.replace("    },\n  },", "    }," + block + "\n  },")
    assert jsonc.set_member(after, ("servers", "memorybank"), ENTRY, comments=True) == after


def test_a_changed_entry_is_replaced_in_place_and_a_compact_one_stays_compact():
    text = '{\n  // mine\n  "mcpServers": {"memorybank": {"command": "old"}, "other": {}}\n}\n'
    after = jsonc.set_member(text, ("mcpServers", "memorybank"), ENTRY, comments=True)
    assert after == text.replace('{"command": "old"}', json.dumps(ENTRY))


def test_missing_objects_are_created_and_line_endings_kept():
    text = '{\r\n\t"a": 1 // one\r\n}\r\n'
    after = jsonc.set_member(text, ("mcpServers", "memorybank"), ENTRY, comments=True)
    assert after.startswith('{\r\n\t"a": 1, // one\r\n\t"mcpServers": {\r\n\t\t"memorybank": {\r\n')
    assert "\n" not in after.replace("\r\n", "")
    assert jsonc.set_member(None, ("s", "k"), 1, comments=False) == '{\n  "s": {\n    "k": 1\n  }\n}\n'
    opened = jsonc.set_member('{\n  "mcpServers": {}\n}\n', ("mcpServers", "k"), 1, comments=False)
    assert opened == '{\n  "mcpServers": {\n    "k": 1\n  }\n}\n'


def test_an_item_is_appended_to_an_array():
    text = '{"model": "x", "hooks": {"Stop": [{"hooks": []}]}}'
    after = jsonc.append_item(text, ("hooks", "Stop"), {"n": 1}, comments=False)
    assert after == '{"model": "x", "hooks": {"Stop": [{"hooks": []}, {"n": 1}]}}'
    assert jsonc.load(jsonc.append_item('{"model": "x"}', ("hooks", "Stop"), 1, comments=False), comments=False) == {
        "model": "x",
        "hooks": {"Stop": [1]},
    }


@pytest.mark.parametrize(
    ("text", "comments", "line", "reason"),
    [
        ('{\n  "a": 1 // note\n}', False, 2, "a comment, which plain JSON does not allow"),
        ('{\n  "a": 1,\n}', False, 2, "a trailing comma"),
        ('{\n  "a": 1\n  "b": 2\n}', True, 3, '"," or "}" expected'),
        ('{\n  "a": "open\n}', True, 2, "a string that is not closed"),
        ("{\n  /* never closed\n}", True, 2, "a /* comment that is never closed"),
        ('{"a": [1, 2}', True, 1, '"," or "]" expected'),
        ("[1, 2]", True, 1, "does not hold a JSON object"),
        ('{"servers": 3}', True, 1, '"servers" holds number, not an object'),
    ],
)
def test_malformed_input_names_its_line(text, comments, line, reason):
    with pytest.raises(jsonc.JsoncError) as caught:
        jsonc.set_member(text, ("servers", "memorybank"), ENTRY, comments=comments)
    assert caught.value.line == line and reason in caught.value.reason


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet="ab/*\\\"' é", max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(alphabet="ab/*", max_size=3), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=60, deadline=None)
@given(
    owner=st.dictionaries(st.sampled_from(["servers", "inputs", "x"]), json_values, max_size=3),
    indent=st.sampled_from([None, 2, 4, "\t"]),
)
def test_any_owner_file_gets_our_entry_and_nothing_else(owner, indent):
    if not isinstance(owner.get("servers", {}), dict):
        owner["servers"] = {}
    text = json.dumps(owner, indent=indent)
    after = jsonc.set_member(text, ("servers", "memorybank"), ENTRY, comments=True)
    expected = {**owner, "servers": {**owner.get("servers", {}), "memorybank": ENTRY}}
    assert json.loads(after) == expected  # plain JSON in, plain JSON out
    assert jsonc.set_member(after, ("servers", "memorybank"), ENTRY, comments=True) == after


def test_our_entry_is_removed_with_its_lines_and_its_comma_and_nothing_else():
    wired = jsonc.set_member(OWNED, ("servers", "memorybank"), ENTRY, comments=True)
    assert jsonc.remove_member(wired, ("servers", "memorybank"), comments=True) == OWNED
    first = '{\n  "mcpServers": {\n    "memorybank": {\n      "command": "m"\n    },\n    "other": {}\n  }\n}\n'
    assert jsonc.remove_member(first, ("mcpServers", "memorybank"), comments=False) == (
        '{\n  "mcpServers": {\n    "other": {}\n  }\n}\n'
    )
    crlf = '{\r\n  "mcpServers": {\r\n    "a": 1,\r\n    "memorybank": 2\r\n  }\r\n}\r\n'
    assert jsonc.remove_member(crlf, ("mcpServers", "memorybank"), comments=False) == (
        '{\r\n  "mcpServers": {\r\n    "a": 1\r\n  }\r\n}\r\n'
    )
    for compact, left in (
        ('{"s": {"a": 1, "memorybank": {"c": 2}}}', '{"s": {"a": 1}}'),
        ('{"s": {"memorybank": {"c": 2}, "a": 1}}', '{"s": {"a": 1}}'),
        ('{"s": {"memorybank": {"c": 2}}}', '{"s": {}}'),
    ):
        assert jsonc.remove_member(compact, ("s", "memorybank"), comments=False) == left
    assert jsonc.remove_member(OWNED, ("servers", "memorybank"), comments=True) == OWNED  # not there
    assert jsonc.remove_member(None, ("servers", "memorybank"), comments=True) == ""


@settings(max_examples=80, deadline=None)
@given(
    owner=st.dictionaries(st.sampled_from(["servers", "inputs", "x"]), json_values, max_size=3),
    indent=st.sampled_from([None, 2, 4, "\t"]),
)
def test_any_owner_file_wired_then_unwired_holds_what_it_held(owner, indent):
    if not isinstance(owner.get("servers", {}), dict):
        owner["servers"] = {}
    text = json.dumps(owner, indent=indent)
    wired = jsonc.set_member(text, ("servers", "memorybank"), ENTRY, comments=True)
    unwired = jsonc.remove_member(wired, ("servers", "memorybank"), comments=True)
    expected = {**owner, "servers": owner.get("servers", {})}
    assert json.loads(unwired) == expected
    if owner.get("servers") and "memorybank" not in owner["servers"]:
        assert unwired == text  # a member set beside the owner's is taken out to the byte
