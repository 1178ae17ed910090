#!/usr/bin/env python3
"""Checks the relative links of the documentation: every [text](path#anchor) in README.md,
ARCHITECTURE.md, dbformat/README.md and docs/**/*.md names a file or directory of the
repository and, with an anchor, a heading of that Markdown file (GitHub's anchors: lower
case, punctuation dropped, spaces to hyphens). Links with a scheme (https:, mailto:) are
not followed. Prints each broken link with its file and line; exit status 1 if any.

    scripts/check-doc-links.py [FILE.md...]
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LINK = re.compile(r"\[[^\]]*\]\(([^()\s]+(?:\([^()\s]*\))?[^()\s]*)\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def slug(heading):
    text = re.sub(r"`|\*\*?|_(?=\w)|(?<=\w)_", "", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path):
    found, fenced = {}, False
    names = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            base = slug(line.lstrip("#"))
            n = found.get(base, 0)
            found[base] = n + 1
            names.add(base if n == 0 else f"{base}-{n}")
    return names


def links(path):
    fenced = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        for target in LINK.findall(re.sub(r"`[^`]*`", "", line)):
            yield number, target


def broken(path):
    for number, target in links(path):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):
            continue
        file_part, _, anchor = target.partition("#")
        dest = (path.parent / file_part).resolve() if file_part else path
        if not dest.exists():
            yield number, target, "no such file"
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            yield number, target, "no such heading"


def main():
    files = [pathlib.Path(a).resolve() for a in sys.argv[1:]] or [
        ROOT / "README.md", ROOT / "ARCHITECTURE.md", ROOT / "dbformat" / "README.md",
        *sorted((ROOT / "docs").rglob("*.md"))]
    bad = 0
    for path in files:
        for number, target, why in broken(path):
            print(f"{path.relative_to(ROOT)}:{number}: {target}: {why}")
            bad += 1
    if bad:
        print(f"{bad} broken link(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
