"""`veil models list | download | use | info | remove`."""

from __future__ import annotations

import argparse
import json
import sys
import threading
from pathlib import Path

from agent.sizes import human_size


def register(subcommands: argparse._SubParsersAction) -> None:
    parser = subcommands.add_parser(
        "models",
        help="local GGUF models: list, download, use, info, remove",
        description="Manage the local models Veil can use for relevance judgements, extra "
        "detection, context-aware stand-ins and restoring (see README, Local models).",
    )
    actions = parser.add_subparsers(dest="models_command", metavar="ACTION")

    p = actions.add_parser("list", help="catalog models and installed files")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=_list)

    p = actions.add_parser("download", help="download (or assemble) a catalog model, verified")
    p.add_argument("name", help="catalog name (see `veil models list`)")
    p.add_argument(
        "--allow-unverified",
        action="store_true",
        help="accept a file when neither the catalog nor the server gives a sha256",
    )
    p.set_defaults(func=_download)

    p = actions.add_parser("use", help="make a catalog model or a .gguf file the local model")
    p.add_argument("model", help="catalog name or path to a .gguf file")
    p.add_argument(
        "--tasks",
        help="comma-separated tasks to run with it: relevance,detect,surrogates,restore "
        "(default: keep the current setting; 'none' switches them off; 'recommended' uses "
        "the catalog's list for this model)",
    )
    p.set_defaults(func=_use)

    p = actions.add_parser("info", help="metadata of a model (name, parameters, quantization...)")
    p.add_argument("model", nargs="?", default="", help="catalog name or .gguf path (default: current)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_info)

    p = actions.add_parser("remove", help="delete a downloaded model (and any partial download)")
    p.add_argument("model", help="catalog name or path to a .gguf file in the models folder")
    p.set_defaults(func=_remove)

    parser.set_defaults(func=lambda args: (parser.print_help(), 0)[1])


def _current(settings) -> str:
    return settings.local_model.path or settings.local_model.name


def _list(args: argparse.Namespace) -> int:
    from agent.config import load_settings
    from models.catalog import load_catalog
    from models.store import installed_models

    catalog = load_catalog()
    settings = load_settings()
    current = _current(settings)
    installed = installed_models(catalog)
    extra = [m for m in installed if m.entry is None]
    if args.json:
        out = {
            "current": current,
            "models": [
                {**e.to_json(), "installed": e.is_installed(), "current": e.name == current}
                for e in catalog
            ],
            "other_files": [str(m.path) for m in extra],
        }
        print(json.dumps(out, indent=2))
        return 0
    print(f"{'':2}{'NAME':28} {'SIZE':>9}  {'LICENCE':28} {'GOOD FOR':38} STATE")
    for e in catalog:
        state = "installed" if e.is_installed() else ("bundled" if e.is_bundled else "-")
        mark = "* " if e.name == current else "  "
        print(f"{mark}{e.name:28} {human_size(e.size):>9}  {e.licence[:28]:28} {', '.join(e.tasks) or '-':38} {state}")
    for m in extra:
        mark = "* " if str(m.path) == current else "  "
        print(f"{mark}{m.path.name:28} {human_size(m.size):>9}  (not in the catalog)")
    if current and not catalog.find(current) and not any(str(m.path) == current for m in extra):
        print(f"* current: {current}")
    return 0


def _download(args: argparse.Namespace) -> int:
    from agent.cli import CliError
    from models.catalog import CatalogError, load_catalog
    from models.download import CancelToken, DownloadError, Progress
    from models.store import ModelNotAvailable, install

    try:
        entry = load_catalog().get(args.name)
    except CatalogError as exc:
        raise CliError(str(exc)) from None
    if entry.is_installed():
        print(f"{entry.name} is already installed: {entry.local_path()}")
        return 0
    tty = sys.stderr.isatty()
    lock = threading.Lock()

    def show(p: Progress) -> None:
        pct = f"{100 * p.fraction:5.1f}%" if p.fraction is not None else "     "
        eta = f"ETA {int(p.eta_s // 60)}:{int(p.eta_s % 60):02d}" if p.eta_s is not None else ""
        line = f"{entry.name}: {pct} {human_size(p.downloaded)} of {human_size(p.total)} at {human_size(int(p.rate_bps))}/s {eta}"
        with lock:
            if tty:
                print(f"\r{line:78}", end="", file=sys.stderr, flush=True)
            elif p.done:
                print(line, file=sys.stderr)

    cancel = CancelToken()
    what = "assembling" if entry.is_bundled else f"downloading {entry.url}"
    print(f"{what} ({human_size(entry.size)}) ...", file=sys.stderr)
    try:
        path = install(entry, progress=show, cancel=cancel, allow_unverified=args.allow_unverified)
    except KeyboardInterrupt:
        cancel.cancel()
        print("\ncancelled; run the same command again to resume", file=sys.stderr)
        return 130
    except (DownloadError, ModelNotAvailable) as exc:
        if tty:
            print(file=sys.stderr)
        raise CliError(str(exc)) from None
    if tty:
        print(file=sys.stderr)
    print(f"installed {entry.name}: {path} (sha256 verified)")
    return 0


def _use(args: argparse.Namespace) -> int:
    from agent.cli import CliError
    from agent.config import load_settings, save_settings
    from models.catalog import TASK_NAMES, load_catalog
    from models.gguf_info import GgufError, read_gguf_info
    from models.store import ModelNotAvailable, resolve_model

    catalog = load_catalog()
    settings = load_settings()
    entry = catalog.find(args.model)
    try:
        path = resolve_model(args.model, catalog=catalog)
        info = read_gguf_info(path)
    except (ModelNotAvailable, GgufError, OSError) as exc:
        raise CliError(str(exc)) from None
    if entry is not None:
        settings.local_model.name, settings.local_model.path = entry.name, ""
    else:
        settings.local_model.name, settings.local_model.path = "", str(Path(path).resolve())
    if args.tasks is not None:
        value = args.tasks.strip().lower()
        if value == "none":
            tasks: list[str] = []
        elif value == "recommended":
            tasks = list(entry.tasks) if entry else ["relevance"]
        else:
            tasks = [t.strip() for t in value.split(",") if t.strip()]
            bad = [t for t in tasks if t not in TASK_NAMES]
            if bad:
                raise CliError(f"unknown task(s) {', '.join(bad)}; choose from {', '.join(TASK_NAMES)}")
        settings.local_model.tasks = tasks
    saved = save_settings(settings)
    print(f"local model: {entry.name if entry else path} ({info.name}, {info.size_label}, {info.quantization})")
    print(f"tasks: {', '.join(settings.local_model.tasks) or 'none'} (settings: {saved})")
    return 0


def _info(args: argparse.Namespace) -> int:
    from agent.cli import CliError
    from agent.config import load_settings
    from models.catalog import load_catalog
    from models.gguf_info import GgufError, read_gguf_info
    from models.store import ModelNotAvailable, resolve_model

    catalog = load_catalog()
    name = args.model or _current(load_settings())
    try:
        path = resolve_model(name, catalog=catalog)
        info = read_gguf_info(path)
    except (ModelNotAvailable, GgufError, OSError) as exc:
        raise CliError(str(exc)) from None
    summary = info.summary()
    entry = catalog.by_file(path.name)
    if entry is not None:
        summary["catalog_name"] = entry.name
        summary["recommended_tasks"] = list(entry.tasks)
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    params = f"{info.parameter_count:,}" if info.parameter_count else "unknown"
    rows = [
        ("file", str(path)),
        ("name", info.name),
        ("architecture", info.architecture),
        ("parameters", f"{params} ({info.size_label})" if info.size_label else params),
        ("quantization", info.quantization),
        ("context length", str(info.context_length or "unknown")),
        ("chat template", "yes" if info.has_chat_template else "no (base model: few-shot prompts)"),
        ("licence", info.licence or (entry.licence if entry else "unknown")),
        ("file size", human_size(info.file_size)),
    ]
    if entry is not None:
        rows.append(("good for", ", ".join(entry.tasks) or "-"))
    for key, value in rows:
        print(f"{key:15} {value}")
    return 0


def _remove(args: argparse.Namespace) -> int:
    from agent import paths
    from agent.cli import CliError
    from models.catalog import load_catalog
    from models.store import remove

    entry = load_catalog().find(args.model)
    if entry is not None:
        target: Path = entry.local_path()
    else:
        target = Path(args.model).expanduser().resolve()
        if target.parent != paths.models_dir().resolve():
            raise CliError(f"{target} is not in Veil's models folder; delete it yourself if you mean to")
    removed = remove(entry or target)
    if not removed:
        print(f"nothing to remove for {args.model}")
        return 0
    for path in removed:
        print(f"removed {path}")
    if entry is not None and entry.is_bundled:
        print("(the bundled model is assembled again when it is next used)")
    return 0
