#!/usr/bin/env python3
"""Writes layers/world/africa.geojson: the countries of Africa from the world layer's countries.geojson, as a
FeatureCollection, for the world layer's 'africa' coverage. Run from the repository root."""
import json

AFRICA = [
    "Algeria", "Angola", "Benin", "Botswana", "Burkina Faso", "Burundi", "Cabo Verde", "Cameroon",
    "Central African Rep.", "Chad", "Comoros", "Congo", "Côte d'Ivoire", "Dem. Rep. Congo", "Djibouti", "Egypt",
    "Eq. Guinea", "Eritrea", "Ethiopia", "Gabon", "Gambia", "Ghana", "Guinea", "Guinea-Bissau", "Kenya", "Lesotho",
    "Liberia", "Libya", "Madagascar", "Malawi", "Mali", "Mauritania", "Mauritius", "Morocco", "Mozambique",
    "Namibia", "Niger", "Nigeria", "Rwanda", "S. Sudan", "São Tomé and Principe", "Senegal", "Seychelles",
    "Sierra Leone", "Somalia", "Somaliland", "South Africa", "Sudan", "Tanzania", "Togo", "Tunisia", "Uganda",
    "W. Sahara", "Zambia", "Zimbabwe", "eSwatini",
]

FOLDER = "layers/src/main/resources/layers/world/"
with open(FOLDER + "countries.geojson", encoding="utf-8") as f:
    countries = json.load(f)["features"]
features = [c for c in countries if c["properties"]["name"] in AFRICA]
missing = set(AFRICA) - {f["properties"]["name"] for f in features}
if missing:
    raise SystemExit("not in countries.geojson: " + ", ".join(sorted(missing)))
with open(FOLDER + "africa.geojson", "w", encoding="utf-8") as f:
    json.dump({"type": "FeatureCollection", "features": features}, f, separators=(",", ":"), ensure_ascii=False)
