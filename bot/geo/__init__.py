"""Geocoding for typed addresses: geopy's geocoders driven over httpx."""
