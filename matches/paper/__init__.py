"""The paper score sheet: where each box is (layout.py, read by the printing in
matches/draw/sheet_printing.py and by the reader) and the reader of its photos (reader.py,
digits.py). Pure Python over Pillow, numpy and zxing-cpp: no Django, nothing of the site
(pyproject.toml holds it); docs/scoresheets.md."""
