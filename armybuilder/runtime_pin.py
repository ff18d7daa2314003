"""The pinned browser runtime of the page engine (armybuilder/pageengine.py).

The one place its version and checksum are named: the Makefile's ``vendor`` target reads
both from here, the settings serve the vendored copy, and an upgrade is this file alone
(docs/development.md, "The engine in the page").
"""

PYODIDE_VERSION = "314.0.8"
# sha256 of the npm registry's pyodide-<version>.tgz
PYODIDE_SHA256 = "9a52704e0ae5b07aaacb8e4fed9f1658e8024694a078695ea45ac79dee4cefcb"
RUNTIME_PREFIX = f"pyodide-{PYODIDE_VERSION}"
