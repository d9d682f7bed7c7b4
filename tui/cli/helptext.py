"""Help pages: prose wrapped to the terminal, examples kept line for line as they are typed.

Every parser of the command line is a :class:`Parser`, so ``add_subparsers`` makes each nested
one a :class:`Parser` too and no command has to name a formatter. A command's examples go in its
epilog, written with :func:`examples`; ``tests/test_cli_help.py`` checks that every command has a
description and an example, and runs the examples on the demo bank.
"""

from __future__ import annotations

import argparse
import difflib
import re
import textwrap
from typing import NoReturn


class HelpFormatter(argparse.HelpFormatter):
    """Wraps paragraphs of prose; keeps every indented line (an example, a list) exactly as written.

    argparse's own choice is all or nothing: the default formatter re-wraps examples into one
    paragraph, ``RawDescriptionHelpFormatter`` leaves long prose lines unwrapped."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        out: list[str] = []
        paragraph: list[str] = []

        def flush() -> None:
            if paragraph:
                out.append(textwrap.fill(" ".join(paragraph), width, initial_indent=indent, subsequent_indent=indent))
                paragraph.clear()

        for line in textwrap.dedent(text).strip("\n").splitlines():
            if line.strip() and not line[0].isspace():
                paragraph.append(line.strip())
                continue
            flush()
            out.append(indent + line.rstrip() if line.strip() else "")
        flush()
        return "\n".join(out)


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` with :class:`HelpFormatter`; its subparsers are Parsers as well.

    A mistyped command or option is answered with the closest one (``did you mean 'validate'?``),
    and an argument a command does not take is reported under that command's usage, not the
    top level's."""

    def __init__(self, *args: object, formatter_class: type = HelpFormatter, **kwargs: object) -> None:
        super().__init__(*args, formatter_class=formatter_class, **kwargs)  # type: ignore[arg-type]

    def error(self, message: str) -> NoReturn:
        wrong = _INVALID_CHOICE.search(message)
        if wrong:
            given, choices = wrong.group(1), re.findall(r"'([^']*)'", wrong.group(2))
            near = difflib.get_close_matches(given, choices, n=1, cutoff=0.6)
            if near:
                message = f"{message[: wrong.start()]}invalid choice: '{given}'; did you mean '{near[0]}'?"
        super().error(message)

    def unrecognized(self, extras: list[str]) -> NoReturn:
        """Arguments this parser does not take, with the option they were likely meant to be."""
        message = f"unrecognized arguments: {' '.join(extras)}"
        flag = next((e.split("=", 1)[0] for e in extras if e.startswith("--")), None)
        options = [o for action in self._actions for o in action.option_strings if o.startswith("--")]
        near = difflib.get_close_matches(flag, options, n=1, cutoff=0.6) if flag else []
        if near:
            message += f"; did you mean {near[0]}?"
        elif not flag:
            message += ' (quote a value that holds spaces: "how are payments retried")'
        self.error(message)


_INVALID_CHOICE = re.compile(r"invalid choice: '([^']*)' \(choose from (.*)\)$", re.S)


def examples(*lines: str) -> str:
    """An epilog of examples: commands as typed, each ``# ...`` line saying what the next one does."""
    return "examples:\n" + "\n".join(f"  {line}" if line else "" for line in lines)


class Once(argparse.Action):
    """An option that takes one value: given twice, it is a usage error rather than the last one
    silently winning (``--scope adr --scope ops`` validated ``ops`` alone)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values, option_string=None):  # type: ignore[no-untyped-def]
        if getattr(namespace, self.dest, None) is not None:
            parser.error(f"{option_string} takes one value; give it once (run the command once per value)")
        setattr(namespace, self.dest, values)
