"""check_setup(): one line per requirement, OK or PROBLEM with what to do; it reads the direct pins, binder/requirements.in."""

import pathlib

import pytest

from loopkit.teaching import setup_check

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_every_pin_of_binder_requirements_gets_one_ok_line_here():
    lines = setup_check.setup_lines(ROOT / "notebooks")
    pins = setup_check.read_pins(ROOT / "binder" / "requirements.in")
    assert len(lines) == 2 + len(pins)
    assert all(line.startswith("OK ") for line in lines), lines
    assert {line.split()[1] for line in lines[2:]} == set(pins)


def test_a_missing_or_different_package_is_a_problem_that_says_what_to_do(tmp_path, monkeypatch):
    (tmp_path / "binder").mkdir()
    (tmp_path / "binder" / "requirements.in").write_text("pandas==0.0.1\nno-such-package-here==1.0\n")
    monkeypatch.setattr(setup_check.pathlib.Path, "cwd", lambda: tmp_path)
    pandas_line, missing_line = setup_check.setup_lines()[2:]
    assert pandas_line.startswith("PROBLEM  pandas: expected 0.0.1, found ") and "make lab" in pandas_line
    assert missing_line.startswith("PROBLEM  no-such-package-here 1.0 is not installed") and "Binder" in missing_line


def test_the_requirements_are_found_from_the_notebooks_folder_and_from_the_package():
    assert setup_check.find_requirements(ROOT / "notebooks") == ROOT / "binder" / "requirements.in"
    assert setup_check.find_requirements(pathlib.Path("/")) == ROOT / "binder" / "requirements.in"


def test_an_unpinned_line_names_the_file_and_line(tmp_path):
    path = tmp_path / "r.txt"
    path.write_text("pandas==3.1.1\nnumpy>=2\n")
    with pytest.raises(ValueError, match=r"r\.txt:2: expected a pinned 'name==version' line, got 'numpy>=2'"):
        setup_check.read_pins(path)


def test_check_setup_prints_the_lines(capsys, monkeypatch):
    monkeypatch.chdir(ROOT / "notebooks")
    setup_check.check_setup()
    assert capsys.readouterr().out.splitlines() == setup_check.setup_lines()
