"""What a page's engine worker calls: the rules engine in the browser, JSON in and JSON out.

``static/js/engine/worker.js`` runs this very package in Pyodide and answers the page's
``MusterEngine.call("rules.page.<module>:<function>", {...})`` through ``bridge.call``.
Each concern has its own module here; each is thin, over the same engine the server runs,
so the page's figures are the server's by construction.
"""
