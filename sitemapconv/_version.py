"""The package version, kept apart so ``fetch`` can name it without importing the API."""

__version__ = "0.1.0"
