"""Authoring tools: uniqueness, templates, generation."""
