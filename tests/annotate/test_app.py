"""The app's routes through Starlette's TestClient: the token, the round trip, malformed requests."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from shortcutlab.annotate.app import make_app
from shortcutlab.annotate.store import AnnotationStore
from shortcutlab.annotate.task_folder import prepare_task
from tests.annotate.toy_kind import ToyLabelKind, write_toy_source

TOKEN = "s3cret-token"
ANSWER = {"label": "positive", "sure": "yes"}


@pytest.fixture
def task(tmp_path: Path) -> Path:
    folder = tmp_path / "task"
    prepare_task(
        write_toy_source(tmp_path / "source"), ToyLabelKind(), folder=folder, sample=4, seed=0
    )
    return folder


@pytest.fixture
def client(task: Path) -> Any:
    store = AnnotationStore.open(task)
    with TestClient(
        make_app(store, ToyLabelKind(), TOKEN), raise_server_exceptions=False
    ) as client:
        client.headers["X-Token"] = TOKEN
        yield client
    store.close()


def _stored(task: Path) -> list[tuple[str, str, str, str]]:
    with AnnotationStore.open(task) as store:
        answers = store.answers()
    return list(
        answers[["item_id", "annotator", "field", "value"]].itertuples(index=False, name=None)
    )


@pytest.mark.parametrize(
    "path", ["/", "/api/task", "/api/next?annotator=ann", "/api/progress", "/nowhere"]
)
@pytest.mark.parametrize("token", [None, "", "wrong", TOKEN + "x"])
def test_requests_without_the_right_token_are_refused(
    task: Path, path: str, token: str | None
) -> None:
    with (
        AnnotationStore.open(task) as store,
        TestClient(make_app(store, ToyLabelKind(), TOKEN)) as client,
    ):
        headers = {} if token is None else {"X-Token": token}
        response = client.get(path, headers=headers)
    assert response.status_code == 403
    assert "access token" in response.json()["error"]


def test_a_refused_answer_is_not_stored(task: Path) -> None:
    with (
        AnnotationStore.open(task) as store,
        TestClient(make_app(store, ToyLabelKind(), TOKEN)) as client,
    ):
        item_id = store.plan().items[0].item_id
        body = {"annotator": "ann", "item_id": item_id, "answer": ANSWER}
        response = client.post("/api/answer?token=wrong", json=body)
    assert response.status_code == 403
    assert _stored(task) == []


def test_the_token_is_accepted_in_the_url_or_the_header(task: Path) -> None:
    with (
        AnnotationStore.open(task) as store,
        TestClient(make_app(store, ToyLabelKind(), TOKEN)) as client,
    ):
        assert client.get(f"/?token={TOKEN}").status_code == 200
        assert client.get("/api/task", headers={"X-Token": TOKEN}).status_code == 200


def test_the_page_is_self_contained_and_locked_down(client: Any) -> None:
    response = client.get("/")
    page = response.text
    assert response.headers["content-type"].startswith("text/html")
    assert "default-src 'none'" in response.headers["content-security-policy"]
    assert response.headers["cache-control"] == "no-store"
    assert re.search(r"https?://", page) is None
    assert re.findall(r"""(?:src|href)=["']?([^"' >]*)""", page) == ["data:,"]  # the empty icon
    assert "toy-label" in page and 'id="name-form"' in page


def test_a_round_of_answers_is_stored_in_order(client: Any, task: Path) -> None:
    with AnnotationStore.open(task) as store:
        order = [item.item_id for item in store.plan().items]
    seen = []
    view = client.get("/api/next", params={"annotator": "ann"}).json()
    while not view["done"]:
        assert view["answered"] == len(seen) and view["total"] == 4
        assert "reference" not in view and "label" not in view["payload"]  # gold never shown
        seen.append(view["item_id"])
        reply = client.post(
            "/api/answer", json={"annotator": "ann", "item_id": view["item_id"], "answer": ANSWER}
        )
        assert reply.status_code == 200 and reply.json()["stored"] is True
        view = reply.json()["next"]
    assert seen == order
    assert view == {"done": True, "answered": 4, "total": 4}
    assert _stored(task) == [
        (item, "ann", field, value) for item in order for field, value in sorted(ANSWER.items())
    ]
    progress = client.get("/api/progress").json()
    assert progress == {"total": 4, "annotators": [{"annotator": "ann", "answered": 4}]}


def test_going_back_shows_the_earlier_answer_and_a_new_one_replaces_it(
    client: Any, task: Path
) -> None:
    first = client.get("/api/next", params={"annotator": "ann"}).json()
    client.post(
        "/api/answer", json={"annotator": "ann", "item_id": first["item_id"], "answer": ANSWER}
    )
    back = client.get("/api/item", params={"annotator": "ann", "position": 0}).json()
    assert back["item_id"] == first["item_id"] and back["answer"] == ANSWER
    other = client.get("/api/item", params={"annotator": "bob", "position": 0}).json()
    assert other["answer"] == {}
    changed = {"label": "negative", "sure": "no"}
    reply = client.post(
        "/api/answer", json={"annotator": "ann", "item_id": first["item_id"], "answer": changed}
    )
    assert reply.json()["next"]["position"] == 1  # back to the first unanswered item
    assert _stored(task) == [
        (first["item_id"], "ann", "label", "negative"),
        (first["item_id"], "ann", "sure", "no"),
    ]


def _item_id(client: Any) -> str:
    return client.get("/api/next", params={"annotator": "ann"}).json()["item_id"]


@pytest.mark.parametrize(
    ("make_request", "status", "says"),
    [
        (lambda c: c.post("/api/answer", content=b"{not json"), 400, "not valid JSON"),
        (lambda c: c.post("/api/answer", content=b"\xff\xfe"), 400, "not valid JSON"),
        (lambda c: c.post("/api/answer", json=[1, 2]), 400, "JSON object"),
        (
            lambda c: c.post(
                "/api/answer", json={"annotator": "ann", "item_id": "nope", "answer": ANSWER}
            ),
            404,
            "no item 'nope'",
        ),
        (
            lambda c: c.post(
                "/api/answer", json={"annotator": "", "item_id": _item_id(c), "answer": ANSWER}
            ),
            400,
            "annotator must be",
        ),
        (
            lambda c: c.post(
                "/api/answer",
                json={"annotator": "<b>x</b>", "item_id": _item_id(c), "answer": ANSWER},
            ),
            400,
            "annotator must be",
        ),
        (
            lambda c: c.post(
                "/api/answer",
                json={
                    "annotator": "ann",
                    "item_id": _item_id(c),
                    "answer": {"label": "maybe", "sure": "yes"},
                },
            ),
            422,
            "label must be one of",
        ),
        (
            lambda c: c.post(
                "/api/answer",
                json={"annotator": "ann", "item_id": _item_id(c), "answer": "positive"},
            ),
            422,
            "exactly the fields",
        ),
        (lambda c: c.post("/api/answer", content=b"x" * 70_000), 413, "at most"),
        # 20,000 "[": past json.loads' recursion limit (it raised RecursionError, a 500)
        (lambda c: c.post("/api/answer", content=b"[" * 20_000), 400, "deeper than 32 levels"),
        (
            lambda c: c.post(
                "/api/answer",
                content=b'{"annotator": "ann", "item_id": ' + b"[" * 40 + b"]" * 40 + b"}",
            ),
            400,
            "deeper than 32 levels",
        ),
        (lambda c: c.get("/api/answer"), 405, "Method Not Allowed"),
        (lambda c: c.put("/"), 405, "Method Not Allowed"),
        (lambda c: c.get("/api/next"), 400, "annotator must be"),
        (
            lambda c: c.get("/api/item", params={"annotator": "ann", "position": "9"}),
            400,
            "position must be",
        ),
        (
            lambda c: c.get("/api/item", params={"annotator": "ann", "position": "-1"}),
            400,
            "position must be",
        ),
        (
            lambda c: c.get("/api/item", params={"annotator": "ann", "position": "²"}),
            400,
            "position must be",
        ),
        (lambda c: c.get("/api/next?annotator=%ff%fe"), 400, "annotator must be"),
        (lambda c: c.get("/static/../../etc/passwd"), 404, "Not Found"),
    ],
)
def test_malformed_requests_get_a_json_error_and_store_nothing(
    client: Any, task: Path, make_request: Any, status: int, says: str
) -> None:
    response = make_request(client)
    assert response.status_code == status
    assert response.headers["content-type"] == "application/json"
    assert says in response.json()["error"]
    assert "Traceback" not in response.text
    assert _stored(task) == []


class BrokenKind(ToyLabelKind):
    def check_answer(self, form: Any, answer: Any) -> dict[str, str]:
        raise RuntimeError("a bug in a task kind")


def test_a_bug_answers_500_json_without_a_traceback(task: Path) -> None:
    with AnnotationStore.open(task) as store:
        item_id = store.plan().items[0].item_id
        app = make_app(store, BrokenKind(), TOKEN)
        with TestClient(app, raise_server_exceptions=False) as client:
            body = {"annotator": "ann", "item_id": item_id, "answer": ANSWER}
            response = client.post("/api/answer", json=body, headers={"X-Token": TOKEN})
    assert response.status_code == 500
    assert response.json() == {"error": "internal error (RuntimeError); the answer was not stored"}
    assert "a bug in a task kind" not in response.text
    assert _stored(task) == []
