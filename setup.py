"""The compiled search core (rules/ai/core/*.c) as the extension rules.ai._core; everything
else of the distribution is declared in pyproject.toml. The extension is optional: where
it cannot be built the install goes on, and the strong level searches in Python
(rules/ai/native.py says so)."""

from glob import glob

from setuptools import Extension, setup

setup(ext_modules=[Extension(
    "rules.ai._core",
    sources=sorted(glob("rules/ai/core/*.c")),
    depends=sorted(glob("rules/ai/core/*.h")),
    extra_compile_args=["-O2", "-std=gnu11", "-Wall", "-Wno-unused-function"],
    optional=True,
)])
