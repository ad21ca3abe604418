#!/usr/bin/env python3
"""Values of a --stats-json file (spu-csim, spu-tb; docs/formats.md), for
test scripts, which read no human text.

usage: tests/json_get.py FILE KEY[.KEY...]...
A KEY of digits indexes an array (from 0).
Prints each value on a line of its own (null as "null"); exit 1 naming
the key when one is missing or the file is not JSON.
"""
import json
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: tests/json_get.py FILE KEY[.KEY...]...")
    try:
        with open(sys.argv[1]) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        print(f"json_get: {sys.argv[1]}: {e}", file=sys.stderr)
        sys.exit(1)
    for path in sys.argv[2:]:
        v = data
        for k in path.split("."):
            if isinstance(v, list) and k.isdigit() and int(k) < len(v):
                v = v[int(k)]
                continue
            if not isinstance(v, dict) or k not in v:
                print(f"json_get: {sys.argv[1]}: no key '{path}'", file=sys.stderr)
                sys.exit(1)
            v = v[k]
        print("null" if v is None else v)


if __name__ == "__main__":
    main()
