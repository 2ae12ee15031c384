#!/usr/bin/env python3
"""Refresh the zh_CN catalogue and fill it from JSON-lines files of new translations.

Usage: scripts/apply-translations.py [PENDING.jsonl ...]

1. Runs lupdate over app/ widgets/ core/ parser/ into resources/translations/ascend-timeline_zh_CN.ts.
2. Every line of each PENDING file is {"context": C, "source": S, "translation": T[, "comment": K]};
   the matching unfinished message gets T (a numerus message gets T as its single zh_CN form). A line with
   "replace": true corrects a message that is already translated (its "note" says why).
3. Prints every message still unfinished (tst_theme_language fails on any) and exits 1 if there is one.

Work in parallel branches adds its strings to resources/translations/pending/<topic>.jsonl, so merging
branches never conflicts inside the XML catalogue: the catalogue is regenerated and refilled.
"""
import glob
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TS = os.path.join(ROOT, "resources", "translations", "ascend-timeline_zh_CN.ts")
LUPDATE = os.environ.get("LUPDATE", "/usr/lib/qt6/bin/lupdate")


def run_lupdate():
    subprocess.run([LUPDATE, "-silent", "-no-obsolete", "-locations", "none", "app", "widgets", "core", "parser",
                    "-ts", TS], cwd=ROOT, check=True)


def load_pending(paths):
    table = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    entry = json.loads(line)
                except json.JSONDecodeError as error:
                    sys.exit(f"{path}:{number}: not JSON: {error}")
                key = (entry["context"], entry["source"], entry.get("comment", ""))
                table[key] = (entry["translation"], bool(entry.get("replace", False)))
    return table


def fill(table):
    tree = ET.parse(TS)
    filled, missing = 0, []
    for context in tree.getroot().iter("context"):
        name = context.findtext("name")
        for message in context.iter("message"):
            source = message.findtext("source")
            comment = message.findtext("comment") or ""
            translation = message.find("translation")
            if translation is None:
                continue
            entry = table.get((name, source, comment))
            unfinished = translation.get("type") == "unfinished"
            if not unfinished and (entry is None or not entry[1]):
                continue
            if entry is None:
                missing.append((name, source, comment))
                continue
            text = entry[0]
            if unfinished:
                del translation.attrib["type"]
            if message.get("numerus") == "yes":
                for child in list(translation):
                    translation.remove(child)
                form = ET.SubElement(translation, "numerusform")
                form.text = text
            else:
                translation.text = text
            filled += 1
    with open(TS, "wb") as f:
        f.write(b'<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n')
        tree.write(f, encoding="utf-8", xml_declaration=False)
    return filled, missing


def main():
    paths = sys.argv[1:] or sorted(glob.glob(os.path.join(ROOT, "resources", "translations", "pending", "*.jsonl")))
    run_lupdate()
    filled, missing = fill(load_pending(paths))
    run_lupdate()  # normalise the layout the way lupdate writes it
    print(f"filled {filled} messages")
    for name, source, comment in missing:
        print(json.dumps({"context": name, "source": source, "comment": comment, "translation": ""},
                         ensure_ascii=False))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
