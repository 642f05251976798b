"""Reading and writing the files a command is given, without ever destroying one.

Every path a command writes to is checked before any work (``check_output_path``: a regular
file or nothing, in a folder that can be written to; a symbolic link is followed to its
target), then written through a temporary file created exclusively in the same folder,
flushed to the disk and renamed over the target (``write_atomic``): an interrupted write
leaves the old file whole, and no file but the target is ever touched.  Files a command reads
(``read_limited``) must be regular files under a size limit: a tube or a device is refused
before it is opened for reading, so nothing hangs and nothing fills the memory.

Every problem is a ``FileProblem`` whose message is French and names the path.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from pathlib import Path

#: the largest file a command reads when nothing more specific applies
DEFAULT_READ_LIMIT = 64 * 1024 * 1024


class FileProblem(Exception):
    """A file a command cannot read or write (exit 2); the message is French, with the path."""


#: operating-system errors said in French
_ERRNO_FR = {
    errno.ENOENT: "ce fichier ou ce dossier n'existe pas",
    errno.EACCES: "vous n'avez pas le droit d'y accéder",
    errno.EPERM: "opération interdite par le système",
    errno.EISDIR: "c'est un dossier, pas un fichier",
    errno.ENOTDIR: "un élément du chemin n'est pas un dossier",
    errno.ENOSPC: "le disque est plein",
    errno.EROFS: "le système de fichiers est en lecture seule",
    errno.ENAMETOOLONG: "nom de fichier trop long",
    errno.ELOOP: "des liens symboliques tournent en boucle",
    errno.EEXIST: "le fichier existe déjà",
    errno.EFBIG: "fichier trop gros pour le système de fichiers",
    errno.EIO: "erreur d'entrée-sortie du disque",
    errno.EXDEV: "le fichier temporaire et la cible sont sur deux disques différents",
    errno.EBUSY: "le fichier est occupé",
    errno.ENXIO: "périphérique absent",
    errno.EINVAL: "opération impossible sur ce fichier",
    errno.EMFILE: "trop de fichiers ouverts",
}
if hasattr(errno, "EDQUOT"):
    _ERRNO_FR[errno.EDQUOT] = "votre quota de disque est atteint"


def os_message(exc: OSError) -> str:
    """An operating-system error in French (its number when there is no French name)."""
    why = _ERRNO_FR.get(exc.errno or 0)
    if why is None:
        why = f"erreur du système n° {exc.errno}" if exc.errno else "erreur du système"
    return why


def problem(path: Path | str, why: str, fix: str = "") -> FileProblem:
    return FileProblem(f"« {path} » : {why}" + (f" ; {fix}" if fix else "") + ".")


def _size(n: int) -> str:
    return f"{n / 1024 / 1024:.0f} Mo" if n >= 1024 * 1024 else f"{n} octets"


def _target(path: Path) -> Path:
    """Where writing ``path`` writes: the file a symbolic link leads to (followed to its end),
    else ``path`` itself."""
    if not path.is_symlink():
        return path
    try:
        return Path(os.path.realpath(path, strict=False))
    except (OSError, RuntimeError):
        raise problem(path, _ERRNO_FR[errno.ELOOP], "remplacez le lien par un fichier") from None


def _nearest_folder(path: Path) -> Path:
    """The nearest existing ancestor of ``path``."""
    here = path.parent
    while not os.path.lexists(here) and here != here.parent:
        here = here.parent
    return here


def _check_folder(folder: Path, shown: Path) -> None:
    try:
        st = folder.stat()
    except OSError as exc:
        raise problem(shown, os_message(exc), "choisissez un autre emplacement") from None
    if not stat.S_ISDIR(st.st_mode):
        raise problem(
            shown,
            f"« {folder} » n'est pas un dossier",
            "choisissez un chemin dont chaque élément est un dossier",
        )
    if not os.access(folder, os.W_OK | os.X_OK):
        raise problem(
            shown,
            f"vous n'avez pas le droit d'écrire dans le dossier « {folder} »",
            "choisissez un autre dossier ou donnez-vous ce droit (chmod u+w)",
        )


def check_output_path(path: Path | str) -> Path:
    """Check that ``path`` can be written as a file, before any work; return the file that
    will be written (a symbolic link's target).  Refused: a folder, a tube, a device, a file
    or a folder without write permission, a path under a file."""
    path = Path(path)
    target = _target(path)
    try:
        st = target.stat()
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise problem(path, os_message(exc), "choisissez un autre fichier") from None
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise problem(path, "c'est un dossier", "donnez le nom d'un fichier à écrire")
        if not stat.S_ISREG(st.st_mode):
            raise problem(
                path,
                "ce n'est pas un fichier ordinaire (un tube, un périphérique…)",
                "donnez le nom d'un fichier ordinaire",
            )
        if not os.access(target, os.W_OK):
            raise problem(
                path,
                "vous n'avez pas le droit d'écrire ce fichier",
                "choisissez un autre fichier ou donnez-vous ce droit (chmod u+w)",
            )
        _check_folder(target.parent, path)
    else:
        _check_folder(_nearest_folder(target), path)
    return target


def check_output_folder(path: Path | str) -> Path:
    """Check that ``path`` is a folder that can be written to, or can be made."""
    path = Path(path)
    try:
        st = path.stat()
    except FileNotFoundError:
        _check_folder(_nearest_folder(path), path)
        return path
    except OSError as exc:
        raise problem(path, os_message(exc), "choisissez un autre dossier") from None
    if not stat.S_ISDIR(st.st_mode):
        raise problem(path, "ce n'est pas un dossier", "donnez le nom d'un dossier")
    _check_folder(path / ".", path)
    return path


def write_atomic(path: Path | str, data: str | bytes) -> Path:
    """Write ``data`` to ``path`` (through a symbolic link, to its target): a temporary file
    created exclusively beside the target, flushed to the disk, then renamed over it.  The
    target keeps its permissions.  Returns the file written."""
    path = Path(path)
    target = check_output_path(path)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    folder = target.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise problem(path, os_message(exc), "choisissez un autre emplacement") from None
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except OSError:
        mode = None
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    flags |= getattr(os, "O_BINARY", 0)
    for _ in range(100):
        tmp = folder / f".{target.name}.{secrets.token_hex(6)}.tmp"
        try:
            fd = os.open(tmp, flags, 0o666)
            break
        except FileExistsError:
            continue
        except OSError as exc:
            raise problem(path, os_message(exc), "choisissez un autre emplacement") from None
    else:  # pragma: no cover - a hundred random names all taken
        raise problem(path, "aucun nom de fichier temporaire libre dans son dossier")
    try:
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(raw)
                f.flush()
                os.fsync(f.fileno())
            if mode is not None:
                os.chmod(tmp, mode)
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError as exc:
        raise problem(path, os_message(exc), "le fichier d'origine n'a pas été modifié") from None
    # the rename itself made durable (best effort: not every system can open a folder)
    with contextlib.suppress(OSError):
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    return target


def read_limited(path: Path | str, limit: int = DEFAULT_READ_LIMIT) -> bytes:
    """The bytes of the regular file ``path``, refused (``FileProblem``) when it is not one (a
    folder, a tube, a device: checked without blocking) or holds more than ``limit`` bytes."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise problem(path, os_message(exc), "vérifiez le chemin") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise problem(path, "c'est un dossier", "donnez le nom d'un fichier")
        if not stat.S_ISREG(st.st_mode):
            raise problem(
                path,
                "ce n'est pas un fichier ordinaire (un tube, un périphérique…)",
                "donnez le nom d'un fichier ordinaire",
            )
        if st.st_size > limit:
            raise problem(
                path,
                f"fichier trop gros ({_size(st.st_size)} ; au plus {_size(limit)})",
                "vérifiez que c'est le bon fichier",
            )
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise problem(path, os_message(exc), "vérifiez le fichier") from None
    finally:
        os.close(fd)
    if total > limit:  # it grew while being read
        raise problem(path, f"fichier trop gros (au plus {_size(limit)})", "vérifiez le fichier")
    return b"".join(chunks)


def read_text_limited(path: Path | str, limit: int = DEFAULT_READ_LIMIT) -> str:
    """``read_limited``, decoded as UTF-8 (a byte-order mark is dropped)."""
    raw = read_limited(path, limit)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise problem(
            path, "ce fichier n'est pas du texte en UTF-8", "enregistrez-le en UTF-8"
        ) from None
