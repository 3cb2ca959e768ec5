"""Templates compile once per process: every app of it (the tests make many, the command
line a few) reuses the compiled code, and an edited template is compiled anew."""

from __future__ import annotations

import os

from jinja2 import Environment, FileSystemLoader

from referee.app import create_app


def test_a_second_app_shows_a_page_without_compiling_its_templates_again(tmp_path):
    first, second = (create_app({"DATABASE": str(tmp_path / f"{n}.db"), "TESTING": True})
                     for n in ("first", "second"))
    assert first.test_client().get("/login").status_code == 200
    compiled = []
    own = second.jinja_env.compile
    second.jinja_env.compile = lambda *args, **kwargs: compiled.append(args[1:2]) or \
        own(*args, **kwargs)
    page = second.test_client().get("/login", headers={"Accept-Language": "ru"})
    assert page.status_code == 200
    assert 'name="csrf_token"' in page.get_data(as_text=True)
    assert "Войти" in page.get_data(as_text=True)  # its own language, not the first's
    assert compiled == []


def test_an_edited_template_is_compiled_anew_for_every_app(tmp_path):
    shared = create_app({"DATABASE": str(tmp_path / "a.db")}).jinja_env.bytecode_cache
    path = tmp_path / "hello.html"
    path.write_text("Hello, {{ name }}!")

    def shown() -> str:  # a fresh environment each time, as each new app has
        env = Environment(loader=FileSystemLoader(tmp_path), bytecode_cache=shared)
        return env.get_template("hello.html").render(name="<b>Anna</b>")

    assert shown() == "Hello, <b>Anna</b>!"
    assert shown() == "Hello, <b>Anna</b>!"  # from the shared code
    path.write_text("Bye, {{ name }}!!")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert shown() == "Bye, <b>Anna</b>!!"
