"""Pages of the matches app: `public` (no login) and `manage` (organisers)."""
