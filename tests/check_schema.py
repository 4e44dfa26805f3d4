#!/usr/bin/env python3
"""Validates qsim's JSON documents against docs/report.schema.json (tests/test_report_schema.c).

usage: check_schema.py SCHEMA FILE...   exit 0: every file valid; 1: one is not (each error
printed as FILE: PATH: MESSAGE); 2: no validator (python3-jsonschema missing)."""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("check_schema.py: python3-jsonschema is not installed", file=sys.stderr)
    sys.exit(2)


STATS = {"n", "mean", "sd", "median", "min", "max", "ci95_low", "ci95_high", "interval"}


def stats_errors(node, where):
    """What a schema cannot say: a summary's numbers in their order (min <= median, mean <= max,
    the interval around the mean), and no interval below 0 for a quantity no run had below 0."""
    if isinstance(node, dict):
        if set(node) == STATS:
            lo, hi, m = node["ci95_low"], node["ci95_high"], node["mean"]
            eps = 1e-9 * max(1.0, abs(node["max"]), abs(node["min"]))
            if not node["min"] - eps <= node["median"] <= node["max"] + eps:
                yield f"{where}: median {node['median']} outside [{node['min']}, {node['max']}]"
            if not node["min"] - eps <= m <= node["max"] + eps:
                yield f"{where}: mean {m} outside [{node['min']}, {node['max']}]"
            if not lo - eps <= m <= hi + eps:
                yield f"{where}: mean {m} outside its interval [{lo}, {hi}]"
            if node["min"] >= 0 and lo < 0:
                yield f"{where}: interval below 0 ({lo}) for a quantity never below 0"
        for k, v in node.items():
            yield from stats_errors(v, f"{where}/{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from stats_errors(v, f"{where}/{i}")


def main(argv):
    with open(argv[1]) as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema)
    bad = 0
    for path in argv[2:]:
        with open(path) as f:
            doc = json.load(f)
        for e in sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path)):
            where = "/".join(str(p) for p in e.absolute_path) or "(root)"
            print(f"{path}: {where}: {e.message[:300]}")
            bad += 1
        for msg in stats_errors(doc, ""):
            print(f"{path}: {msg}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
