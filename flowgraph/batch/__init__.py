"""Running many puzzle files."""
