"""Hostile cases of issue 34 about outputs and measurements (classes B, D, G, K, M, N and two
smaller items): an --out under a file, labels matplotlib reads as mathtext, --jobs 0, deeply
nested JSON sent to the servers, LLM runs whose requests fail, test rows that are training rows,
SIGTERM during a fresh run, and refusals that start with a blank line."""

from __future__ import annotations

import http.client
import re
import signal
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

import pandas as pd
from hostile_cases import Case, Outcome, changed, one_line_refusal, tree_state
from hostile_inputs import BUILD, case, spec


def refused_for(case: Case, reason: str, *args: object) -> str | None:
    """:meth:`Case.refused`, and the Error: line says ``reason`` (not another refusal)."""
    before = tree_state(case.base)
    outcome = case.cli(*args)
    broke = one_line_refusal(outcome) or changed(before, tree_state(case.base))
    if broke is None and reason not in outcome.stderr:
        return f"refused for another reason: {outcome.stderr.strip()[:160]}"
    return broke


# B. --out under a regular file --------------------------------------------------------------
UNDER = "lies under"
UNDER_A_FILE = "afile/sub"


def _afile(case: Case) -> None:
    (case.work / "afile").write_text("a file, not a folder\n")


def _built(case: Case) -> str | None:
    _, broke = case.succeeded(*BUILD, "--out", "bench")
    return broke


@case("B-outfile")
def out_under_file_build_maze(case: Case) -> str | None:
    _afile(case)
    return refused_for(case, UNDER, *BUILD, "--out", UNDER_A_FILE)


@case("B-outfile")
def out_under_file_build_mps(case: Case) -> str | None:
    _afile(case)
    return refused_for(
        case,
        UNDER,
        "build",
        "mps",
        "--train",
        "train.csv",
        "--attribute",
        "negation",
        "--out",
        UNDER_A_FILE,
    )


@case("B-outfile")
def out_under_file_generate(case: Case) -> str | None:
    _afile(case)
    return refused_for(case, UNDER, "generate", "--out", UNDER_A_FILE)


@case("B-outfile")
def out_under_file_split(case: Case) -> str | None:
    _afile(case)
    return refused_for(case, UNDER, "split", "train.csv", "--by", "label", "--out", UNDER_A_FILE)


@case("B-outfile")
def out_under_file_audit_html(case: Case) -> str | None:
    _afile(case)
    return refused_for(
        case, UNDER, "audit", "train.csv", "--test", "test.csv", "--out", UNDER_A_FILE, "--html"
    )


@case("B-outfile")
def out_under_file_export_hf(case: Case) -> str | None:
    _afile(case)
    return _built(case) or refused_for(
        case, UNDER, "export", "bench", "--to", "hf", "--out", UNDER_A_FILE
    )


@case("B-outfile")
def out_under_file_export_lm_eval(case: Case) -> str | None:
    _afile(case)
    return _built(case) or refused_for(
        case, UNDER, "export", "bench", "--to", "lm-eval", "--out", UNDER_A_FILE
    )


@case("B-outfile")
def out_under_file_evaluate(case: Case) -> str | None:
    _afile(case)
    return _built(case) or refused_for(
        case,
        UNDER,
        "evaluate",
        "bench",
        "--model",
        "majority",
        "--seeds",
        "1",
        "--out",
        UNDER_A_FILE,
    )


@case("B-outfile")
def out_under_file_run(case: Case) -> str | None:
    _afile(case)
    return refused_for(case, UNDER, "run", spec(case), "--out", UNDER_A_FILE)


@case("B-outfile")
def out_under_file_results_and_report(case: Case) -> str | None:
    _, broke = case.succeeded("run", spec(case), "--out", "r")
    if broke:
        return broke
    _afile(case)
    return refused_for(case, UNDER, "results", "r", "--out", UNDER_A_FILE) or refused_for(
        case, UNDER, "report", "r", "--out", f"{UNDER_A_FILE}/report.html"
    )


@case("B-outfile")
def out_under_file_demo(case: Case) -> str | None:
    _afile(case)
    return refused_for(case, UNDER, "demo", "--out", UNDER_A_FILE)


# D. Labels matplotlib reads as mathtext -----------------------------------------------------
PRICE_TIERS = {1: "$", 2: "$", 3: "$$", 4: "$$$", 5: "$$$"}


def _price_tier_run(case: Case) -> str | None:
    for split in ("train", "test"):
        table = pd.read_csv(case.work / f"{split}.csv")
        table["label"] = table["label"].map(PRICE_TIERS)
        table.to_csv(case.work / f"{split}.csv", index=False)
    body = (
        "family: mps\nname: prices\ndata: {name: prices, train: train.csv}\n"
        "attributes: [negation]\nmps: {test_size: 100}\nmodels: [tfidf-logreg]\nseeds: [0]\n"
    )
    (case.work / "mps.yaml").write_text(body)
    _, broke = case.succeeded("run", "mps.yaml", "--out", "r", timeout=120)
    return broke


