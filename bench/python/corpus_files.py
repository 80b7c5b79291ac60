"""The five corpus documents the quick Python benchmarks use, and where they
are: ../shared/corpus/bench beside the repository, as in CI."""

import os

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "..", "..", "shared", "corpus", "bench")
FILES = [
    "nativejson-benchmark/twitter.json",
    "nativejson-benchmark/citm_catalog.json",
    "nativejson-benchmark/canada.json",
    "simdjson/github_events.json",
    "simdjson/gsoc-2018.json",
]
