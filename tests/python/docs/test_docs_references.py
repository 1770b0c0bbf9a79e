"""Every reference in the repository resolves inside it.

- "model.md 5.2", "model.md section 1.1", "model.md sections 1-2", "docs/model.md §5.6": each cited
  section is a numbered heading of docs/model.md;
- every link and image of every Markdown page (README.md, docs/, studies/README.md, ...) names a file
  that exists, and an anchor (#...) names a heading of that page;
- every path docs/<...>.md or docs/figures/<...>.png named in code, configs and scripts exists, and so
  does every scripts/<...> or studies/<...> file named (a git `<commit>:<path>` names history, not the tree);
- no file names the specification or any document outside the repository;
- CITATION.cff gives the version CMakeLists.txt builds;
- README.md stays short and gives the two set-up commands, the second being what CI runs.
"""
import argparse
import os
import re
import sys
import unittest

ARGS = None
SKIP_DIRS = {".git", "out", "__pycache__", "data", "results", "figures"}
TEXT_SUFFIXES = {".md", ".cpp", ".hpp", ".h", ".in", ".py", ".sh", ".ini", ".txt", ".cmake", ".sbatch", ".qsub",
                 ".cff", ".yml", ".yaml", ".json", ""}
NUMBER = r"\d+(?:\.\d+)?"
CITATION = re.compile(r"model\.md(?:\s*(?:§|sections?\s+|section\s+§))?\s*(" + NUMBER +
                      r"(?:\s*(?:-|–|,|and)\s*(?:§)?" + NUMBER + r")*)")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
REPO_PATH = re.compile(r"(?<![\w./-])(docs/[\w./-]+\.(?:md|png))")
SCRIPT_PATH = re.compile(r"(?<![\w./:-])((?:scripts|studies)/[\w./-]+\.(?:py|sh|txt|md|png))")
OUTSIDE = re.compile("|".join([r"\.\./" + "shared", "shared" + "/docs", "/work" + "/shared"]))


def text_files(root):
    for directory, subdirs, files in os.walk(root):
        subdirs[:] = [s for s in subdirs if s not in SKIP_DIRS and not s.startswith("build")]
        for name in files:
            if os.path.splitext(name)[1] in TEXT_SUFFIXES:
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                if "\0" not in text:
                    yield os.path.relpath(path, root), text


def slug(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`|\*\*|<[^>]+>", "", heading.strip().lower())
    text = re.sub(r"&lt;|&gt;", "", text)
    return "".join(c for c in text if c.isalnum() or c in "-_ ").replace(" ", "-")


def anchors(path):
    with open(path, encoding="utf-8") as f:
        text = re.sub(r"```.*?```", "", f.read(), flags=re.S)
    return {slug(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.*)$", text, flags=re.M)}


class References(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.files = dict(text_files(ARGS.root))
        with open(os.path.join(ARGS.root, "docs", "model.md"), encoding="utf-8") as f:
            model = f.read()
        cls.sections = set(re.findall(r"^#{2,3}\s+(" + NUMBER + r")\.?\s", model, flags=re.M))

    def test_docs_model_has_the_sections_of_the_specification(self):
        expected = {"1", "1.1", "1.2", "2", "3", "4", "5", "5.1", "5.2", "5.3", "5.4", "5.5", "5.6", "6", "7"}
        self.assertEqual(sorted(expected - self.sections), [])

    def test_every_cited_section_of_model_md_exists(self):
        missing = []
        for path, text in self.files.items():
            for match in CITATION.finditer(text):
                for number in re.findall(NUMBER, match.group(1)):
                    if number not in self.sections:
                        line = text.count("\n", 0, match.start()) + 1
                        missing.append(f"{path}:{line}: {match.group(0)!r} cites section {number}")
        self.assertEqual(missing, [], "sections cited but not in docs/model.md")
        self.assertGreater(sum(len(CITATION.findall(t)) for t in self.files.values()), 50)

    def test_every_link_of_every_markdown_page_resolves(self):
        pages = [p for p in self.files if p.endswith(".md")]
        self.assertIn(os.path.join("docs", "model.md"), pages)
        self.assertIn(os.path.join("studies", "README.md"), pages)
        broken = []
        for page in pages:
            text = re.sub(r"```.*?```", "", self.files[page], flags=re.S)
            for target in LINK.findall(text):
                if re.match(r"[a-z]+:", target):
                    continue  # a web address
                file_part, _, anchor = target.partition("#")
                path = os.path.normpath(os.path.join(ARGS.root, os.path.dirname(page), file_part)) if file_part \
                    else os.path.join(ARGS.root, page)
                if not os.path.exists(path):
                    broken.append(f"{page}: {target} (no such file)")
                elif anchor and path.endswith(".md") and anchor not in anchors(path):
                    broken.append(f"{page}: {target} (no such heading)")
        self.assertEqual(broken, [])

    def test_every_docs_path_named_anywhere_exists(self):
        missing = [f"{path}: {name}" for path, text in self.files.items() for name in REPO_PATH.findall(text)
                   if not os.path.exists(os.path.join(ARGS.root, name))]
        self.assertEqual(missing, [])

    def test_every_script_or_study_named_anywhere_exists(self):
        named = [(path, name) for path, text in self.files.items() for name in SCRIPT_PATH.findall(text)]
        self.assertGreater(len(named), 20)
        missing = [f"{path}: {name}" for path, name in named if not os.path.exists(os.path.join(ARGS.root, name))]
        self.assertEqual(missing, [], "moved or removed: name it where it is now, or as <commit>:<path>")

    def test_the_readme_is_short_and_gives_the_set_up_commands_ci_runs(self):
        readme = self.files["README.md"]
        self.assertLessEqual(len(readme.splitlines()), 250)
        for command in ("bash scripts/example.sh", "bash scripts/test.sh"):
            self.assertRegex(readme, r"(?m)^    " + re.escape(command) + "$")
        self.assertRegex(self.files[os.path.join(".ci", "run")], r"(?m)^bash scripts/test\.sh$")

    def test_the_citation_file_gives_the_version_cmake_builds(self):
        with open(os.path.join(ARGS.root, "CMakeLists.txt"), encoding="utf-8") as f:
            project = re.search(r"project\(rmtsweep VERSION ([\d.]+)", f.read()).group(1)
        citation = self.files["CITATION.cff"]
        self.assertRegex(citation, r"(?m)^cff-version: 1\.2\.0$")
        self.assertEqual(re.search(r"(?m)^version: (\S+)$", citation).group(1), project)
        self.assertIn("arXiv:2605.06826", citation)
        self.assertIn("MIT License", self.files["LICENSE"])

    def test_nothing_refers_outside_the_repository(self):
        outside = [f"{path}: {m.group(0)}" for path, text in self.files.items() for m in OUTSIDE.finditer(text)]
        self.assertEqual(outside, [])


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    ARGS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
