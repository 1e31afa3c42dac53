"""Helpers for tests/test_hub.py: a git server, a JupyterHub, and learners who use them over HTTP."""
