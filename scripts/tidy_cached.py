#!/usr/bin/env python3
"""clang-tidy with a result cache, for scripts/clang-tidy.sh.

    tidy_cached.py BUILD_DIR ROOT JOBS LOG FILE...

Runs `clang-tidy --quiet -p BUILD_DIR FILE` for each FILE (relative to ROOT), JOBS at a time, and appends
every output to LOG. A file whose run printed no finding is remembered in the cache
($AT_TIDY_CACHE, default ~/.cache/at-clang-tidy) under a key of everything its result depends on:

- clang-tidy's version, the repository's .clang-tidy and this script;
- the file's path in the repository and its compile command (checkout and build paths replaced);
- the content of every file the translation unit includes, as the compiler's dependency list (-M) names
  them (system and Qt headers too), each with its path in the same replaced form.

The dependency list is taken from the raw files, not from preprocessed text, so that a change in a
comment (a NOLINT), in an inactive #ifdef block or in a line count (the function-size check) still
changes the key. A clean result for the same key is the same result, as a ccache hit is the same
object; a file with findings is never cached, so it is checked (and reported) on every run.
AT_TIDY_CACHE=off turns the cache off.
"""
import concurrent.futures
import hashlib
import json
import os
import shlex
import subprocess
import sys

SCRIPT_VERSION = b"1"


def tool_identity(root):
    h = hashlib.sha256(SCRIPT_VERSION)
    h.update(subprocess.run(["clang-tidy", "--version"], capture_output=True).stdout)
    for name in (".clang-tidy", "scripts/tidy_cached.py"):
        with open(os.path.join(root, name), "rb") as f:
            h.update(f.read())
    return h.hexdigest()


class KeyMaker:
    def __init__(self, build, root, commands):
        self.build, self.root, self.commands = build, root, commands
        self.content_hashes = {}  # path -> sha256 of its bytes, shared by every file of the run
        self.identity = tool_identity(root)

    def portable(self, text):
        # The build directory first: it may lie inside the checkout.
        return text.replace(self.build, "<build>").replace(self.root, "<root>")

    def content_hash(self, path):
        digest = self.content_hashes.get(path)
        if digest is None:
            with open(path, "rb") as f:
                digest = hashlib.sha256(f.read()).hexdigest()
            self.content_hashes[path] = digest
        return digest

    def dependencies(self, entry):
        """The files the compiler reads for this translation unit, or None when it cannot say."""
        args = shlex.split(entry["command"])
        kept, skip = [], False
        for a in args:
            if skip:
                skip = False
                continue
            if a in ("-o", "-MF", "-MT", "-MQ"):
                skip = True
                continue
            if a in ("-c", "-MD", "-MMD"):
                continue
            kept.append(a)
        run = subprocess.run(kept + ["-M"], cwd=entry["directory"], capture_output=True, text=True)
        if run.returncode != 0:
            return None
        text = run.stdout.replace("\\\n", " ")
        _, _, deps = text.partition(":")
        return sorted({os.path.realpath(os.path.join(entry["directory"], d)) for d in deps.split()})

    def key(self, rel):
        entry = self.commands.get(os.path.realpath(os.path.join(self.root, rel)))
        if entry is None:
            return None
        deps = self.dependencies(entry)
        if deps is None:
            return None
        h = hashlib.sha256(self.identity.encode())
        h.update(rel.encode())
        h.update(self.portable(entry["command"]).encode())
        for d in deps:
            h.update(self.portable(d).encode())
            h.update(self.content_hash(d).encode())
        return h.hexdigest()


def has_finding(output):
    return any(": warning: " in line or ": error: " in line for line in output.splitlines())


def main():
    build, root, jobs, log = (os.path.realpath(sys.argv[1]), os.path.realpath(sys.argv[2]),
                              int(sys.argv[3]), sys.argv[4])
    files = sys.argv[5:]
    cache = os.environ.get("AT_TIDY_CACHE", os.path.expanduser("~/.cache/at-clang-tidy"))
    use_cache = cache != "off"
    commands = {}
    with open(os.path.join(build, "compile_commands.json")) as f:
        for entry in json.load(f):
            commands[os.path.realpath(os.path.join(entry["directory"], entry["file"]))] = entry
    keys = KeyMaker(build, root, commands) if use_cache else None
    if use_cache:
        os.makedirs(cache, exist_ok=True)

    def check(rel):
        key = keys.key(rel) if keys else None
        marker = os.path.join(cache, key) if key else None
        if marker and os.path.exists(marker):
            return rel, "", True
        run = subprocess.run(["clang-tidy", "--quiet", "-p", build, rel], cwd=root, capture_output=True,
                             text=True)
        output = run.stdout + run.stderr
        if marker and run.returncode == 0 and not has_finding(output):
            with open(marker, "w") as m:
                m.write(rel + "\n")
        return rel, output, False

    hits = 0
    with open(log, "a") as out, concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for rel, output, cached in pool.map(check, files):
            hits += cached
            out.write(output)
    print(f"clang-tidy cache: {hits} of {len(files)} files unchanged since a clean run"
          if use_cache else "clang-tidy cache: off")


if __name__ == "__main__":
    main()
