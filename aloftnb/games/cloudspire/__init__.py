"""Cloudspire: tower defense in waves (rules.py; docs/rules/cloudspire.md)."""
