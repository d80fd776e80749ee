"""``python -m sitemapconv`` runs the command line."""

from ._cli.main import main

main()
