"""Code that starts a fresh interpreter (``python -c WITHOUT_TORCH + code``) as if the torch
extra were not installed: importing torch fails and asking for it finds nothing. Tests check with
it that what is declared not to need torch works without it."""

#: A fresh interpreter in which torch is missing: importing it fails and asking for it finds
#: nothing, as where the torch extra is not installed.
WITHOUT_TORCH = """
import importlib.util, sys
class NoTorch:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "torch":
            raise ModuleNotFoundError(f"No module named {name!r}")
find_spec = importlib.util.find_spec
importlib.util.find_spec = lambda name, *a: None if name == "torch" else find_spec(name, *a)
sys.meta_path.insert(0, NoTorch())
"""
