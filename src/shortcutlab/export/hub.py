"""Upload an exported dataset folder to the Hugging Face Hub (``--push-to-hub REPO``).

Only the repository layout goes up (the card and ``data/*.parquet``): the Hub reads those; the
``save_to_disk`` files stay local. The token is huggingface_hub's own: ``HF_TOKEN`` or
``huggingface-cli login``.
"""

from __future__ import annotations

from pathlib import Path

from shortcutlab.errors import BackendError, ConfigError
from shortcutlab.export.hf import CARD, DATA

UPLOADED = (CARD, f"{DATA}/*.parquet")


def push_to_hub(folder: Path, repo: str, *, private: bool = False) -> str:
    """Create the dataset repository ``repo`` if needed and upload ``folder``'s card and data;
    returns the repository's URL."""
    try:
        import huggingface_hub
    except ImportError as exc:
        raise ConfigError(
            "--push-to-hub needs the 'huggingface_hub' package. Install it with: "
            "pip install 'shortcutlab[hf]'."
        ) from exc
    api = huggingface_hub.HfApi()
    try:
        url = api.create_repo(repo, repo_type="dataset", private=private, exist_ok=True)
        api.upload_folder(
            folder_path=str(folder),
            repo_id=repo,
            repo_type="dataset",
            allow_patterns=list(UPLOADED),
            commit_message="Upload a benchmark exported by shortcutlab",
        )
    # The export is already written; any failure of the push (HTTP, network, auth) is one line.
    except Exception as exc:
        reason = " ".join(str(exc).split())[:300]
        raise BackendError(
            f"Pushing '{folder}' to the Hub repository '{repo}' failed ({reason}); the export is "
            "kept. Check the name and your token (HF_TOKEN or 'huggingface-cli login')."
        ) from exc
    return str(url)