def _drawn_texts(svg: str) -> set[str]:
    return set(re.findall(r"<text\b[^>]*>([^<]*)</text>", svg))


@case("D-mathtext")
def dollar_labels_results_out(case: Case) -> str | None:
    broke = _price_tier_run(case)
    if broke:
        return broke
    _, broke = case.succeeded("results", "r", "--out", "tables")
    figures = case.work / "tables" / "figures"
    found = sorted(p.suffix for p in figures.iterdir()) if figures.is_dir() else []
    return broke or (None if found == [".png", ".svg"] else f"figures written: {found}")


@case("D-mathtext")
def dollar_labels_results_in_the_run_folder(case: Case) -> str | None:
    broke = _price_tier_run(case)
    if broke:
        return broke
    outcome, broke = case.succeeded("results", "r")
    figures = case.work / "r" / "figures"
    if broke:
        return broke + (" (and left an empty figures/)" if figures.is_dir() else "")
    return None if figures.is_dir() and any(figures.iterdir()) else "no figures written"


@case("D-mathtext")
def dollar_labels_report(case: Case) -> str | None:
    broke = _price_tier_run(case)
    if broke:
        return broke
    _, broke = case.succeeded("report", "r")
    if broke:
        return broke
    drawn = _drawn_texts((case.work / "r" / "report.html").read_text())
    missing = {"$", "$$", "$$$"} - drawn
    return f"labels not drawn literally: {sorted(missing)}" if missing else None


# G. --jobs 0 --------------------------------------------------------------------------------
@case("G-jobs0")
def run_jobs_zero(case: Case) -> str | None:
    return refused_for(case, "--jobs 0 is not one", "run", spec(case), "--out", "r", "--jobs", "0")


@case("G-jobs0")
def run_jobs_zero_ray(case: Case) -> str | None:
    return refused_for(
        case,
        "--jobs 0 is not one",
        "run",
        spec(case),
        "--out",
        "r",
        "--jobs",
        "0",
        "--executor",
        "ray",
    )


@case("G-jobs0")
def demo_jobs_zero(case: Case) -> str | None:
    return refused_for(case, "--jobs 0 is not one", "demo", "--out", "d", "--jobs", "0")


# K. Deeply nested JSON ----------------------------------------------------------------------
@contextmanager
def _serving(case: Case, *args: str) -> Iterator[str]:
    """Start a server command; yield the first http URL it prints; stop it with SIGTERM."""
    server = case.popen(*args)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = server.stdout.readline() if server.stdout else ""
            found = re.search(r"http://\S+", line)
            if found:
                yield found.group(0).rstrip(".")
                return
            if not line and server.poll() is not None:
                raise RuntimeError(f"the server stopped: {server.stderr.read()[-200:]}")
        raise RuntimeError("the server printed no URL within 60 s")
    finally:
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=30)


def _post(url: str, body: bytes, headers: dict[str, str]) -> tuple[int, str]:
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(request, timeout=30) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()
    except (urllib.error.URLError, http.client.HTTPException, ConnectionError) as error:
        return 0, f"no answer ({type(error).__name__})"


def _expect_400(status: int, text: str) -> str | None:
    if status == 400 and "Traceback" not in text:
        return None
    return f"HTTP {status}: {text[:120]!r}"


@case("K-deepjson")
def annotate_answer_deep_json(case: Case) -> str | None:
    broke = _built(case)
    if broke:
        return broke
    serve = ("annotate", "serve", "bench", "--task", "label", "--port", "0")
    with _serving(case, *serve) as page:
        token = re.search(r"token=([^&\s]+)", page)
        origin = page.split("/?")[0]
        headers = {"X-Token": token.group(1) if token else "", "Origin": origin}
        return _expect_400(*_post(f"{origin}/api/answer", b"[" * 20_000, headers))


@case("K-deepjson")
def llm_server_deep_json(case: Case) -> str | None:
    with _serving(case, "llm-server", "--port", "0") as url:
        return _expect_400(*_post(f"{url}/chat/completions", b"[" * 20_000, {}))


# M. LLM runs whose requests fail or whose answers name no label -----------------------------
def _llm_client(url: str) -> str:
    return (
        f"client={{name: openai-chat, base_url: '{url}', model: shortcutlab-test, "
        "api_key_env: null, cache: ../llm-cache.sqlite}"
    )


