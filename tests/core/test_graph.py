"""The derived_from graph: up, down and both on the reference fixture, caps, cycles, external neighbours."""

from __future__ import annotations

import concurrent.futures
import os

import pytest
from memorybank.core.bank import Bank
from memorybank.core.errors import NotADocument, UsageError
from memorybank.core.graph import (
    DEFAULT_DEPTH,
    DEFAULT_LIMIT,
    NEIGHBOUR_LIMIT,
    NO_SUCH_FILE,
    NOT_MARKDOWN,
    OUTSIDE_CEILING,
    LooseEdge,
    read_neighbours,
    walk_graph,
)

from tests.conftest import FIXTURES

RULES = "domain/rules.md"
FT1 = "features/FT-001/brief.md"
ADR1 = "adr/ADR-001-queue-choice.md"
ARCH = "engineering/architecture.md"


@pytest.fixture(scope="module")
def bank():
    return Bank.open(FIXTURES / "reference")


def others(graph) -> list[str]:
    return [n.path for n in graph.nodes if n.depth > 0]


def doc(title: str, derived: list[str] | None = None, extra: str = "") -> str:
    lines = ["---", f"title: {title}", "doc_kind: engineering", "status: active"]
    if derived:
        lines += ["derived_from:", *[f"  - {d}" for d in derived]]
    return "\n".join(lines) + "\n" + extra + "---\n# " + title + "\n"


# -- the reference's fixture expectations (D.14, acceptance checks 38 and 39) ----------------------


def test_down_one_hop_from_the_rules_is_its_direct_dependents(bank):
    graph = walk_graph(bank, RULES, direction="down", depth=1)
    assert others(graph) == [ARCH, FT1]
    assert graph.nodes[0].path == RULES and graph.nodes[0].depth == 0 and graph.nodes[0].via == "down"
    assert {(e.source, e.target) for e in graph.edges} == {(ARCH, RULES), (FT1, RULES)}


def test_down_two_hops_puts_the_adr_at_depth_two_and_counts_layers(bank):
    graph = walk_graph(bank, RULES, direction="down", depth=2)
    depth = {n.path: n.depth for n in graph.nodes}
    assert depth[ADR1] == 2
    assert graph.by_layer == {"decision": 1, "delivery": 1, "knowledge": 1}
    adr = next(n for n in graph.nodes if n.path == ADR1)
    assert adr.via == "down" and adr.reached_from == ARCH


def test_up_one_hop_from_the_feature_keeps_the_fit_and_lists_the_external_edge(bank):
    graph = walk_graph(bank, FT1, direction="up", depth=1)
    assert others(graph) == [ADR1, RULES]
    fits = {(e.source, e.target): e.fit for e in graph.edges}
    assert "queue topology" in fits[(FT1, ADR1)]
    assert fits[(FT1, RULES)] is None
    assert [e.raw for e in graph.external] == ["../../../outside-bank/upstream.md"]
    assert graph.broken == ()


def test_up_from_the_architecture_lists_its_broken_edge(bank):
    graph = walk_graph(bank, ARCH, direction="up", depth=1)
    assert graph.broken == (LooseEdge(ARCH, "../missing/nowhere.md"),)
    assert graph.external == ()


def test_both_walks_up_then_down(bank):
    graph = walk_graph(bank, ARCH, direction="both", depth=1)
    via = {n.path: n.via for n in graph.nodes}
    assert via == {ARCH: "both", RULES: "up", ADR1: "down"}


def test_nodes_are_sorted_by_depth_then_path_and_edges_by_source_then_target(bank):
    graph = walk_graph(bank, "dna/principles.md", direction="down", depth=6, limit=300)
    keys = [(n.depth, n.path) for n in graph.nodes]
    assert keys == sorted(keys)
    pairs = [(e.source, e.target) for e in graph.edges]
    assert pairs == sorted(pairs) and len(pairs) == len(set(pairs))


def test_the_node_cap_counts_the_root_and_sets_truncated(bank):
    graph = walk_graph(bank, "dna/principles.md", direction="down", depth=3, limit=3)
    assert len(graph.nodes) == 3 and graph.truncated
    alone = walk_graph(bank, RULES, direction="down", limit=1)
    assert [n.path for n in alone.nodes] == [RULES] and alone.truncated and alone.edges == ()


def test_a_deep_walk_both_ways_terminates_without_truncation(bank):
    graph = walk_graph(bank, RULES, direction="both", depth=6, limit=200)
    assert not graph.truncated and len(graph.nodes) <= len(bank)


def test_defaults_are_down_two_hops_and_sixty_nodes(bank):
    graph = walk_graph(bank, RULES)
    assert (graph.direction, graph.depth, graph.limit) == ("down", DEFAULT_DEPTH, DEFAULT_LIMIT) == ("down", 2, 60)


def test_an_unknown_path_is_not_a_document(bank):
    with pytest.raises(NotADocument, match="Not a document of this bank: nope.md"):
        walk_graph(bank, "nope.md")


