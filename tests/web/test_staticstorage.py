"""Production's static files: the builder's JavaScript modules import each other by their
hashed names, so the service worker's offline shell (hashed names only) holds every
module the builder page needs."""

import json
import re

from django.core.management import call_command
from django.test import override_settings

from armybuilder.staticstorage import ModuleManifestStaticFilesStorage


class UncompressedModuleStorage(ModuleManifestStaticFilesStorage):
    """Production's storage without the compressed copies (whitenoise's own work, and ten
    seconds of the collection): the names, hashes and imports are made alike."""

    def compress_files(self, paths):
        return iter(())


STORAGE = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": f"{__name__}.UncompressedModuleStorage"},
}


def test_every_module_import_names_a_hashed_file_that_was_collected(tmp_path):
    with override_settings(STATIC_ROOT=tmp_path, STORAGES=STORAGE):
        call_command("collectstatic", "--noinput", verbosity=0)
    paths = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
    modules = [name for name in paths if name.startswith("js/changes/")]
    assert "js/changes/main.js" in modules
    imported = 0
    for name in modules:
        text = (tmp_path / paths[name]).read_text()
        folder = paths[name].rsplit("/", 1)[0]
        for target in re.findall(r'from\s*"(\.[^"]+)"', text):
            imported += 1
            assert re.search(r"\.[0-9a-f]{12}\.js$", target), f"{name} imports {target}"
            resolved = (tmp_path / folder / target).resolve()
            assert resolved.is_file(), f"{name} imports {target}, which was not collected"
    assert imported >= 5