@case("M-llmfail")
def llm_base_url_without_v1(case: Case) -> str | None:
    broke = _built(case)
    if broke:
        return broke
    with _serving(case, "llm-server", "--port", "0") as url:
        evaluate = ("evaluate", "bench", "--model", "llm-prompt", "--seeds", "1", "--out", "e")
        outcome = case.cli(*evaluate, "-p", _llm_client(url.removesuffix("/v1")))
    if (case.work / "e").exists():
        return "wrote e/"
    return one_line_refusal(outcome) or (
        None if "/v1" in outcome.stderr else f"no /v1 hint: {outcome.stderr.strip()[:160]}"
    )


@case("M-llmfail")
def llm_label_names_are_answered(case: Case) -> str | None:
    """The tool's own advice (-p "label_names=[...]") against the documented llm-server: every
    answer used to be invalid, silently. Now the server answers in the names the prompt lists, so
    this holds when each row gets a prediction, or when the run stops in one line."""
    broke = _built(case)
    if broke:
        return broke
    with _serving(case, "llm-server", "--train", "bench/train.csv", "--port", "0") as url:
        outcome = case.cli(
            "evaluate", "bench", "--model", "llm-prompt", "--seeds", "1", "--out", "e",
            "-p", _llm_client(url), "-p", "label_names=[one, two, three, four, five]",
        )  # fmt: skip
    if outcome.rc != 0:
        return one_line_refusal(outcome) or ("wrote e/" if (case.work / "e").exists() else None)
    unanswered = pd.read_csv(case.work / "e" / "predictions.csv")["predicted"].isna().sum()
    return f"{unanswered} rows without a prediction" if unanswered else None


@case("M-llmfail")
def llm_grid_without_v1_exits_non_zero(case: Case) -> str | None:
    with _serving(case, "llm-server", "--port", "0") as url:
        model = {
            "name": "llm-prompt",
            "client": {"name": "openai-chat", "base_url": url.removesuffix("/v1"),
                       "model": "shortcutlab-test", "api_key_env": None},
        }  # fmt: skip
        outcome = case.cli("run", spec(case, models=[model]), "--out", "r")
    if outcome.rc == 0 or "reliance" in outcome.stdout:
        return f"exit {outcome.rc}: {outcome.stdout.strip()[-160:]}"
    return None


# N. Test rows that are training rows --------------------------------------------------------
REPEATED = "test rows repeat a training row"


@case("N-overlap")
def build_maze_test_is_train(case: Case) -> str | None:
    return refused_for(case, REPEATED, *BUILD[:5], "train.csv", *BUILD[6:], "--out", "out")


@case("N-overlap")
def build_mps_test_is_train(case: Case) -> str | None:
    return refused_for(
        case, REPEATED, "build", "mps", "--train", "train.csv", "--test", "train.csv",
        "--attribute", "negation", "--out", "out",
    )  # fmt: skip


@case("N-overlap")
def run_test_is_train(case: Case) -> str | None:
    same = spec(case, data={"train": "train.csv", "test": "train.csv"})
    return refused_for(case, REPEATED, "run", same, "--out", "r")


@case("N-overlap")
def build_maze_partial_overlap_warns(case: Case) -> str | None:
    test = pd.read_csv(case.work / "test.csv")
    test.iloc[:60] = pd.read_csv(case.work / "train.csv").head(60).to_numpy()
    test.to_csv(case.work / "mixed.csv", index=False)
    outcome, broke = case.succeeded(*BUILD[:5], "mixed.csv", *BUILD[6:], "--out", "out")
    if broke:
        return broke
    return None if "Warning: 60 of 300 test rows" in outcome.stderr else "no overlap warning"


# Smaller items: SIGTERM during a fresh run; a blank line before Error: ----------------------
@case("small-signals")
def sigterm_fresh_run_leaves_nothing(case: Case) -> str | None:
    spec(case, seeds=[0, 1, 2, 3, 4], strengths=[1.0, 0.8, 0.6])
    run = case.popen("run", "spec.yaml", "--out", "r")
    deadline = time.monotonic() + 60
    while not (case.work / "r").exists() and time.monotonic() < deadline:
        if run.poll() is not None:
            return f"the run ended first (exit {run.returncode})"
        time.sleep(0.05)
    run.send_signal(signal.SIGTERM)
    _, stderr = run.communicate(timeout=120)
    if "Traceback" in stderr:
        return "traceback on SIGTERM"
    if (case.work / "r").exists():
        return f"left {sorted(p.name for p in (case.work / 'r').iterdir())} (exit {run.returncode})"
    return None


@case("small-signals")
def run_refusal_has_no_blank_line(case: Case) -> str | None:
    outcome: Outcome = case.cli("run", spec(case, strengths=[1.5]), "--out", "r")
    broke = one_line_refusal(outcome)
    if broke:
        return broke
    return None if outcome.stderr.startswith("Error: ") else f"stderr: {outcome.stderr[:40]!r}"
