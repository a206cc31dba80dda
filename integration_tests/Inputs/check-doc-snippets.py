"""Checks that the MLIR snippets of documentation pages are real: each
```mlir block must be cut from a program of the repository named in the
paragraph above it (a path under examples/ or integration_tests/), its lines
found in that file in the same order; a line "..." stands for lines left
out. Prints one line per snippet and exits 1 if any is not found.

    check-doc-snippets.py ROOT [--require] PAGE.md...

ROOT is the repository; with --require every snippet must name its program
(without it, a snippet that names none is skipped).
"""
import re
import sys

SOURCE = re.compile(r"\b((?:examples|integration_tests)/[\w./-]+\.mlir)\b")


def snippets(text):
    """Yields (line number, source paths, snippet lines) of each ```mlir block."""
    lines = text.split("\n")
    paragraph = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.strip() == "```mlir":
            start = i + 1
            i += 1
            body = []
            while i < len(lines) and lines[i].strip() != "```":
                body.append(lines[i])
                i += 1
            sources = []
            for text_line in paragraph:
                for path in SOURCE.findall(text_line):
                    if path not in sources:
                        sources.append(path)
            yield start, sources, body
        elif line.strip() == "":
            pass
        elif line.startswith("```"):
            # Another kind of block: skip it, keeping the paragraph.
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                i += 1
        else:
            if i > 0 and lines[i - 1].strip() == "" and not (
                    i > 1 and lines[i - 2].strip() == "```"):
                paragraph = []
            paragraph.append(line)
        i += 1


def found_in_order(snippet, program):
    """Whether the snippet's lines (but "...") are lines of the program, in
    order, each compared without its surrounding white space."""
    wanted = [line.strip() for line in snippet if line.strip() not in ("", "...")]
    have = [line.strip() for line in program]
    position = 0
    for line in wanted:
        try:
            position = have.index(line, position) + 1
        except ValueError:
            return line
    return None


def main():
    root = sys.argv[1]
    require = "--require" in sys.argv[2:]
    pages = [arg for arg in sys.argv[2:] if arg != "--require"]
    failed = False
    for page in pages:
        with open(page) as f:
            text = f.read()
        name = page.split("/")[-1]
        for start, sources, body in snippets(text):
            if not sources:
                if require:
                    print("%s:%d: names no program" % (name, start))
                    failed = True
                continue
            missing = None
            for source in sources:
                with open(root + "/" + source) as f:
                    missing = found_in_order(body, f.read().split("\n"))
                if missing is None:
                    print("%s:%d: ok, from %s" % (name, start, source))
                    break
            if missing is not None:
                print("%s:%d: not in %s: %s" % (name, start, " or ".join(sources), missing))
                failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
