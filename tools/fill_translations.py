"""Fill empty msgstr entries of locale/en/LC_MESSAGES/django.po from a JSON glossary (argv[1]).

Used after `manage.py makemessages -l en`: source strings are Chinese, English is the translation.
"""

import json
import re
import sys

po = "locale/en/LC_MESSAGES/django.po"
table = json.load(open(sys.argv[1]))
text = open(po).read()


def fill(m):
    msgid = m.group(1)
    if msgid in table and m.group(2) == "":
        return f'msgid "{msgid}"\nmsgstr "{table[msgid]}"'
    return m.group(0)


text = re.sub(r'msgid "((?:[^"\\]|\\.)+)"\nmsgstr "((?:[^"\\]|\\.)*)"', fill, text)
text = text.replace('#, fuzzy\nmsgid ""', 'msgid ""', 1)
open(po, "w").write(text)
missing = re.findall(r'msgid "((?:[^"\\]|\\.)+)"\nmsgstr ""\n', text)
print("missing:", missing)
