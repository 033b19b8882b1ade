"""Public repositories at pinned commits, for the scripts that build other people's kernels at
validation time (validate_public.py, corpus.py): a local copy or a clone, its files at a commit,
and the commands run on them. Python 3.11 standard library only."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from validate_public_lib import Fail, TimedOut


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    except subprocess.TimeoutExpired as e:
        raise TimedOut(f"`{Path(cmd[0]).name} {cmd[1] if len(cmd) > 1 else ''}` took longer than {e.timeout:g} s") from None
    if p.returncode != 0:
        raise Fail(f"`{' '.join(map(str, cmd))}` failed (exit {p.returncode}): {p.stderr.strip()[:2000]}")
    return p


def local_copy(repos: Path | None, repository: str) -> Path | None:
    """A git repository for OWNER/NAME under --repos: DIR/OWNER/NAME, DIR/OWNER+NAME (or its
    repo/ folder, as the tool library's mirrors are), or DIR/NAME."""
    if repos is None:
        return None
    owner, name = repository.split("/", 1)
    for c in (repos / owner / name, repos / f"{owner}+{name}" / "repo", repos / f"{owner}+{name}", repos / name):
        if c.is_dir() and subprocess.run(["git", "-C", str(c), "rev-parse", "--git-dir"],
                                         capture_output=True).returncode == 0:
            return c
    return None


def missing_blobs(git_dir: Path, commit: str, pathspecs: list[str]) -> list[str]:
    """The files under `pathspecs` whose contents the copy lacks (a mirror keeps no large files)."""
    tree = run(["git", "-C", str(git_dir), "ls-tree", "-r", "-z", commit, "--", *pathspecs]).stdout
    blobs = [(meta.split()[2], path) for meta, path in
             (item.split("\t", 1) for item in tree.split("\0") if item) if meta.split()[1] == "blob"]
    if not blobs:
        return []
    check = run(["git", "-C", str(git_dir), "cat-file", "--batch-check"],
                input="".join(f"{oid}\n" for oid, _ in blobs)).stdout.splitlines()
    return [path for (_, path), line in zip(blobs, check) if line.endswith(" missing")]


def repository_at(repository: str, commit: str, repos: Path | None, out: Path,
                  paths: list[str] | None = None) -> Path:
    """OUT/src/OWNER+NAME@COMMIT: the repository's files at the commit (git archive), only those
    under `paths` when given (a mirror may lack large files elsewhere)."""
    dest = out / "src" / f"{repository.replace('/', '+')}@{commit[:12]}"
    if (dest / ".complete").is_file():
        return dest
    git_dir = local_copy(repos, repository)
    if git_dir is None:
        git_dir = out / "repos" / repository.replace("/", "+")
        if not git_dir.is_dir():
            log(f"cloning https://github.com/{repository}")
            run(["git", "clone", "--quiet", "--filter=blob:none", "--no-checkout",
                 f"https://github.com/{repository}", str(git_dir)])
    if subprocess.run(["git", "-C", str(git_dir), "cat-file", "-e", f"{commit}^{{commit}}"],
                      capture_output=True).returncode != 0:
        raise Fail(f"{git_dir}: commit {commit} of {repository} is not there (fetch it, or give a full copy with --repos)")
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    pathspecs = list(paths or ["."])
    missing = missing_blobs(git_dir, commit, pathspecs)
    if missing:
        log(f"{repository}: {len(missing)} files absent from the local copy, left out: {', '.join(missing[:3])}...")
        pathspecs += [f":(exclude,literal){m}" for m in missing]
    archive = subprocess.Popen(["git", "-C", str(git_dir), "archive", "--format=tar", commit, "--", *pathspecs],
                               stdout=subprocess.PIPE)
    run(["tar", "-x", "-C", str(dest)], stdin=archive.stdout)
    if archive.wait() != 0:
        raise Fail(f"git archive of {repository} at {commit} failed")
    (dest / ".complete").write_text(commit + "\n")
    return dest


def write_region(path: Path, begin: str, end: str, text: list[str]) -> None:
    """Replaces what lies between the markers `begin` and `end` in the file with `text`."""
    doc = path.read_text()
    if begin not in doc or end not in doc:
        raise Fail(f"{path}: no {begin} ... {end} region to write the tables into")
    head, rest = doc.split(begin, 1)
    _, tail = rest.split(end, 1)
    path.write_text(head + begin + "\n" + "\n".join(text) + "\n" + end + tail)
