"""Every ```python block of README.md, docs/*.md and python/rmtsweep/README.md runs, against the example's file.

The blocks are found when the test runs, so a block added to the docs is tested without registering it.
They run as a reader would run them: from the repository's top (here a scratch copy of it: every entry
of the source tree linked in, and an out/ of its own), with PYTHONPATH=python and Debian's
/usr/bin/python3, after `out/example.h5` was made from configs/example.ini (its axes, so the values the
docs select are on its grid; d = 40 instead of 200 to take seconds) and assembled. The blocks of one page
run in order in one interpreter, so a block may use what an earlier block of its page defined.

A block that must not run (it needs a cluster, or shows a mistake) is marked by the line
    <!-- docs-test: skip (why) -->
directly above its opening fence.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

ARGS = None
SKIP = re.compile(r"<!--\s*docs-test:\s*skip\b.*-->")
FENCE = re.compile(r"^```python\s*$")

# Runs the blocks of one page (a JSON list of [first line, code]) in one namespace; a failing block
# is reported with the page and the line of its fence.
RUNNER = r"""
import json, sys, traceback
page, blocks = sys.argv[1], json.load(open(sys.argv[2]))
namespace = {"__name__": "__main__"}
for line, code in blocks:
    try:
        exec(compile(code, f"{page}:{line}", "exec"), namespace)
    except Exception:
        print(f"the block of {page} at line {line} failed:", file=sys.stderr)
        traceback.print_exc()
        sys.exit(1)
"""


def python_blocks(path):
    """[(line of the opening fence, code)] of the ```python blocks not marked docs-test: skip."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    blocks, i = [], 0
    while i < len(lines):
        if FENCE.match(lines[i]):
            start, code = i, []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                code.append(lines[i])
                i += 1
            if not (start > 0 and SKIP.search(lines[start - 1])):
                blocks.append((start + 1, "\n".join(code) + "\n"))
        i += 1
    return blocks


def pages(root):
    docs = os.path.join(root, "docs")
    package = os.path.join(root, "python", "rmtsweep", "README.md")
    return [os.path.join(root, "README.md")] + sorted(
        os.path.join(docs, name) for name in os.listdir(docs) if name.endswith(".md")) + (
        [package] if os.path.exists(package) else [])


class DocsPythonBlocks(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.top = cls.tmp.name
        for name in os.listdir(ARGS.root):
            if name not in ("out", ".git") and not name.startswith("build"):
                os.symlink(os.path.join(ARGS.root, name), os.path.join(cls.top, name))
        os.mkdir(os.path.join(cls.top, "out"))
        example = os.path.join(cls.top, "out", "example.h5")
        for command in ([ARGS.mpiexec, "-n", "2", "--oversubscribe", ARGS.binary, "run", "--config",
                         os.path.join(ARGS.root, "configs", "example.ini"), "--d", "40", "--output", example],
                        [ARGS.binary, "assemble", example, "--quiet"]):
            done = subprocess.run(command, capture_output=True, text=True, cwd=cls.top)
            if done.returncode != 0:
                raise RuntimeError(" ".join(command) + " failed: " + done.stderr)
        cls.runner = os.path.join(cls.top, "run_blocks.py")
        with open(cls.runner, "w") as f:
            f.write(RUNNER)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_the_readme_has_a_python_block(self):
        self.assertTrue(python_blocks(os.path.join(ARGS.root, "README.md")), "README.md has no ```python block")

    def test_every_python_block_of_the_readme_and_the_docs_runs(self):
        env = dict(os.environ, PYTHONPATH=os.path.join(ARGS.root, "python"), MPLBACKEND="Agg",
                   PYTHONDONTWRITEBYTECODE="1")
        for page in pages(ARGS.root):
            blocks = python_blocks(page)
            if not blocks:
                continue
            name = os.path.relpath(page, ARGS.root)
            with self.subTest(page=name):
                listing = os.path.join(self.top, "blocks.json")
                with open(listing, "w") as f:
                    json.dump(blocks, f)
                done = subprocess.run(["/usr/bin/python3", self.runner, name, listing], capture_output=True,
                                      text=True, cwd=self.top, env=env, timeout=600)
                self.assertEqual(done.returncode, 0, done.stderr[-4000:])


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--root", required=True, help="the source tree")
    ARGS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
