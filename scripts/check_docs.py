#!/usr/bin/env python3
"""Checks the documents against the program and the tree.

    scripts/check_docs.py build/apps/heatrk4     # both checks (CTest's docs_match_help)
    scripts/check_docs.py --md-only              # the second alone, without a build

1. The lists a user reads (run options, subcommands, backends, tiled's default of each order and
   precision) are printed by `heatrk4 --help` and `heatrk4 backends`; this compares docs/design.md
   and README.md with them both ways: every option and backend the program has is documented, every
   option the documents name exists, and every tiled configuration that docs/design.md or README.md
   names, and each row of benchmarks/worklog.md's table of the defaults, is the default the program
   prints.

2. Every `.md` file of the tree (`git ls-files '*.md'`, and those not yet added) is read outside its
   fenced code blocks, and each backticked token is judged by the rules of `md_token_problems`:
   - a path (it holds a `/` or ends in a source or document extension, `SOURCE_EXTENSIONS`) must
     exist, relative to the repository root or to the document's own folder; `<x>` and `*` are
     wildcards (`heat_<step>.hdf`, `backends/registry.*`). Not paths, so skipped: absolute paths
     (the system's, and HDF5 objects such as `/VTKHDF/PointData/u`), tokens with characters no path
     of the tree has (`|`, `=`, `:`, `(`, `^`: alternatives, assignments, formulas), tiled
     configuration names (`factors/32x16/c2x1/a2`, whose defaults part 1 checks), paths under a
     folder git ignores (build trees, `heatrk4-out/`, `.deps/`: what a build or run makes) and
     the `PLACEHOLDER_ROOTS` (`DIR/...`, `$OUT/...`). `COMMIT:path` must name a file of that commit.
   - a C++ name (it holds `_` or `::` or is CamelCase, or is called, `name(args)`; no spaces) must
     occur as a word in some source file of the tree (.hpp .cpp .cu .cuh .c .h .py .sh .cmake
     CMakeLists.txt); `a.b` and `A::b` are checked part by part (JSON keys such as `timing.writer_s`
     are words of the code that writes them). Skipped: names with a double underscore (reserved to
     the implementation in C++: CUDA intrinsics, HDF5's internal functions, Nsight metrics; Python's
     own dunders), one letter with a subscript (`h_a`, `m_p`: mathematics), `NAME=value`
     (an environment setting, part of a command), and `EXTERNAL_NAMES`, each with its reason.
   - markdown links `[text](target)` must lead to a file, relative to the document.
   - in the dated logs (`HISTORY_DOCUMENTS`) a path or name may be the code's as it was: one that
     is not in the tree must then be in git's history (a path of some commit; a word of a line some
     commit added to a source file). Without git (a copied tree) those are counted, not checked.
   Tokens with spaces (command lines, prose), options (`--x`), numbers and plain words are skipped.

Exit 0 when everything agrees, 1 with one line per difference otherwise (`file:line: ...` for the
documents' tokens), and a last line with what was checked.
"""
import fnmatch
import posixpath
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def program_output(binary, *args):
    return subprocess.run([binary, *args], check=True, capture_output=True, text=True).stdout


def help_options_and_commands(binary):
    text = program_output(binary, "--help")
    options = set(re.findall(r"^\s+(?:-\w,)?(--[a-z][a-z0-9-]*)", text, re.M))
    commands_block = text.split("Subcommands:", 1)[1] if "Subcommands:" in text else ""
    commands = set(re.findall(r"^  ([a-z]+)\s", commands_block, re.M))
    return options, commands


def registry_backends(text):
    """The backends this build has, and whether it has CUDA (else the CUDA ones are missing)."""
    rows = text.split("\n\n", 1)[0].splitlines()[1:]
    return {row.split()[0] for row in rows if row.strip()}, "this build has no CUDA" not in text


