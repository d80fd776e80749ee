"""The sitemapconv command line: a thin skin that turns flags into library options."""
