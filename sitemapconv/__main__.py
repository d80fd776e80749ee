"""``python -m sitemapconv`` runs the command line."""

from .cli import main

main()