# A tiled configuration's name, e.g. factors/32x16/c2x1/a2/tma2 (docs/design.md §5).
CONFIGURATION = re.compile(r"\b((?:all4|factor-pairs|factors)/\d+x\d+/c2x\d+(?:/(?:[a-z]+\d+|dmma))*)")


def tiled_defaults(text):
    """{(order, precision): configuration} from the table `heatrk4 backends` prints for tiled."""
    block = re.search(r"^tiled: the default of each order and precision.*\n[^\n]*\n((?:\d[^\n]*\n?)*)", text, re.M)
    rows = block.group(1).splitlines() if block else []
    return {(int(row.split()[0]), row.split()[1]): row.split()[2] for row in rows}


def worklog_defaults(worklog):
    """The rows "| 8 float | `factors/...` | ..." of the worklog's table of the tiled defaults."""
    match = re.search(r"^### The tiled defaults.*?(?=^### |\Z)", worklog, re.M | re.S)
    table = match.group(0) if match else ""
    return {(int(order), precision): configuration
            for order, precision, configuration in re.findall(r"^\| (\d) (float|double) \| `([^`]+)` \|", table, re.M)}


def tiled_problems(defaults, design, readme, worklog):
    """Where the documents' tiled defaults differ from the ones the program prints."""
    problems = []
    expected = {(order, precision) for order in (2, 4, 6, 8) for precision in ("float", "double")}
    for order, precision in sorted(expected - defaults.keys()):
        problems.append(f"heatrk4 backends prints no tiled default for order {order} in {precision}")
    if "`heatrk4 backends`" not in section(design, 5):
        problems.append("docs/design.md §5 does not cite `heatrk4 backends` for tiled's defaults")
    printed = set(defaults.values())
    for name, text in (("docs/design.md", design), ("README.md", readme)):
        for configuration in sorted(set(CONFIGURATION.findall(text)) - printed):
            problems.append(f"{name} names tiled configuration {configuration}, which is no default "
                            f"heatrk4 backends prints")
    logged = worklog_defaults(worklog)
    for key in sorted(defaults):
        if logged.get(key) != defaults[key]:
            problems.append(f"benchmarks/worklog.md's table of the tiled defaults has {logged.get(key)} for order "
                            f"{key[0]} in {key[1]}; heatrk4 backends prints {defaults[key]}")
    return problems


def section(text, number):
    match = re.search(rf"^## {number}\. .*?(?=^## \d+\. |\Z)", text, re.M | re.S)
    return match.group(0) if match else ""


# --- 2. Every .md file's backticked paths and names -------------------------------------------

SOURCE_EXTENSIONS = (".hpp", ".cpp", ".cu", ".cuh", ".c", ".h", ".py", ".sh", ".md", ".txt", ".cmake", ".toml")
# Files whose words are the code's names (CMakeLists.txt by name).
CODE_EXTENSIONS = (".hpp", ".cpp", ".cu", ".cuh", ".c", ".h", ".py", ".sh", ".cmake")
# Extensions of files a run, a benchmark or a test writes or keeps as data: a bare name with one of
# these (`heat_<step>.hdf`, `run_all_t22.log`) names an output, not a file of the tree; with a `/`
# it is a path and must exist.
DATA_EXTENSIONS = (".hdf", ".h5", ".vti", ".pvti", ".pvd", ".series", ".png", ".svg", ".csv", ".json", ".log",
                   ".list", ".patch", ".dot", ".so", ".deb", ".lock", ".tmp", ".whl")