def test_caller_path_forms_go_through_the_resolver(bank):
    assert walk_graph(bank, "memory_bank/domain/rules.md", depth=1).root == RULES
    assert walk_graph(bank, str(FIXTURES / "reference" / RULES), depth=1).root == RULES


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"depth": 0}, "depth must be between 1 and 6"),
        ({"depth": 7}, "depth must be between 1 and 6"),
        ({"limit": 0}, "between 1 and 300"),
        ({"limit": 301}, "between 1 and 300"),
        ({"direction": "sideways"}, "direction must be one of up, down, both"),
    ],
)
def test_out_of_range_arguments_are_usage_errors(bank, kwargs, message):
    with pytest.raises(UsageError, match=message):
        walk_graph(bank, RULES, **kwargs)


# -- beyond the reference -------------------------------------------------------------------------


def test_external_and_broken_edges_are_listed_for_every_node_not_only_in_the_up_sweep(bank):
    """The reference collected them only while walking up, so a down walk hid FT-001's external edge
    and the architecture's broken one; both belong to documents the walk shows."""
    graph = walk_graph(bank, RULES, direction="down", depth=1)
    assert graph.external == (LooseEdge(FT1, "../../../outside-bank/upstream.md"),)
    assert graph.broken == (LooseEdge(ARCH, "../missing/nowhere.md"),)


def test_cycles_are_walked_once(tmp_path, write_file):
    write_file(tmp_path, "a.md", doc("A", ["b.md"]))
    write_file(tmp_path, "b.md", doc("B", ["c.md"]))
    write_file(tmp_path, "c.md", doc("C", ["a.md"]))
    bank = Bank.open(tmp_path)
    for direction in ("up", "down", "both"):
        graph = walk_graph(bank, "a.md", direction=direction, depth=6)
        assert sorted(n.path for n in graph.nodes) == ["a.md", "b.md", "c.md"] and not graph.truncated
    up = walk_graph(bank, "a.md", direction="up", depth=6)
    assert [(e.source, e.target) for e in up.edges] == [("a.md", "b.md"), ("b.md", "c.md"), ("c.md", "a.md")]


def test_both_walk_expands_downward_a_node_the_up_sweep_found_first(tmp_path, write_file):
    """In a cycle a<->b, the up sweep adds b; the down sweep must still expand b to find c, which
    derives from b. The reference only expanded nodes new to the walk and lost c."""
    write_file(tmp_path, "a.md", doc("A", ["b.md"]))
    write_file(tmp_path, "b.md", doc("B", ["a.md"]))
    write_file(tmp_path, "c.md", doc("C", ["b.md"]))
    graph = walk_graph(Bank.open(tmp_path), "a.md", direction="both", depth=2)
    depth = {n.path: n.depth for n in graph.nodes}
    assert depth == {"a.md": 0, "b.md": 1, "c.md": 2}
    assert ("c.md", "b.md") in {(e.source, e.target) for e in graph.edges}


def test_an_edge_listed_twice_is_one_edge_and_keeps_its_fit(tmp_path, write_file):
    write_file(tmp_path, "up.md", doc("Up"))
    twice = "derived_from:\n  - up.md\n  - path: up.md\n    fit: Only the intro.\n"
    write_file(tmp_path, "down.md", doc("Down", extra=twice))
    bank = Bank.open(tmp_path)
    for graph in (walk_graph(bank, "down.md", direction="up"), walk_graph(bank, "up.md", direction="down")):
        assert [(e.source, e.target, e.fit) for e in graph.edges] == [("down.md", "up.md", "Only the intro.")]


def test_the_cap_keeps_the_nearest_documents_first(tmp_path, write_file):
    write_file(tmp_path, "hub.md", doc("Hub"))
    for i in range(10):
        write_file(tmp_path, f"d{i}.md", doc(f"D{i}", ["hub.md"]))
        write_file(tmp_path, f"e{i}.md", doc(f"E{i}", [f"d{i}.md"]))
    graph = walk_graph(Bank.open(tmp_path), "hub.md", direction="down", depth=2, limit=12)
    assert graph.truncated and len(graph.nodes) == 12
    assert [n.path for n in graph.nodes if n.depth == 1] == [f"d{i}.md" for i in range(10)]
    assert [n.path for n in graph.nodes if n.depth == 2] == ["e0.md"]


def test_neighbours_can_be_skipped(bank):
    assert walk_graph(bank, FT1, direction="up", neighbours=False).neighbours == ()


# -- external neighbours, one hop (D.15, acceptance check 40) -------------------------------------


@pytest.fixture
def monorepo(tmp_path, write_file):
    """tmp/a/b/app/memory_bank derives from a sibling bank tmp/a/b/ops/memory_bank (and worse)."""
    root = tmp_path / "a" / "b" / "app" / "memory_bank"
    write_file(root, "dna/principles.md", doc("Principles"))
    sibling = "../../../ops/memory_bank/infra/servers.md"
    gone = "../../../ops/memory_bank/gone.md"
    write_file(root, "engineering/deploy.md", doc("Deploy", ["../dna/principles.md", sibling, gone]))
    write_file(
        tmp_path / "a" / "b" / "ops" / "memory_bank",
        "infra/servers.md",
        "---\ntitle: Servers\ndoc_kind: engineering\nstatus: active\npurpose: Where things run: two hosts.\n"
        "canonical_for: [server topology, deployment target]\nderived_from:\n  - ../dna/ops-root.md\n---\n# Servers\n",
    )
    write_file(tmp_path / "a" / "b" / "ops" / "memory_bank", "dna/ops-root.md", doc("Ops Root"))
    return root


