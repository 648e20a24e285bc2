"""Rubber bridge, Chicago and their score sheets."""