# Roots that stand for a folder the reader or a script picks: `DIR/heat.pvd`, `P/lib/...` (a prefix),
# `~/.local`, `COMMIT:path`; so does any shell variable (`$OUT/...`, `$RESULTS_DIR/scaling.txt`).
PLACEHOLDER_ROOTS = {"DIR", "~", "P", "COMMIT", "..."}
# Names of other projects' code that a document names on purpose and the code does not call.
EXTERNAL_NAMES = {
    "H5VM_memcpyvv": "HDF5's internal frame of a crash fuzz/hdf5_crashes/README.md reports",
    "H5C_protect": "HDF5's internal frame of a crash fuzz/hdf5_crashes/README.md reports",
    "ncclConfig_t": "NCCL's configuration struct, weighed and not used (benchmarks/)",
    "maxCTAs": "a field of ncclConfig_t, weighed and not used (benchmarks/)",
    "mbarrier": "PTX's mbarrier instructions (`mbarrier.try_wait.parity`), named in PTX's spelling",
}
# Dated logs, whose entries name the code as it was then.
HISTORY_DOCUMENTS = {"benchmarks/worklog.md", "benchmarks/worklog_tiled_history.md"}
# Files and folders a run or a document's example makes where the reader runs it. (A bare file name
# that no file of the tree has but a source file names, such as `scaling.txt`, is a file a script
# writes: it passes.)
OUTPUT_NAMES = {"slice.py": "README.md's pvbatch script, saved by the reader",
                ".heatrk4-trash/": "where a run moves the files of the run it replaces (io/stale_files.hpp)"}

PATH_CHARACTERS = re.compile(r"[A-Za-z0-9_.\-/*<>$~]+")
CONFIGURATION_PART = re.compile(r"^(\d+x\d+|c2x\d+|\.\.\.)$")
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
CALL = re.compile(r"^([A-Za-z_][\w:.<>]*)\(.*\)$", re.S)


def git(*args):
    try:
        result = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True)
    except OSError:
        return None
    return result.stdout if result.returncode == 0 else None


def tree_files():
    """The tree's files, relative to the root: git's (tracked, or new and not ignored) that exist;
    without git (a copied tree), every file but those under .git, __pycache__ and the root folders
    .gitignore names (build trees, .deps)."""
    listed = git("ls-files", "--cached", "--others", "--exclude-standard")
    if listed is not None:
        return sorted({name for name in listed.splitlines() if (ROOT / name).is_file()})
    ignored = ignored_roots()
    found = []
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        if (path.is_file() and ".git" not in parts and "__pycache__" not in parts
                and not any(fnmatch.fnmatchcase(parts[0], pattern) for pattern in ignored)):
            found.append(path.relative_to(ROOT).as_posix())
    return sorted(found)


def is_code(name):
    return name.endswith(CODE_EXTENSIONS) or name.rsplit("/", 1)[-1] == "CMakeLists.txt"


def words_of(texts):
    words = set()
    for text in texts:
        words.update(NAME.findall(text))
    return words


def ignored_roots():
    """Root-anchored folders of .gitignore (`/build*/`, `/heatrk4-out/`), as fnmatch patterns."""
    gitignore = ROOT / ".gitignore"
    lines = gitignore.read_text().splitlines() if gitignore.exists() else []
    return [line.strip("/") for line in lines if line.startswith("/") and line.endswith("/")]


class History:
    """What git's history holds: every path of every commit, and every word of an added source line."""

    def __init__(self):
        names = git("log", "--all", "--format=", "--name-only")
        # A shallow clone (CI's may be one) holds only the latest commits: its history is taken as
        # unavailable, as without git, rather than as proof that an old name never existed.
        self.available = names is not None and (git("rev-parse", "--is-shallow-repository") or "").strip() == "false"
        if not self.available:
            names = None
        self.paths = set(names.split()) if names else set()
        for path in list(self.paths):
            while "/" in path:
                path = path.rsplit("/", 1)[0]
                self.paths.add(path)
        self.basenames = {path.rsplit("/", 1)[-1] for path in self.paths}
        self._words = None

    def words(self):
        if self._words is None:
            patch = git("log", "--all", "-p", "--format=", "--", *[f"*{e}" for e in CODE_EXTENSIONS],
                        "*CMakeLists.txt") or ""
            self._words = words_of(line for line in patch.splitlines() if line.startswith("+"))
        return self._words

    def has_commit_file(self, commit, path):
        return git("cat-file", "-e", f"{commit}:{path}") is not None