def test_external_edges_stay_external_and_add_no_nodes(monorepo):
    graph = walk_graph(Bank.open(monorepo), "engineering/deploy.md", direction="up", depth=3)
    assert [n.path for n in graph.nodes] == ["engineering/deploy.md", "dna/principles.md"]
    assert len(graph.external) == 2 and graph.broken == ()


def test_a_neighbour_header_is_read_with_the_lenient_reader(monorepo):
    """The purpose holds an unquoted colon (invalid YAML) and canonical_for is an inline list: the
    reference's lenient reader kept ``[a, b]`` as one string; ours reads the list."""
    graph = walk_graph(Bank.open(monorepo), "engineering/deploy.md", direction="up", depth=3)
    servers = next(n for n in graph.neighbours if n.raw.endswith("servers.md"))
    assert servers.source == "engineering/deploy.md"
    assert (servers.title, servers.doc_kind, servers.status) == ("Servers", "engineering", "active")
    assert servers.canonical_for == ("server topology", "deployment target")
    assert servers.purpose == "Where things run: two hosts."
    assert servers.unreadable is None and servers.file == "../../ops/memory_bank/infra/servers.md"


def test_a_missing_neighbour_says_no_such_file_and_is_never_walked(monorepo):
    graph = walk_graph(Bank.open(monorepo), "engineering/deploy.md", direction="up", depth=3)
    assert len(graph.neighbours) == 2  # the neighbour's own derived_from is not followed
    gone = next(n for n in graph.neighbours if n.raw.endswith("gone.md"))
    assert gone.unreadable == NO_SUCH_FILE and "no such file" in gone.unreadable and gone.title is None


def test_no_external_edges_means_no_neighbours():
    assert read_neighbours(FIXTURES / "reference", []) == ()


def test_neighbours_above_the_ceiling_or_not_markdown_are_not_read(tmp_path, write_file):
    root = tmp_path / "a" / "b" / "c" / "memory_bank"  # the ceiling is tmp/a, three levels up
    write_file(tmp_path, "top.md", doc("Top"))
    write_file(tmp_path / "a", "near.md", doc("Near"))
    write_file(tmp_path / "a", "spec.yaml", "title: no\n")
    os.symlink(tmp_path / "top.md", tmp_path / "a" / "link.md")
    edges = [
        LooseEdge("x.md", raw)
        for raw in (
            "../../../../top.md",
            "../../../near.md#intro",
            "../../../spec.yaml",
            "../../../link.md",
            str(tmp_path / "a" / "near.md"),
            "https://example.com/x.md",
        )
    ]
    found = read_neighbours(root, edges)
    assert found[0].unreadable == OUTSIDE_CEILING and "outside" in found[0].unreadable
    assert found[1].title == "Near" and found[1].file == "../../../near.md" and found[1].unreadable is None
    assert found[2].unreadable == NOT_MARKDOWN == "not a markdown file"
    assert found[3].unreadable == OUTSIDE_CEILING  # a link inside the ceiling to a file above it
    assert found[4].title == "Near"  # an absolute path is taken as written
    assert found[5].unreadable.startswith("a URL")


def test_at_most_twenty_five_neighbours_are_read(tmp_path):
    edges = [LooseEdge("x.md", f"../../n{i}.md") for i in range(40)]
    assert len(read_neighbours(tmp_path / "bank", edges)) == NEIGHBOUR_LIMIT == 25


def test_a_neighbour_without_a_title_is_named_by_its_file(tmp_path, write_file):
    write_file(tmp_path, "plain.md", "no frontmatter at all\n")
    (found,) = read_neighbours(tmp_path / "bank", [LooseEdge("x.md", "../plain.md")])
    assert found.title == "plain.md" and found.doc_kind is None and found.canonical_for is None
    assert found.file == "../plain.md"  # as a link from the bank root would say it


def test_a_fifo_or_a_folder_named_like_a_document_is_refused_without_waiting(tmp_path, write_file):
    root = tmp_path / "memory_bank"
    os.mkfifo(tmp_path / "hang.md")  # a blocking open would wait here for a writer that never comes
    (tmp_path / "folder.md").mkdir()
    edges = [LooseEdge("x.md", "../hang.md"), LooseEdge("x.md", "../folder.md")]
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        reading = pool.submit(read_neighbours, root, edges)
        try:
            found = reading.result(timeout=10)
        except concurrent.futures.TimeoutError:
            with open(tmp_path / "hang.md", "wb"):  # let the stuck reader go, then fail
                pass
            pytest.fail("reading a FIFO's header blocked")
    assert [n.unreadable for n in found] == ["could not be read: it is not a regular file"] * 2