def wildcard(text):
    """`<x>` placeholders as `*`."""
    return re.sub(r"<[^<>]*>", "*", text)


def exists_in_tree(path, folder, files, folders):
    """Whether path (with wildcards) names a file or folder relative to the root or to folder."""
    is_folder = path.endswith("/")
    path = path.rstrip("/")
    for base in ("", folder):
        candidate = f"{base}/{path}" if base else path
        candidate = posixpath.normpath(candidate)
        pool = folders if is_folder else files | folders
        if any(ch in candidate for ch in "*?["):
            if any(fnmatch.fnmatchcase(name, candidate) for name in pool):
                return True
        elif candidate in pool:
            return True
    return False


def md_paragraphs(text):
    """(first line number, text) of each paragraph outside fenced code blocks."""
    lines = text.splitlines()
    paragraph, start, fenced = [], 0, False
    for number, line in enumerate(lines, 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            line = ""
        if fenced or not line.strip():
            if paragraph:
                yield start, "\n".join(paragraph)
            paragraph = []
            continue
        if not paragraph:
            start = number
        paragraph.append(line)
    if paragraph:
        yield start, "\n".join(paragraph)


def md_tokens(text):
    """(line, kind, token) for each backticked token and each link target of a document."""
    for start, paragraph in md_paragraphs(text):
        for match in re.finditer(r"(?<!`)`([^`]+)`(?!`)", paragraph):
            yield start + paragraph.count("\n", 0, match.start()), "code", match.group(1)
        for match in re.finditer(r"\]\(([^)\s]+)\)", paragraph):
            yield start + paragraph.count("\n", 0, match.start()), "link", match.group(1)


class MdChecker:
    def __init__(self):
        self.files = set(tree_files())
        self.folders = {name.rsplit("/", 1)[0] for name in self.files if "/" in name}
        for folder in list(self.folders):
            while "/" in folder:
                folder = folder.rsplit("/", 1)[0]
                self.folders.add(folder)
        self.code_text = "\n".join((ROOT / name).read_text(errors="replace") for name in self.files if is_code(name))
        self.words = words_of([self.code_text])
        self.basenames = {}
        for name in self.files:
            self.basenames.setdefault(name.rsplit("/", 1)[-1], []).append(name)
        self.ignored = ignored_roots()
        self.history = History()
        self.counts = {"files": 0, "paths": 0, "names": 0, "links": 0, "as in history": 0, "history unchecked": 0}

    def documents(self):
        return sorted(name for name in self.files if name.endswith(".md"))

    def check(self):
        problems = []
        for document in self.documents():
            self.counts["files"] += 1
            folder = document.rsplit("/", 1)[0] if "/" in document else ""
            text = (ROOT / document).read_text(errors="replace")
            for line, kind, token in md_tokens(text):
                for problem in self.token_problems(document, folder, kind, token):
                    problems.append(f"{document}:{line}: {problem}")
        return problems

    # Paths.
    def path_problems(self, document, folder, token):
        commit = re.fullmatch(r"([0-9a-f]{7,40}):(\S+)", token)
        if commit:
            self.counts["paths"] += 1
            if not self.history.available:
                self.counts["history unchecked"] += 1
                return []
            if "<" in token or self.history.has_commit_file(commit.group(1), commit.group(2)):
                return []
            return [f"`{token}`: commit {commit.group(1)} has no file {commit.group(2)}"]
        if (token.startswith("/") or not PATH_CHARACTERS.fullmatch(token)
                or any(CONFIGURATION_PART.match(part) or part.isdigit() for part in token.split("/"))):
            return []
        root = token.split("/", 1)[0]
        if root in PLACEHOLDER_ROOTS or root.startswith("$") or token in OUTPUT_NAMES:
            return []
        if "/" in token and any(fnmatch.fnmatchcase(root, pattern) for pattern in self.ignored):
            return []
        self.counts["paths"] += 1
        path = wildcard(token)
        if exists_in_tree(path, folder, self.files, self.folders):
            return []
        if document in HISTORY_DOCUMENTS:
            if not self.history.available:
                self.counts["history unchecked"] += 1
                return []
            bare = path.rstrip("/")
            pool = self.history.paths if "/" in bare else self.history.basenames
            candidates = [bare, f"{folder}/{bare}"] if "/" in bare else [bare]
            if any(fnmatch.fnmatchcase(name, candidate) for candidate in candidates for name in pool):
                self.counts["as in history"] += 1
                return []
            return [f"path `{token}` is neither in the tree nor in git's history"]
        bare = token.rstrip("/")
        elsewhere = [] if "/" in bare else self.matching_basenames(path)
        if "/" not in token and not elsewhere and self.literal(path):
            return []  # a file a script writes, by the name the script gives it
        where = f"the root or {folder}/" if folder else "the root"
        hint = f"; did you mean {', '.join(f'`{name}`' for name in elsewhere[:3])}?" if elsewhere else ""
        if "/" in bare and not hint:
            near = self.matching_basenames(wildcard(bare.rsplit("/", 1)[-1]))
            hint = f"; the tree has {', '.join(f'`{name}`' for name in near[:3])}" if near else ""
        return [f"path `{token}` does not exist (relative to {where}){hint}"]

    def matching_basenames(self, pattern):
        return sorted(name for base, names in self.basenames.items() if fnmatch.fnmatchcase(base, pattern)
                      for name in names)

    def literal(self, pattern):
        """Whether the code's text holds pattern, `*` matching a placeholder or a variable."""
        if "*" not in pattern:
            return pattern in self.code_text
        pieces = [re.escape(piece) for piece in pattern.split("*")]
        return re.search(r"[\w<>${}]*".join(pieces), self.code_text) is not None

    # Names.
    def name_problems(self, document, token):
        call = CALL.match(token)
        if call:
            token = call.group(1)
        if re.search(r"\s", token) or "=" in token:
            return []
        token = token.strip('"')
        qualified = "::" in token
        problems = []
        if token.split(".", 1)[0] in EXTERNAL_NAMES:
            return []
        for part in re.split(r"::|\.", token):
            pattern = wildcard(part)
            if not re.fullmatch(r"[A-Za-z_*][A-Za-z0-9_*]*", pattern) or not re.search(r"[A-Za-z]", pattern):
                continue
            looks_like_code = ("_" in part or qualified or call is not None
                               or re.search(r"[a-z][A-Z]|[A-Z][a-z]+[A-Z]", part))
            if (not looks_like_code or "__" in part or part in EXTERNAL_NAMES
                    or re.fullmatch(r"[A-Za-z]_\w{1,3}", part) or part.startswith("-")):
                continue
            self.counts["names"] += 1
            if self.has_word(pattern, self.words):
                continue
            # The summary's set-up phases are written as `<phase>_s` from the phase's name,
            # `clock.mark("gpu_select")` (apps/run_summary.cpp).
            if pattern.endswith("_s") and f'"{pattern[:-2]}"' in self.code_text:
                continue
            if document in HISTORY_DOCUMENTS:
                if not self.history.available:
                    self.counts["history unchecked"] += 1
                    continue
                if self.has_word(pattern, self.history.words()):
                    self.counts["as in history"] += 1
                    continue
                problems.append(f"`{part}` is in no source file of the tree nor of git's history")
                continue
            problems.append(f"`{part}` is in no source file")
        return problems

    @staticmethod
    def has_word(pattern, words):
        if "*" not in pattern:
            return pattern in words
        regex = re.compile(pattern.replace("*", r"\w*"))
        return any(regex.fullmatch(word) for word in words)

    def token_problems(self, document, folder, kind, token):
        if kind == "link":
            target = token.split("#", 1)[0]
            if not target or re.match(r"[a-z]+:", target):
                return []
            self.counts["links"] += 1
            candidate = posixpath.normpath(f"{folder}/{target}" if folder else target)
            if candidate in self.files or candidate in self.folders:
                return []
            return [f"link ({token}) leads to no file relative to {folder or 'the root'}"]
        token = token.strip()
        if not token or re.search(r"\s", token) and not CALL.match(token) or token.startswith("-"):
            return []
        if CONFIGURATION.fullmatch(token):
            return []
        bare = token.rstrip("/")
        last = bare.rsplit("/", 1)[-1]
        if "/" in token or last.endswith(SOURCE_EXTENSIONS) and not re.search(r"\s", token):
            return self.path_problems(document, folder, token)
        if re.search(r"\.[A-Za-z0-9]+$", last) and last.endswith(DATA_EXTENSIONS):
            return []
        return self.name_problems(document, token)


def program_problems(binary):
    """Part 1: the documents against `heatrk4 --help` and `heatrk4 backends`; (problems, summary)."""
    options, commands = help_options_and_commands(binary)
    backends_text = program_output(binary, "backends")
    backends, complete_build = registry_backends(backends_text)
    defaults = tiled_defaults(backends_text)
    design = (ROOT / "docs/design.md").read_text()
    readme = (ROOT / "README.md").read_text()
    worklog = (ROOT / "benchmarks/worklog.md").read_text()
    command_line = section(design, 3)
    backend_table = section(design, 2)
    problems = []
    if not options or not backends:
        problems.append(f"could not read the options ({len(options)}) or backends ({len(backends)}) from {binary}")
    for option in sorted(options - {"--help"}):
        for name, text in (("docs/design.md §3", command_line), ("README.md", readme)):
            if not re.search(re.escape(option) + r"(?![a-z0-9-])", text):
                problems.append(f"{option} (in --help) is not in {name}")
    documented_options = set(re.findall(r"`(--[a-z][a-z0-9-]*)", command_line.split("**Tolerances.**")[0]))
    for option in sorted(documented_options - options):
        problems.append(f"{option} is in docs/design.md §3's run options but not in --help")
    for command in sorted(commands):
        if not re.search(rf"^heatrk4 {command}\b", command_line, re.M) and command != "run":
            problems.append(f"subcommand {command} (in --help) is not in docs/design.md §3")
    backend_list = re.search(r"`--backend\s+([a-z_|]+)`", command_line)
    listed = set(backend_list.group(1).split("|")) if backend_list else set()
    for backend in sorted(backends):
        if not re.search(rf"^\| `{backend}` \|", backend_table, re.M):
            problems.append(f"backend {backend} (in heatrk4 backends) has no row in docs/design.md §2")
        if backend not in listed:
            problems.append(f"backend {backend} is not in docs/design.md §3's --backend list")
    for backend in sorted(listed - backends - {"auto"} if complete_build else ()):
        problems.append(f"docs/design.md §3 lists --backend {backend}, which heatrk4 backends does not")
    # A build without CUDA has no tiled backend, so nothing to hold the documents to.
    if "tiled" in backends:
        problems += tiled_problems(defaults, design, readme, worklog)
    summary = (f"{len(options)} options, {len(commands)} subcommands, {len(backends)} backends, "
               f"{len(defaults)} tiled defaults")
    return problems, summary


def main():
    if len(sys.argv) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    problems, parts = [], []
    if sys.argv[1] != "--md-only":
        program, summary = program_problems(sys.argv[1])
        problems += program
        parts.append(summary)
    checker = MdChecker()
    problems += checker.check()
    counts = checker.counts
    history = f", {counts['as in history']} as in git's history" if counts["as in history"] else ""
    unchecked = (f", {counts['history unchecked']} of the logs' unchecked (no git history)"
                 if counts["history unchecked"] else "")
    parts.append(f"{counts['files']} .md files: {counts['paths']} paths, {counts['names']} names, "
                 f"{counts['links']} links{history}{unchecked}")
    for line in problems:
        print(line)
    print(f"check_docs: {'; '.join(parts)}; {len(problems)} difference(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
